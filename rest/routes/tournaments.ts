import { body, bodyField, idempotencyKey, ifMatch, path, query, textBody, type Route } from '../route.js';
import { CROSSTABLE_ROW, DIVISION, ROUND, STANDING, TOURNAMENT, TOURNAMENT_SUMMARY } from '../shapes.js';

/**
 * Tournaments (issue 30, item 9): a tournament and its divisions' players, rounds, pairings, results and
 * tally slips, standings and crosstable, and a division as a TSH `.t` file (both ways) or standings CSV.
 *
 *   /tournaments/{id}                                    the tournament (ETag: its version)
 *   /tournaments/{id}/divisions/{division}/…             players, standings, crosstable, standings.csv
 *   /tournaments/{id}/divisions/{division}.t             the division as TSH (GET), a new one from TSH (POST)
 *   /tournaments/{id}/divisions/{division}/rounds/{round}[/pairing|start|end|results|…]
 *   …/rounds/{round}/slips/{player}-{opponent}/sign|submit|correct|change
 *
 * A game of a round is named by its two players' entrant numbers, in either order (`3-5` and `5-3` are the
 * same slip). Every write answers what it changed (the tournament, the division or the round) with the
 * tournament's version as its ETag; If-Match (optional) refuses a write decided on an older version with
 * 412, and an Idempotency-Key makes a retry answer the first answer again. Reads need no credential for a
 * public tournament; with one, a private tournament its directors and players see.
 */

const PLAY = 'scope:games:play' as const;
const TAG = 'Tournaments';
const NOT_FOUND = ['TOURNAMENT_NOT_FOUND', 'DIVISION_NOT_FOUND', 'ROUND_NOT_FOUND', 'PLAYER_NOT_FOUND'];
const DIVISION_PATH = '/tournaments/{id}/divisions/{division}';
const ROUND_PATH = `${DIVISION_PATH}/rounds/{round}`;
const SLIP_PATH = `${ROUND_PATH}/slips/{player}-{opponent}`;
const READS =
  ' Open to anyone for a public tournament; a private one answers 404 but to its event’s directors and its players (send a credential).';

const tournamentUrl = (v: Record<string, unknown>) => `/v1/tournaments/${encodeURIComponent(String(v['id']))}`;

/** Where the arguments every command shares come from: the path, If-Match and Idempotency-Key. */
const divisionArgs = {
  tournamentId: path('id'),
  division: path('division'),
  expectedVersion: ifMatch(false),
  idempotencyKey: idempotencyKey(),
};
const roundArgs = { ...divisionArgs, round: path('round') };
const slipArgs = { ...roundArgs, player: path('player'), opponent: path('opponent') };

/** A write on a round: POST (or PUT) …/rounds/{round}/<segment>, the round afterwards. */
const onRound = (
  operationId: string,
  method: 'POST' | 'PUT',
  segment: string,
  summary: string,
  description: string,
  extra: Route['args'] = {},
): Route => ({
  operationId,
  method,
  path: `${ROUND_PATH}/${segment}`,
  tag: TAG,
  summary,
  description,
  field: operationId,
  args: { ...roundArgs, ...extra },
  reply: { kind: 'object' },
  shape: ROUND,
  etag: true,
  notFound: NOT_FOUND,
  auth: PLAY,
});

/** A write on one game's slip: POST …/slips/{player}-{opponent}/<segment>, the round afterwards. */
const onSlip = (operationId: string, segment: string, summary: string, description: string, extra: Route['args'] = {}): Route => ({
  ...onRound(operationId, 'POST', '', summary, description, extra),
  path: `${SLIP_PATH}/${segment}`,
  args: { ...slipArgs, ...extra },
});

/** A read of one division (tournamentDivision): a list field or a file. */
const divisionRead = (
  operationId: string,
  suffix: string,
  summary: string,
  description: string,
  reply: Route['reply'],
  shape: Route['shape'],
): Route => ({
  operationId,
  method: 'GET',
  path: `${DIVISION_PATH}${suffix}`,
  tag: TAG,
  summary,
  description: `${description}${READS}`,
  field: 'tournamentDivision',
  args: { tournamentId: path('id'), division: path('division') },
  reply,
  shape,
  etag: reply.kind !== 'text',
  notFound: NOT_FOUND,
  auth: 'none',
});

const WHOLE_ROUTES: readonly Route[] = [
  {
    operationId: 'createTournament',
    method: 'POST',
    path: '/tournaments',
    tag: TAG,
    summary: 'Create a tournament',
    description:
      'A tournament of an event you direct (403 NOT_DIRECTOR otherwise), with its divisions: body `{organizationId, name, public?, divisions: [{name, rounds, mode?, preset?, method?, roundPlans?, …}]}`.',
    field: 'createTournament',
    args: { input: body(), idempotencyKey: idempotencyKey() },
    reply: { kind: 'object' },
    shape: TOURNAMENT,
    status: 201,
    location: tournamentUrl,
    etag: true,
    notFound: NOT_FOUND,
    auth: PLAY,
  },
  {
    operationId: 'getTournament',
    method: 'GET',
    path: '/tournaments/{id}',
    tag: TAG,
    summary: 'Read a tournament',
    description: `Its divisions with their players, plans and rounds (a round’s pairings: GET …/rounds/{round}). The ETag is its version.${READS}`,
    field: 'tournament',
    args: { id: path('id') },
    reply: { kind: 'object' },
    shape: TOURNAMENT,
    etag: true,
    notFound: NOT_FOUND,
    auth: 'none',
  },
  {
    operationId: 'listTournaments',
    method: 'GET',
    path: '/tournaments',
    tag: TAG,
    summary: 'Tournaments',
    description:
      'Public tournaments (and with a credential, those you direct or play in), newest first; `?organization=` for one event’s. Pages forward: follow `nextCursor` (or the Link header, rel="next").',
    field: 'tournaments',
    args: {
      organizationId: query('organization', 'Only this event’s tournaments (Organization.id).'),
      first: query('first', 'Tournaments per page.'),
      after: query('after', 'The `nextCursor` of the page before.'),
    },
    reply: { kind: 'page' },
    shape: TOURNAMENT_SUMMARY,
    auth: 'none',
  },
];

const DIVISION_ROUTES: readonly Route[] = [
  {
    operationId: 'addTournamentPlayer',
    method: 'POST',
    path: `${DIVISION_PATH}/players`,
    tag: TAG,
    summary: 'Add a player to a division',
    description: 'Body `{handle?, name?, rating?, class?}`: an account by handle, or a name only. Directors only. Answers the division.',
    field: 'addTournamentPlayer',
    args: { ...divisionArgs, handle: bodyField('handle'), name: bodyField('name'), rating: bodyField('rating'), class: bodyField('class') },
    reply: { kind: 'object' },
    shape: DIVISION,
    etag: true,
    notFound: NOT_FOUND,
    auth: PLAY,
  },
  {
    operationId: 'withdrawTournamentPlayer',
    method: 'POST',
    path: `${DIVISION_PATH}/players/{player}/withdraw`,
    tag: TAG,
    summary: 'Withdraw a player',
    description: 'Body `{fromRound?, reason?}`: from that round on (default: the first round not started). Directors only.',
    field: 'withdrawTournamentPlayer',
    args: { ...divisionArgs, player: path('player'), fromRound: bodyField('fromRound'), reason: bodyField('reason') },
    reply: { kind: 'object' },
    shape: DIVISION,
    etag: true,
    notFound: NOT_FOUND,
    auth: PLAY,
  },
  divisionRead(
    'getStandings',
    '/standings',
    'A division’s standings',
    'Best first, computed from the log: wins (a tie ½), losses, spread, firsts, seconds, byes, tiebreaks.',
    { kind: 'list', field: 'standings' },
    STANDING,
  ),
  divisionRead(
    'getCrosstable',
    '/crosstable',
    'A division’s crosstable',
    'A row per player in standings order, a cell per round: opponent, first or second, both scores, the record after it.',
    { kind: 'list', field: 'crosstable' },
    CROSSTABLE_ROW,
  ),
  divisionRead(
    'getStandingsCsv',
    '/standings.csv',
    'A division’s standings as CSV',
    'One line per player after a header line.',
    { kind: 'text', field: 'standingsCsv', description: 'The standings as CSV (text/csv).', mediaType: 'text/csv' },
    {},
  ),
  divisionRead(
    'exportTshDivision',
    '.t',
    'A division as a TSH .t file',
    'Each line `Last, First  rating  opponents ; scores` with its `;` fields, as TSH reads it.',
    { kind: 'text', field: 'tshFile', description: 'The division as a TSH .t file (text/plain).' },
    {},
  ),
  {
    operationId: 'importTshDivision',
    method: 'POST',
    path: `${DIVISION_PATH}.t`,
    tag: TAG,
    summary: 'Add a division from a TSH .t file',
    description:
      'The body is the .t file (Content-Type: text/plain); the division is named by the path, `rounds` (required), `preset`, `mode`, `method`, `lexicon` and `ratingSystem` come from the query. Its players, pairings and results are imported (422 TSH_PARSE_ERROR names the line and the field). Directors only. Answers the tournament.',
    field: 'importTshDivision',
    args: {
      tournamentId: path('id'),
      'division.name': path('division'),
      'division.rounds': query('rounds', 'Rounds in the division (required).'),
      'division.preset': query('preset', 'The rule-set preset (default NSA_2008).'),
      'division.mode': query('mode', 'OVER_THE_BOARD (default) or CORRESPONDENCE.'),
      'division.method': query('method', 'The pairing method of rounds still to pair (default SWISS).'),
      'division.lexicon': query('lexicon', 'The lexicon (default: the server’s).'),
      'division.ratingSystem': query('ratingSystem', 'GLICKO2 (default) or NASPA: how its ratings out are computed.'),
      text: textBody('The division as a TSH .t file.'),
    },
    reply: { kind: 'object' },
    shape: TOURNAMENT,
    status: 201,
    location: tournamentUrl,
    etag: true,
    notFound: NOT_FOUND,
    auth: PLAY,
  },
];

const ROUND_ROUTES: readonly Route[] = [
  {
    operationId: 'getRound',
    method: 'GET',
    path: ROUND_PATH,
    tag: TAG,
    summary: 'A round with its pairings',
    description: `Its status, its games (first player first, why, their slips with every change), byes and pairing history.${READS}`,
    field: 'tournamentRound',
    args: { tournamentId: path('id'), division: path('division'), round: path('round') },
    reply: { kind: 'object' },
    shape: ROUND,
    etag: true,
    notFound: NOT_FOUND,
    auth: 'none',
  },
  onRound(
    'pairRound',
    'POST',
    'pairing',
    'Pair a round',
    'By its planned method or body `{method?, seed?}`; again until it starts (every pairing kept with its author). Directors only.',
    {
      method: bodyField('method'),
      seed: bodyField('seed'),
    },
  ),
  onRound(
    'overridePairing',
    'PUT',
    'pairing',
    'Replace a round’s pairing',
    'Body `{games: [{first, second}], bye?, reason}`: every game of the round. Directors only.',
    {
      games: bodyField('games'),
      bye: bodyField('bye'),
      reason: bodyField('reason'),
    },
  ),
  onRound(
    'prePairCouple',
    'POST',
    'pre-pairings',
    'Fix a couple before pairing',
    'Body `{player, opponent}`: the method pairs the rest. Directors only.',
    {
      player: bodyField('player'),
      opponent: bodyField('opponent'),
    },
  ),
  onRound('startRound', 'POST', 'start', 'Start a round', 'Its pairing is then fixed. Directors only.'),
  onRound('endRound', 'POST', 'end', 'End a round', '422 ROUND_HAS_OPEN_GAMES while a game has no result. Directors only.'),
  onRound(
    'startLateClock',
    'POST',
    'late-clocks',
    'Start a late player’s clock',
    'Body `{player}`: no earlier than 5 minutes after the announced start (seed-001 §1). Directors only.',
    {
      player: bodyField('player'),
    },
  ),
  onRound(
    'forfeitLateArrival',
    'POST',
    'late-forfeits',
    'Forfeit a late player’s game',
    'Body `{player}`: at 25 minutes after the announced start, or their clock at −0:01 (seed-001 §1). Directors only.',
    {
      player: bodyField('player'),
    },
  ),
  onRound(
    'recordResult',
    'POST',
    'results',
    'Record a game’s result',
    'Body `{player, opponent, score?, opponentScore?, kind?, forfeiter?, forfeitReason?, gameId?}`: its tally slip (seed-001 §3). A director, the scorekeeper or a player of the game; 422 GAME_NOT_IN_ROUND when the two do not play each other.',
    {
      player: bodyField('player'),
      opponent: bodyField('opponent'),
      score: bodyField('score'),
      opponentScore: bodyField('opponentScore'),
      kind: bodyField('kind'),
      forfeiter: bodyField('forfeiter'),
      forfeitReason: bodyField('forfeitReason'),
      gameId: bodyField('gameId'),
    },
  ),
  onSlip(
    'signSlip',
    'sign',
    'Sign a slip',
    'A player of the game signs for themselves (403 SLIP_SIGNER_NOT_IN_GAME for anyone else), its scorekeeper for both.',
  ),
  onSlip('submitSlip', 'submit', 'Submit a slip', 'Its scores are then final but for a director’s ruling. A director or the scorekeeper.'),
  onSlip(
    'correctSlip',
    'correct',
    'Correct a slip before submission',
    'Body `{score, opponentScore}` in the order of the path (409 SLIP_SUBMITTED after submission).',
    {
      score: bodyField('score'),
      opponentScore: bodyField('opponentScore'),
    },
  ),
  onSlip(
    'changeSlip',
    'change',
    'Change a submitted slip by a ruling',
    'Body `{score, opponentScore, reason, disputeId?}`: a director’s tally-slip-change ruling (seed-001 §3), kept with who, when and why.',
    {
      score: bodyField('score'),
      opponentScore: bodyField('opponentScore'),
      reason: bodyField('reason'),
      disputeId: bodyField('disputeId'),
      findings: bodyField('findings'),
    },
  ),
  onSlip(
    'fileSlipDispute',
    'disputes',
    'Dispute a submitted slip',
    'Body `{score, opponentScore, reason}` in the order of the path: a player of the game says the submitted slip does not show the agreed score (seed-001 §3). The director decides it: changeSlip with `disputeId` (its number), or dismissSlipDispute. 409 DISPUTE_OPEN, SLIP_NOT_SUBMITTED.',
    {
      score: bodyField('score'),
      opponentScore: bodyField('opponentScore'),
      reason: bodyField('reason'),
    },
  ),
  onSlip(
    'dismissSlipDispute',
    'disputes/{number}/dismiss',
    'Dismiss a slip dispute',
    'Body `{reason}`: the director leaves the slip as it is, with the reason on the record (404 DISPUTE_NOT_FOUND).',
    { number: path('number'), reason: bodyField('reason') },
  ),
];

/** Every tournament route, in the order of the document. */
export const TOURNAMENT_ROUTES: readonly Route[] = [...WHOLE_ROUTES, ...DIVISION_ROUTES, ...ROUND_ROUTES];
