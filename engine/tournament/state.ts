import type { Actor, ByeEntry, DivisionSpec, Entrant, ForfeitReason, ResultKind, SlipRuling } from './events.js';
import type { PairedGame, PairingMethod } from './pairing/types.js';

/**
 * A tournament as its log folds it (`apply.ts`). Read-only: every transition returns a new state.
 * Standings and crosstables are computed from this state (`standings.ts`, `crosstable.ts`).
 */

/** Where a tally slip stands (seed-001 §3): entered, signed by one or both, submitted (final but for a ruling). */
export const SLIP_STATUSES = ['recorded', 'signed', 'submitted'] as const;
export type SlipStatus = (typeof SLIP_STATUSES)[number];

/** A change to a slip, for the record the standings show: who, when, why, from what to what. */
export interface SlipChange {
  readonly at: string;
  readonly by: Actor;
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  /** Set for a director's ruling after submission; null for a correction before it. */
  readonly ruling: SlipRuling | null;
}

export const SLIP_DISPUTE_STATUSES = ['open', 'upheld', 'dismissed'] as const;
export type SlipDisputeStatus = (typeof SLIP_DISPUTE_STATUSES)[number];

/** A player's tally-slip-change dispute on a submitted slip (seed-001 §3), filed against the tournament's log. */
export interface SlipDispute {
  readonly number: number;
  readonly at: string;
  readonly by: Actor;
  /** The scores asked for, first player first. */
  readonly scores: readonly [number, number];
  readonly reason: string;
  readonly status: SlipDisputeStatus;
  /** The director's reason when it was ruled on (upheld by a change, or dismissed). */
  readonly ruledReason: string | null;
}

/** One game's tally slip: both scores, first player first. */
export interface Slip {
  /** [first, second]. */
  readonly players: readonly [number, number];
  readonly scores: readonly [number, number];
  readonly kind: ResultKind;
  readonly forfeiter: number | null;
  readonly forfeitReason: ForfeitReason | null;
  readonly gameId: string | null;
  readonly status: SlipStatus;
  /** Entrants who signed; a scorekeeper's or a game end's signature counts for both (`signedForBoth`). */
  readonly signers: readonly number[];
  readonly signedForBoth: boolean;
  readonly changes: readonly SlipChange[];
  /** Disputes filed on it after submission, in order. */
  readonly disputes: readonly SlipDispute[];
  readonly recordedAt: string;
}

export const ROUND_STATUSES = ['unpaired', 'paired', 'started', 'ended'] as const;
export type RoundStatus = (typeof ROUND_STATUSES)[number];

export interface PairingRecord {
  readonly at: string;
  readonly by: Actor;
  /** `paired` by a method (again for a re-pair) or `overridden` by the director. */
  readonly action: 'paired' | 'overridden';
  readonly method: PairingMethod | null;
  readonly reason: string | null;
}

export interface RoundState {
  /** 1-based. */
  readonly number: number;
  readonly status: RoundStatus;
  readonly method: PairingMethod | null;
  readonly games: readonly PairedGame[];
  readonly byes: readonly ByeEntry[];
  readonly gibsonized: readonly number[];
  /** The draw seed of the last pairing. */
  readonly seed: string | null;
  readonly prePaired: readonly (readonly [number, number])[];
  /** Every pairing and override, in order, with its author. */
  readonly history: readonly PairingRecord[];
  /** Late players whose clock the director started, with when (seed-001 §1). */
  readonly lateClocks: readonly { readonly player: number; readonly at: string }[];
  /** Slips by the game's first player's number. */
  readonly slips: Readonly<Record<number, Slip>>;
  /** Correspondence games by the game's first player's number. */
  readonly gameIds: Readonly<Record<number, string>>;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
}

export interface DivisionState {
  readonly spec: DivisionSpec;
  readonly entrants: readonly Entrant[];
  /** Withdrawn players: entrant number → first round they no longer play. */
  readonly withdrawn: Readonly<Record<number, number>>;
  readonly rounds: readonly RoundState[];
}

export interface TournamentState {
  readonly name: string;
  readonly organizationId: string | null;
  readonly public: boolean;
  readonly createdAt: string;
  readonly createdBy: Actor;
  readonly divisions: readonly DivisionState[];
  /** Events folded so far: the tournament's version. */
  readonly version: number;
  /** Slip disputes filed so far in the whole tournament (the last one's number). */
  readonly slipDisputes: number;
}

export const emptyRound = (number: number): RoundState => ({
  number,
  status: 'unpaired',
  method: null,
  games: [],
  byes: [],
  gibsonized: [],
  seed: null,
  prePaired: [],
  history: [],
  lateClocks: [],
  slips: {},
  gameIds: {},
  startedAt: null,
  endedAt: null,
});

/** The division of that name, or undefined. */
export const divisionOf = (state: TournamentState, name: string): DivisionState | undefined =>
  state.divisions.find((d) => d.spec.name === name);

/** The game of round `round` in which `player` plays, or undefined (a bye, unpaired, or not in the round). */
export const gameOf = (round: RoundState, player: number): PairedGame | undefined =>
  round.games.find((g) => g.first === player || g.second === player);

/** The game of the round between these two players (either order), or undefined. */
export const gameBetween = (round: RoundState, a: number, b: number): PairedGame | undefined =>
  round.games.find((g) => (g.first === a && g.second === b) || (g.first === b && g.second === a));

/** Whether the entrant plays in round `round` (not withdrawn before it). */
export const playsInRound = (division: DivisionState, player: number, round: number): boolean => {
  const from = division.withdrawn[player];
  return from === undefined || round < from;
};
