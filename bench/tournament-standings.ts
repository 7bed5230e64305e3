/**
 * Standings of a big division folded from its log (issue 30, item 12): a 500-player, 30-round division
 * built by commands (Swiss pairings, a result for every game), then its log replayed and its standings
 * and crosstable computed. Target: standings ≤ 50 ms. The replay of the whole log is reported beside
 * it, since the API replays before it ranks.
 */
import { replayTournament } from '../engine/tournament/apply.js';
import { crosstable } from '../engine/tournament/crosstable.js';
import { applyAll, decideTournament } from '../engine/tournament/decide.js';
import type { TournamentEvent } from '../engine/tournament/events.js';
import { standings } from '../engine/tournament/standings.js';
import { divisionOf } from '../engine/tournament/state.js';
import { created, DIRECTOR, divisionSpec, T0, tournamentWith } from '../engine/tournament/tournament.fixtures.js';
import { bestOf } from './common.js';
import type { BenchSection } from './types.js';

const PLAYERS = 500;
const ROUNDS = 30;
const TARGET_MS = 50;

/** A deterministic score stream, so every run folds the same log. */
const scores = (i: number): [number, number] => [300 + ((i * 7919) % 200), 300 + ((i * 104729) % 200)];

/** The division's whole log: the round robin of Berger tables pairs 30 rounds at once without depending on results. */
export const bigDivisionLog = (): TournamentEvent[] => {
  let state = tournamentWith(PLAYERS, divisionSpec({ roundCount: ROUNDS, method: 'round-robin' }));
  const events: TournamentEvent[] = [];
  let k = 0;
  const step = (command: Parameters<typeof decideTournament>[1]) => {
    const e = decideTournament(state, command, { actor: DIRECTOR, now: T0 });
    if (!e.ok) throw new Error(e.error.message);
    const next = applyAll(state, e.value);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
    events.push(...e.value);
  };
  for (let round = 1; round <= ROUNDS; round++) {
    step({ type: 'pair-round', division: 'A', round, method: null, seed: `r${round}` });
    for (const g of divisionOf(state, 'A')!.rounds[round - 1]!.games)
      step({
        type: 'record-result',
        division: 'A',
        round,
        players: [g.first, g.second],
        scores: scores(k++),
        kind: 'played',
        forfeiter: null,
        forfeitReason: null,
        gameId: null,
        final: true,
      });
  }
  const head: TournamentEvent[] = [created(), { type: 'division-added', at: T0, by: DIRECTOR, spec: divisionOf(state, 'A')!.spec }];
  const players = divisionOf(state, 'A')!.entrants.map((entrant): TournamentEvent => ({
    type: 'player-added',
    at: T0,
    by: DIRECTOR,
    division: 'A',
    entrant,
  }));
  return [...head, ...players, ...events];
};

export async function run(): Promise<BenchSection> {
  const log = bigDivisionLog();
  const replayed = replayTournament(log);
  if (!replayed.ok) throw new Error(replayed.error.message);
  const division = divisionOf(replayed.value, 'A')!;
  const replayMs = bestOf(5, () => void replayTournament(log));
  const standingsMs = bestOf(5, () => void standings(division));
  const crosstableMs = bestOf(5, () => void crosstable(division));
  return {
    title: 'Tournament standings (issue 30)',
    rows: [
      {
        metric: `standings of a ${PLAYERS}-player, ${ROUNDS}-round division from its state`,
        value: standingsMs,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        met: standingsMs <= TARGET_MS,
      },
      { metric: 'crosstable of the same division', value: crosstableMs, unit: 'ms' },
      { metric: `replay of its log (${log.length.toLocaleString('en-US')} events)`, value: replayMs, unit: 'ms' },
    ],
    notes: ['Best of 5 runs in one process. The log is built by commands: Berger round-robin pairings and a result for every game.'],
  };
}

if (process.argv[1]?.endsWith('tournament-standings.ts')) console.log(JSON.stringify(await run(), null, 2));
