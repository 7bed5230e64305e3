import type { StandingTiebreak } from '../rules/ruleset.js';
import type { Entrant } from './events.js';
import { playerOutcomes, type RoundOutcome } from './results.js';
import type { DivisionState } from './state.js';

/**
 * A division's standings (issue 30, item 6), always computed from the log's state: wins (a tie counts
 * ½), losses, spread, firsts and seconds (seed-001 §4), byes, and the rule set's tiebreaks in order
 * (`tournament.tiebreaks`). Only games with a result count; the same state gives the same standings
 * whatever order its results were recorded in.
 */

export interface StandingRow {
  readonly rank: number;
  readonly entrant: Entrant;
  readonly wins: number;
  readonly losses: number;
  readonly spread: number;
  readonly firsts: number;
  readonly seconds: number;
  readonly byes: number;
  /** Games with a result (byes not counted). */
  readonly played: number;
  /** Sum of the opponents' wins (games with a result only). */
  readonly buchholz: number;
  /** Buchholz less the best and the worst opponent (with three or more opponents). */
  readonly median: number;
  readonly withdrawn: boolean;
  readonly outcomes: readonly RoundOutcome[];
}

interface Tally {
  wins: number;
  losses: number;
  spread: number;
  byes: number;
  played: number;
}

const tallyOf = (outcomes: readonly RoundOutcome[]): Tally => {
  const t: Tally = { wins: 0, losses: 0, spread: 0, byes: 0, played: 0 };
  for (const o of outcomes) {
    if (o.kind === 'bye') t.byes++;
    if (o.result === null) continue;
    if (o.kind === 'game') t.played++;
    if (o.result === 'win') t.wins += 1;
    else if (o.result === 'loss') t.losses += 1;
    else {
      t.wins += 0.5;
      t.losses += 0.5;
    }
    t.spread += o.spread;
  }
  return t;
};

type Row = Omit<StandingRow, 'rank'>;

/** Wins of `a` in games against the others of `group` that have a result (a tie ½). */
const headToHead = (a: Row, group: ReadonlySet<number>): number =>
  a.outcomes.reduce(
    (n, o) =>
      o.kind === 'game' && o.opponent !== null && group.has(o.opponent) && o.result
        ? n + (o.result === 'win' ? 1 : o.result === 'tie' ? 0.5 : 0)
        : n,
    0,
  );

const KEYS: Readonly<Record<Exclude<StandingTiebreak, 'head-to-head'>, (r: Row) => number>> = {
  spread: (r) => r.spread,
  buchholz: (r) => r.buchholz,
  median: (r) => r.median,
  rating: (r) => r.entrant.rating,
};

/** Sorts players tied on everything before `from` by the tiebreaks from `from` on. */
const sortTied = (rows: Row[], tiebreaks: readonly StandingTiebreak[], from: number): Row[] => {
  if (rows.length < 2 || from >= tiebreaks.length)
    return rows.sort((a, b) => b.entrant.rating - a.entrant.rating || a.entrant.number - b.entrant.number);
  const tb = tiebreaks[from]!;
  const group = new Set(rows.map((r) => r.entrant.number));
  const key = tb === 'head-to-head' ? (r: Row) => headToHead(r, group) : KEYS[tb];
  const byKey = new Map<number, Row[]>();
  for (const r of rows) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  return [...byKey.entries()].sort((a, b) => b[0] - a[0]).flatMap(([, tied]) => sortTied(tied, tiebreaks, from + 1));
};

/**
 * The standings through `throughRound` (default: every round), best first. Ranks are 1..n: players equal
 * on wins and every tiebreak are ordered by seed rating, then entrant number.
 */
export const standings = (division: DivisionState, throughRound = division.rounds.length): StandingRow[] => {
  const outcomes = new Map(division.entrants.map((e) => [e.number, playerOutcomes(division, e.number, throughRound)]));
  const tallies = new Map([...outcomes].map(([n, o]) => [n, tallyOf(o)]));
  const rows: Row[] = division.entrants.map((entrant) => {
    const own = outcomes.get(entrant.number)!;
    const t = tallies.get(entrant.number)!;
    const oppWins = own.filter((o) => o.kind === 'game' && o.result !== null && o.opponent).map((o) => tallies.get(o.opponent!)?.wins ?? 0);
    const buchholz = oppWins.reduce((a, b) => a + b, 0);
    const sorted = [...oppWins].sort((a, b) => a - b);
    const median = sorted.length >= 3 ? buchholz - sorted[0]! - sorted[sorted.length - 1]! : buchholz;
    return {
      entrant,
      ...t,
      firsts: own.filter((o) => o.position === 'first').length,
      seconds: own.filter((o) => o.position === 'second').length,
      buchholz,
      median,
      withdrawn: division.withdrawn[entrant.number] !== undefined,
      outcomes: own,
    };
  });
  const byWins = new Map<number, Row[]>();
  for (const r of rows) byWins.set(r.wins, [...(byWins.get(r.wins) ?? []), r]);
  const tiebreaks = division.spec.rules.tournament.tiebreaks;
  return [...byWins.entries()]
    .sort((a, b) => b[0] - a[0])
    .flatMap(([, tied]) => sortTied(tied, tiebreaks, 0))
    .map((r, i) => ({ ...r, rank: i + 1 }));
};

/** A record as people write it: `5–2`, `4½–2½`. */
export const formatRecord = (wins: number, losses: number): string => {
  const f = (x: number) => (Number.isInteger(x) ? String(x) : `${Math.floor(x) || ''}½`);
  return `${f(wins)}–${f(losses)}`;
};
