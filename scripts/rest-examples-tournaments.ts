/**
 * The tournament part of `npm run rest-examples` (scripts/rest-examples.ts): a director runs a small
 * over-the-board division over /v1 — four players, round 1 paired, results, slips signed, submitted,
 * corrected and changed by a ruling, round 2 pre-paired, paired, overridden, a late clock and a late
 * forfeit — and reads the standings, the crosstable, the round, the CSV and the TSH file; a second
 * division comes from a TSH `.t` file. Each operation's first answer becomes its example.
 */

// The answers are read loosely here: the document's schemas, not this script, say what they hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export type Call = (
  operationId: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Json>;

export interface TournamentExampleCast {
  readonly call: Call;
  /** An admin's token (makes the event). */
  readonly admin: string;
  /** A director's token (a global director directs every event). */
  readonly director: string;
  /** A player's token and handle (plays in the division, signs their own slip). */
  readonly player: string;
  readonly playerHandle: string;
  readonly now: () => Date;
  /** Moves the clock on (late arrival is judged from a round's announced start). */
  readonly advance: (ms: number) => void;
}

/** A two-round division of four as TSH writes it: opponents ; scores ; firsts (1) and seconds (2). */
const TSH = [
  'Lee, Ann              1800  2  3; 420 390; p12 1 2',
  'Moss, Bo              1750  1  4; 380 402; p12 2 1',
  'Nash, Cy              1600  4  1; 350 411; p12 1 1',
  'Orr, Di               1500  3  2; 366 333; p12 2 2',
  '',
].join('\n');
const MINUTE = 60_000;

export const recordTournamentExamples = async (x: TournamentExampleCast): Promise<void> => {
  const { call, director: D, player: P } = x;
  const event = await call('createOrganization', 'POST', '/organizations', x.admin, { kind: 'EVENT', name: 'Riverside Open 2026' });
  const start = x.now().getTime();
  const created = await call('createTournament', 'POST', '/tournaments', D, {
    organizationId: event['id'],
    name: 'Riverside Open',
    divisions: [
      {
        name: 'A',
        rounds: 3,
        method: 'KING_OF_THE_HILL',
        roundPlans: [{ startsAt: new Date(start).toISOString() }, { startsAt: new Date(start + 10 * MINUTE).toISOString() }],
      },
    ],
  });
  const t = `/tournaments/${String(created['id'])}`;
  const a = `${t}/divisions/A`;
  let version = created['version'] as number;
  const ifMatch = () => ({ 'if-match': `"${version}"` });
  const step = async (operationId: string, method: string, path: string, token: string, body?: unknown): Promise<Json> => {
    const answer = await call(operationId, method, path, token, body, { ...ifMatch(), 'idempotency-key': `${operationId}-${version}` });
    if (typeof answer['version'] === 'number') version = answer['version'];
    return answer;
  };
  await step('addTournamentPlayer', 'POST', `${a}/players`, D, { handle: x.playerHandle, rating: 1850, class: 'A' });
  for (const [name, rating] of [
    ['Carter, Cy', 1700],
    ['Dumont, Di', 1600],
    ['Evans, Ed', 1500],
  ] as const)
    await step('addTournamentPlayer', 'POST', `${a}/players`, D, { name, rating, class: 'B' });

  // Round 1: king of the hill by seed, 1 v 2 and 3 v 4.
  await step('pairRound', 'POST', `${a}/rounds/1/pairing`, D, { seed: 'riverside-r1' });
  await step('startRound', 'POST', `${a}/rounds/1/start`, D);
  await step('recordResult', 'POST', `${a}/rounds/1/results`, D, { player: 1, opponent: 2, score: 412, opponentScore: 377 });
  await step('recordResult', 'POST', `${a}/rounds/1/results`, D, { player: 3, opponent: 4, score: 350, opponentScore: 401 });
  await step('signSlip', 'POST', `${a}/rounds/1/slips/1-2/sign`, P);
  await step('correctSlip', 'POST', `${a}/rounds/1/slips/3-4/correct`, D, { score: 360, opponentScore: 401 });
  await step('submitSlip', 'POST', `${a}/rounds/1/slips/1-2/submit`, D);
  await step('changeSlip', 'POST', `${a}/rounds/1/slips/1-2/change`, D, {
    score: 422,
    opponentScore: 377,
    reason: 'Both players agree the last play scored 10 more than the slip shows.',
  });
  await step('fileSlipDispute', 'POST', `${a}/rounds/1/slips/1-2/disputes`, P, {
    score: 432,
    opponentScore: 377,
    reason: 'My score sheet shows 432: the slip missed a 10-point play.',
  });
  await step('dismissSlipDispute', 'POST', `${a}/rounds/1/slips/1-2/disputes/1/dismiss`, D, {
    reason: 'The opponent’s score sheet and the slip agree on 422; no sheet shows 432.',
  });
  await call('getRound', 'GET', `${a}/rounds/1`);
  await step('endRound', 'POST', `${a}/rounds/1/end`, D);

  // Round 2: a couple fixed, the rest paired, then the whole round overridden; a late clock and a late forfeit.
  await step('prePairCouple', 'POST', `${a}/rounds/2/pre-pairings`, D, { player: 1, opponent: 4 });
  await step('pairRound', 'POST', `${a}/rounds/2/pairing`, D, {});
  await step('overridePairing', 'PUT', `${a}/rounds/2/pairing`, D, {
    games: [
      { first: 4, second: 1 },
      { first: 2, second: 3 },
    ],
    reason: 'Player 4 asked to go first after travelling.',
  });
  await step('startRound', 'POST', `${a}/rounds/2/start`, D);
  x.advance(40 * MINUTE);
  await step('startLateClock', 'POST', `${a}/rounds/2/late-clocks`, D, { player: 2 });
  await step('forfeitLateArrival', 'POST', `${a}/rounds/2/late-forfeits`, D, { player: 4 });
  await step('withdrawTournamentPlayer', 'POST', `${a}/players/3/withdraw`, D, { fromRound: 3, reason: 'Had to leave early.' });

  // What everyone reads.
  await call('getTournament', 'GET', t);
  await call('listTournaments', 'GET', `/tournaments?organization=${String(event['id'])}&first=5`);
  await call('getStandings', 'GET', `${a}/standings`);
  await call('getCrosstable', 'GET', `${a}/crosstable`);
  await call('getStandingsCsv', 'GET', `${a}/standings.csv`);
  await call('exportTshDivision', 'GET', `${a}.t`);
  await call('importTshDivision', 'POST', `${t}/divisions/B.t?rounds=2`, D, TSH, { 'content-type': 'text/plain' });
};
