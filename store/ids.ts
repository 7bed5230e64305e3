import type { Tx } from './db.js';

/**
 * What an id names. Games, matches, players and webhook subscriptions all have random uuids made by
 * the database (`gen_random_uuid()`), so an id is unique across the four tables: the API uses it as the
 * object's global id, and this finds the table that holds it.
 */
export const ID_KINDS = ['game', 'match', 'player', 'webhook-subscription', 'tournament'] as const;
export type IdKind = (typeof ID_KINDS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid in its text form, any case: what every id of the database is (anything else names nothing). */
export const isUuid = (id: string): boolean => UUID.test(id);

/** The kind of each of `ids` that exists (ids that are not uuids, or name nothing, are left out). */
export const kindsOfIds = async (client: Tx, ids: readonly string[]): Promise<Map<string, IdKind>> => {
  const uuids = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const out = new Map<string, IdKind>();
  if (uuids.length === 0) return out;
  const where = { id: { in: uuids } };
  const select = { id: true } as const;
  // One after the other: a PGlite connection runs one query at a time anyway.
  const found: [IdKind, { id: string }[]][] = [
    ['game', await client.game.findMany({ where, select })],
    ['match', await client.match.findMany({ where, select })],
    ['player', await client.player.findMany({ where, select })],
    ['webhook-subscription', await client.webhookSubscription.findMany({ where, select })],
    ['tournament', await client.tournament.findMany({ where, select })],
  ];
  for (const [kind, rows] of found) for (const row of rows) out.set(row.id, kind);
  return out;
};
