import { err, ok } from '../../result.js';
import { cite, type RuleError } from '../../errors.js';
import { pairingError } from './codes.js';
import { balancedGame, meetings, playersById, prePairedIds, roundPairing, validateRequest } from './common.js';
import type { PairedGame, Pairer, PairingPlayer, PairingRequest, PairingResult } from './types.js';

/**
 * Round robins by the Berger tables of the FIDE Handbook, C.05 Annex 1 ("Berger Tables for
 * Round-Robin Tournaments"), and the schedules built on them. Positions are seed positions 1..n (n
 * even; an odd field adds an empty seat n, whose opponent has the bye). The first of each pair goes
 * first (white in chess), as the table lists it.
 */

/** One scheduled game between two seed positions: `first` goes first. */
export interface ScheduledPair {
  readonly first: number;
  readonly second: number;
}

/**
 * Round `round` (1..n-1) of the Berger table for n players (n even, 2 or more), in the table's order
 * (FIDE C.05 Annex 1). Round 1 is 1-n, 2-(n-1), …, n/2-(n/2+1); each next round adds n/2 to every
 * position but n, counting 1..n-1 round and round; position n meets the round's first position, going
 * second in odd rounds and first in even ones. Built from that rule rather than typed in, and checked
 * against the published tables for 4 to 14 players (round-robin.test.ts).
 */
export const bergerRound = (n: number, round: number): ScheduledPair[] => {
  if (!Number.isInteger(n) || n < 2 || n % 2 === 1 || !Number.isInteger(round) || round < 1 || round > n - 1)
    throw new Error(`bergerRound: no round ${round} in a table for ${n} players`);
  const m = n - 1;
  const half = n / 2;
  const shift = ((round - 1) * half) % m;
  const at = (slot: number): number => ((slot + shift) % m) + 1;
  const games: ScheduledPair[] = [round % 2 === 1 ? { first: at(0), second: n } : { first: n, second: at(0) }];
  for (let j = 2; j <= half; j++) games.push({ first: at(j - 1), second: at(n - j) });
  return games;
};

/** The fixed schedules: each maps a round to a Berger round and whether firsts are swapped. */
export const ROUND_ROBIN_KINDS = ['round-robin', 'double-round-robin', 'match-round-robin'] as const;
export type RoundRobinKind = (typeof ROUND_ROBIN_KINDS)[number];

/** Rounds in one Berger cycle for a field of `players`. */
export const cycleLength = (players: number): number => (players % 2 === 0 ? players : players + 1) - 1;

/**
 * The Berger round and colour swap of round `round` of a schedule, or null past its end:
 * `round-robin` one cycle; `double-round-robin` the cycle again with firsts swapped (FIDE C.05 Annex 1
 * "the same table … with colours reversed"; its advice to swap the last two rounds of the first cycle
 * is a chess colour-sequence concern and is not applied); `match-round-robin` (seed-003's two-game
 * match) each Berger round twice in a row, firsts swapped the second time.
 */
export const scheduleRound = (
  kind: RoundRobinKind,
  cycle: number,
  round: number,
): { readonly berger: number; readonly swapped: boolean } | null => {
  if (cycle < 1) return null;
  if (kind === 'round-robin') return round <= cycle ? { berger: round, swapped: false } : null;
  if (round > 2 * cycle) return null;
  if (kind === 'double-round-robin') return { berger: ((round - 1) % cycle) + 1, swapped: round > cycle };
  return { berger: Math.ceil(round / 2), swapped: round % 2 === 0 };
};

/** The scheduled pairs of a round among the given entrants (seed order), 0 standing for the empty seat. */
export const scheduledEntrantPairs = (entrants: readonly number[], berger: number, swapped: boolean): ScheduledPair[] => {
  const n = entrants.length % 2 === 0 ? entrants.length : entrants.length + 1;
  const entrant = (pos: number): number => entrants[pos - 1] ?? 0;
  return bergerRound(n, berger).map(({ first, second }) =>
    swapped ? { first: entrant(second), second: entrant(first) } : { first: entrant(first), second: entrant(second) },
  );
};

/**
 * Turns scheduled pairs into a round: a pair of two active players is a game (`schedule`); a player
 * whose scheduled opponent is the empty seat, absent (withdrawn) or pre-paired elsewhere has a bye
 * (the one facing the empty seat is `bye`, any other goes to `extraByes`); pre-paired couples play as
 * the director fixed them (firsts by the schedule if they were scheduled together, else by balance).
 */
export const roundFromSchedule = (request: PairingRequest, pairs: readonly ScheduledPair[]): PairingResult => {
  const byId = playersById(request);
  const fixed = prePairedIds(request);
  const games: PairedGame[] = [];
  const orphans: { id: number; emptySeat: boolean }[] = [];
  const scheduled = new Map<string, ScheduledPair>();
  for (const pair of pairs) {
    const a = byId.get(pair.first);
    const b = byId.get(pair.second);
    scheduled.set(coupleKey(pair.first, pair.second), pair);
    const aFree = a !== undefined && !fixed.has(a.id);
    const bFree = b !== undefined && !fixed.has(b.id);
    if (a && b && aFree && bFree) games.push({ first: a.id, second: b.id, firstReason: 'schedule', repeats: meetings(a, b.id) });
    else {
      if (aFree && a) orphans.push({ id: a.id, emptySeat: pair.second === 0 });
      if (bFree && b) orphans.push({ id: b.id, emptySeat: pair.first === 0 });
    }
  }
  for (const [x, y] of request.prePaired) games.push(fixedGame(request, byId, scheduled.get(coupleKey(x, y)), x, y));
  const primary = orphans.find((o) => o.emptySeat) ?? orphans[0];
  const extra = orphans.filter((o) => o !== primary).map((o) => o.id);
  return ok(roundPairing(games, primary?.id ?? null, [], extra));
};

const coupleKey = (a: number, b: number): string => (a < b ? `${a}-${b}` : `${b}-${a}`);

const fixedGame = (
  request: PairingRequest,
  byId: ReadonlyMap<number, PairingPlayer>,
  pair: ScheduledPair | undefined,
  x: number,
  y: number,
): PairedGame => {
  const a = byId.get(x) as PairingPlayer;
  const b = byId.get(y) as PairingPlayer;
  return pair
    ? { first: pair.first, second: pair.second, firstReason: 'schedule', repeats: meetings(a, b.id) }
    : balancedGame(request, a, b);
};

/** Checks the roster a fixed schedule is drawn from: no entrant twice, every active player in it. */
export const checkRoster = (request: PairingRequest): RuleError | null => {
  const seen = new Set<number>();
  for (const id of request.roster) {
    if (seen.has(id)) return pairingError('DUPLICATE_PLAYER', `roster: player ${id} is listed twice`, { field: 'roster', player: id });
    seen.add(id);
  }
  const missing = request.players.find((p) => !seen.has(p.id));
  return missing
    ? pairingError('PLAYER_NOT_IN_ROSTER', `roster: active player ${missing.id} is not in the roster the schedule is drawn from`, {
        field: 'roster',
        player: missing.id,
      })
    : null;
};

const roundRobinPairer =
  (kind: RoundRobinKind): Pairer =>
  (request) => {
    const valid = validateRequest(request);
    if (!valid.ok) return valid;
    const bad = checkRoster(request);
    if (bad) return err(bad);
    if (request.players.length === 0) return ok(roundPairing([], null));
    const cycle = cycleLength(request.roster.length);
    const slot = scheduleRound(kind, cycle, request.round);
    if (!slot) return err(outOfSchedule(kind, request, cycle));
    return roundFromSchedule(request, scheduledEntrantPairs(request.roster, slot.berger, slot.swapped));
  };

const outOfSchedule = (kind: RoundRobinKind, request: PairingRequest, cycle: number): RuleError =>
  pairingError(
    'ROUND_NOT_IN_SCHEDULE',
    `round: a ${kind} of ${request.roster.length} players has ${kind === 'round-robin' ? cycle : 2 * cycle} rounds, not ${request.round}`,
    { round: request.round, roster: request.roster.length, rounds: kind === 'round-robin' ? cycle : 2 * cycle },
    kind === 'match-round-robin' ? cite('seed-003', 'two-game match') : undefined,
  );

/** Single round robin: each pair once, by the Berger table of the roster (FIDE C.05 Annex 1). */
export const pairRoundRobin: Pairer = roundRobinPairer('round-robin');
/** Double round robin: the Berger cycle twice, firsts swapped in the second (FIDE C.05 Annex 1). */
export const pairDoubleRoundRobin: Pairer = roundRobinPairer('double-round-robin');
/** Each pair twice in consecutive rounds, once first each: seed-003's two-game match inside a round robin. */
export const pairMatchRoundRobin: Pairer = roundRobinPairer('match-round-robin');

/** Every round of a schedule over the roster (seed order), 0 standing for the empty seat. */
export const fullSchedule = (kind: RoundRobinKind, roster: readonly number[]): ScheduledPair[][] => {
  const cycle = cycleLength(roster.length);
  const table: ScheduledPair[][] = [];
  for (let r = 1; ; r++) {
    const slot = scheduleRound(kind, cycle, r);
    if (!slot) return table;
    table.push(scheduledEntrantPairs(roster, slot.berger, slot.swapped));
  }
};
