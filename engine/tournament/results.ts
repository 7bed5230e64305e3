import { firstSecondTally, type FirstSecond, type PlayerGame } from '../game/forfeits.js';
import type { ByeEntry, ForfeitReason } from './events.js';
import type { PairedGame } from './pairing/types.js';
import type { DivisionState, RoundState, SlipStatus } from './state.js';

/**
 * Each player's rounds as the standings and the crosstable read them: a game (with its slip once
 * recorded), a bye, or nothing. One reading of the log, shared by standings, crosstable, pairing requests
 * and the TSH export, so they cannot disagree.
 */

export const OUTCOME_KINDS = ['game', 'bye', 'none'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export const GAME_RESULTS = ['win', 'loss', 'tie'] as const;
export type GameResult = (typeof GAME_RESULTS)[number];

export interface RoundOutcome {
  readonly round: number;
  readonly kind: OutcomeKind;
  /** The opponent; 0 for a bye, null for no game. */
  readonly opponent: number | null;
  /** Went first (games only; null otherwise, and for an imported game whose record does not say). */
  readonly first: boolean | null;
  /** Null while the game has no result. */
  readonly score: number | null;
  readonly opponentScore: number | null;
  readonly result: GameResult | null;
  /** Own score minus the opponent's (a bye: its spread); 0 without a result. */
  readonly spread: number;
  /** The game was forfeited (by either player), and why. */
  readonly forfeit: boolean;
  readonly forfeitReason: ForfeitReason | null;
  /** This player forfeited it. */
  readonly forfeiter: boolean;
  readonly slipStatus: SlipStatus | null;
  /** First, second or neither as counted by seed-001 §4 (filled by {@link playerOutcomes}). */
  readonly position: FirstSecond;
}

/** Forfeits that happen before the game begins (seed-001 §4 "forfeits a game before it has begun"). */
const UNPLAYED_FORFEITS: readonly (ForfeitReason | null)[] = ['late-arrival', 'no-show', 'director'];

const resultOf = (spread: number): GameResult | null => (spread > 0 ? 'win' : spread < 0 ? 'loss' : 'tie');

const NONE = (round: number): Omit<RoundOutcome, 'position'> => ({
  round,
  kind: 'none',
  opponent: null,
  first: null,
  score: null,
  opponentScore: null,
  result: null,
  spread: 0,
  forfeit: false,
  forfeitReason: null,
  forfeiter: false,
  slipStatus: null,
});

interface RoundIndex {
  readonly games: ReadonlyMap<number, PairedGame>;
  readonly byes: ReadonlyMap<number, ByeEntry>;
}

// States are immutable, so a round's index can be kept for as long as the round object lives.
const INDEXES = new WeakMap<RoundState, RoundIndex>();
const indexOf = (round: RoundState): RoundIndex => {
  let index = INDEXES.get(round);
  if (!index) {
    const games = new Map<number, PairedGame>();
    for (const g of round.games) games.set(g.first, g).set(g.second, g);
    index = { games, byes: new Map(round.byes.map((b) => [b.player, b])) };
    INDEXES.set(round, index);
  }
  return index;
};

const outcomeIn = (round: RoundState, player: number): Omit<RoundOutcome, 'position'> => {
  const index = indexOf(round);
  const bye = index.byes.get(player);
  if (bye)
    return {
      ...NONE(round.number),
      kind: 'bye',
      opponent: 0,
      score: bye.spread,
      opponentScore: 0,
      spread: bye.spread,
      result: bye.spread > 0 ? 'win' : bye.spread < 0 ? 'loss' : null,
    };
  const game = index.games.get(player);
  if (!game) return NONE(round.number);
  const first = game.firstReason === 'unknown' ? null : game.first === player;
  const opponent = game.first === player ? game.second : game.first;
  const slip = round.slips[game.first];
  if (!slip) return { ...NONE(round.number), kind: 'game', opponent, first };
  const mine = slip.players[0] === player ? 0 : 1;
  const score = slip.scores[mine];
  const opponentScore = slip.scores[1 - mine]!;
  const forfeit = slip.kind === 'forfeit';
  return {
    round: round.number,
    kind: 'game',
    opponent,
    first,
    score: score!,
    opponentScore,
    result: resultOf(score! - opponentScore),
    spread: score! - opponentScore,
    forfeit,
    forfeitReason: slip.forfeitReason,
    forfeiter: forfeit && slip.forfeiter === player,
    slipStatus: slip.status,
  };
};

const asPlayerGame = (o: Omit<RoundOutcome, 'position'>): PlayerGame | null => {
  if (o.kind === 'bye') return { kind: 'unplayed', role: 'bye' };
  // A game whose record does not say who went first counts neither.
  if (o.kind !== 'game' || (o.first === null && !o.forfeit)) return null;
  if (o.forfeit && UNPLAYED_FORFEITS.includes(o.forfeitReason)) return { kind: 'unplayed', role: o.forfeiter ? 'forfeiter' : 'opponent' };
  return { kind: 'played', first: o.first === true };
};

/**
 * Every round of the division for one player, in round order, through `throughRound` (default: all),
 * with firsts and seconds counted by seed-001 §4 under the division's `tournament.forfeitFirstSecond`
 * (engine/game/forfeits.ts, the one implementation of that rule).
 */
export const playerOutcomes = (division: DivisionState, player: number, throughRound = division.rounds.length): RoundOutcome[] => {
  const raw = division.rounds.slice(0, throughRound).map((r) => outcomeIn(r, player));
  const games = raw.map(asPlayerGame);
  const tally = firstSecondTally(
    division.spec.rules.tournament.forfeitFirstSecond,
    games.filter((g): g is PlayerGame => g !== null),
  );
  let k = 0;
  return raw.map((o, i) => ({ ...o, position: games[i] === null ? 'neither' : tally.positions[k++]! }));
};
