/**
 * A small tournament client for the tournament suites (GraphQL over the test API): an event with a
 * director, a tournament of one division, players added, and the GraphQL documents the suites share.
 */
import { expect } from 'vitest';
import type { TestApi } from '../api/harness.js';
import { graphql, type Player } from '../e2e/client.js';
import { giveRole, registerPlayers } from '../e2e/fixture.js';

/** Every error of a query: the Error interface, and the fields of a ValidationError. */
export const READ_ERR = `... on Error { code message details citation { source rule } } ... on ValidationError { issues { field message } }`;
/** …and of a mutation: a StaleVersionError's too. */
export const ERR = `${READ_ERR} ... on StaleVersionError { expected actual }`;

const SLIP = `first second firstScore secondScore kind forfeiter status signers signedForBoth changes { from to by { role name } ruling { kind reason disputeId } }`;
export const ROUND = `__typename ... on Round { number division version status method seed
  pairings { first second firstName secondName firstReason repeats slip { ${SLIP} } }
  byes { player name spread } history { overridden method reason by { role name } } } ${ERR}`;
export const DIVISION = `__typename ... on Division { name version entrants { number name playerId rating class withdrawnFromRound } } ${ERR}`;
export const TOURNAMENT = `__typename ... on Tournament { id name version public viewerRole myEntrants { division number }
  divisions { name mode roundCount entrants { number name } rounds { number status } } } ${READ_ERR}`;
export const STANDINGS = `__typename ... on Tournament { version division(name: "A") {
  standings { rank number name wins losses spread firsts seconds byes played withdrawn record }
  crosstable { rank number name cells { round kind opponent position score opponentScore result forfeit wins losses spread } } } } ${READ_ERR}`;

const GAME = '$t: ID!, $d: String!, $r: Int!, $p: Int!, $o: Int!, $v: Int, $k: String';
const GAME_ARGS = 'tournamentId: $t, division: $d, round: $r, player: $p, opponent: $o, expectedVersion: $v, idempotencyKey: $k';
const ROUND_VARS = '$t: ID!, $d: String!, $r: Int!, $v: Int, $k: String';
const ROUND_ARGS = 'tournamentId: $t, division: $d, round: $r, expectedVersion: $v, idempotencyKey: $k';

export const DOCS = {
  createTournament: `mutation($input: CreateTournamentInput!, $k: String) { createTournament(input: $input, idempotencyKey: $k) { ${TOURNAMENT} } }`,
  tournament: `query($id: ID!) { tournament(id: $id) { ${TOURNAMENT} } }`,
  standings: `query($id: ID!) { tournament(id: $id) { ${STANDINGS} } }`,
  tournaments: `query($o: ID) { tournaments(organizationId: $o, first: 10) { edges { node { id name public version } } pageInfo { hasNextPage } } }`,
  addTournamentPlayer: `mutation($t: ID!, $d: String!, $h: String, $n: String, $rating: Int, $c: String, $v: Int) {
    addTournamentPlayer(tournamentId: $t, division: $d, handle: $h, name: $n, rating: $rating, class: $c, expectedVersion: $v) { ${DIVISION} } }`,
  withdrawTournamentPlayer: `mutation($t: ID!, $d: String!, $p: Int!) { withdrawTournamentPlayer(tournamentId: $t, division: $d, player: $p, reason: "ill") { ${DIVISION} } }`,
  pairRound: `mutation(${ROUND_VARS}, $m: PairingMethod, $s: String) { pairRound(${ROUND_ARGS}, method: $m, seed: $s) { ${ROUND} } }`,
  startRound: `mutation(${ROUND_VARS}) { startRound(${ROUND_ARGS}) { ${ROUND} } }`,
  endRound: `mutation(${ROUND_VARS}) { endRound(${ROUND_ARGS}) { ${ROUND} } }`,
  recordResult: `mutation(${GAME}, $s: Int, $os: Int, $kind: ResultKind, $f: Int) {
    recordResult(${GAME_ARGS}, score: $s, opponentScore: $os, kind: $kind, forfeiter: $f) { ${ROUND} } }`,
  signSlip: `mutation(${GAME}) { signSlip(${GAME_ARGS}) { ${ROUND} } }`,
  submitSlip: `mutation(${GAME}) { submitSlip(${GAME_ARGS}) { ${ROUND} } }`,
  correctSlip: `mutation(${GAME}, $s: Int!, $os: Int!) { correctSlip(${GAME_ARGS}, score: $s, opponentScore: $os) { ${ROUND} } }`,
  changeSlip: `mutation(${GAME}, $s: Int!, $os: Int!, $why: String!) { changeSlip(${GAME_ARGS}, score: $s, opponentScore: $os, reason: $why) { ${ROUND} } }`,
} as const;

export type Field = keyof typeof DOCS;
// The answers are read loosely: the schema, not these tests, says what they hold.
export type Json = Record<string, any>;

/** The root field of a document named otherwise. */
const ROOT: Partial<Record<Field, string>> = { standings: 'tournament' };

/** Runs one of {@link DOCS} (its root field is its name) as `p` (anonymous without). */
export const run = (api: TestApi, field: Field, variables: Record<string, unknown>, p?: Player): Promise<Json> =>
  graphql<Json>(api, ROOT[field] ?? field, DOCS[field], variables, p?.token);

/** Expects the answer to be `typename` (a success type); returns it. */
export const expectType = (answer: Json, typename: string): Json => {
  expect(answer.__typename, JSON.stringify(answer)).toBe(typename);
  return answer;
};

const CREATE_ORG = `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { __typename ... on Organization { id } ${ERR} } }`;
const GRANT = `mutation($h: String!, $o: ID) { grantDirector(handle: $h, organization: $o) { __typename ${ERR} ... on RoleGrant { role } } }`;

/** An admin makes an event and grants `director` its director role; the event's id. */
export const eventDirectedBy = async (api: TestApi, admin: Player, director: Player, name: string): Promise<string> => {
  await giveRole(api, admin, 'admin');
  const event = await graphql<Json>(api, 'createOrganization', CREATE_ORG, { input: { kind: 'EVENT', name } }, admin.token);
  expectType(event, 'Organization');
  expectType(await graphql<Json>(api, 'grantDirector', GRANT, { h: director.handle, o: event.id }, admin.token), 'RoleGrant');
  return event.id as string;
};

/** The players of the eight-player division: two accounts (by handle) and six names only, seeded by rating. */
export const EIGHT = (accounts: readonly Player[]) => [
  { h: accounts[0]!.handle, rating: 1900, c: 'A' },
  { h: accounts[1]!.handle, rating: 1800, c: 'A' },
  { n: 'Carter, Cy', rating: 1700, c: 'B' },
  { n: 'Dumont, Di', rating: 1600, c: 'B' },
  { n: 'Evans, Ed', rating: 1500, c: 'C' },
  { n: 'Fonte, Flo', rating: 1400, c: 'C' },
  { n: 'Gray, Gus', rating: 1300, c: 'D' },
  { n: 'Hale, Hal', rating: 1200, c: 'D' },
];

export { registerPlayers };

/** Scores for a game between two entrants: the lower number wins by a margin that depends on both (distinct spreads). */
export const scoresFor = (first: number, second: number): [number, number] => {
  const winner = Math.min(first, second);
  const margin = 10 + first * 7 + second * 3;
  return winner === first ? [400 + margin, 400] : [400, 400 + margin];
};
