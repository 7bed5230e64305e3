/**
 * What an id names (store/ids.ts): the uuids of games, matches, players and webhook subscriptions are
 * unique across all four, so the API can use them as global ids (Relay `node(id:)`) and find the kind of
 * object one names. Only which table holds an id: whether the caller may see the object is the
 * business of the use case that reads it.
 */
export { ID_KINDS, isUuid, kindsOfIds, type IdKind } from '../store/ids.js';
