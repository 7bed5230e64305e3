import { cite, ruleError, type Citation, type RuleError } from '../errors.js';
import { err, type Result } from '../result.js';
import type { Actor, ActorRole, DivisionSpec, ForfeitReason, ResultKind, SlipRuling, TournamentEvent } from './events.js';
import type { PairingMethod } from './pairing/types.js';
import { divisionOf, type DivisionState, type RoundState, type TournamentState } from './state.js';

/**
 * What may be asked of a tournament (issue 30): one command per act of a director, a player, a
 * scorekeeper or the system. `decide.ts` turns a command into the events it causes, or the rule it
 * breaks; nothing is written when it says no.
 */

export type TournamentCommand =
  | { readonly type: 'add-division'; readonly spec: DivisionSpec }
  | {
      readonly type: 'add-player';
      readonly division: string;
      readonly name: string;
      readonly playerId: string | null;
      readonly rating: number;
      readonly class: string | null;
    }
  | {
      readonly type: 'withdraw-player';
      readonly division: string;
      readonly player: number;
      readonly fromRound: number | null;
      readonly reason: string;
    }
  | { readonly type: 'pre-pair'; readonly division: string; readonly round: number; readonly players: readonly [number, number] }
  | {
      readonly type: 'pair-round';
      readonly division: string;
      readonly round: number;
      readonly method: PairingMethod | null;
      readonly seed: string;
    }
  | {
      readonly type: 'override-pairing';
      readonly division: string;
      readonly round: number;
      /** Every game of the round, first player first. */
      readonly games: readonly (readonly [number, number])[];
      readonly bye: number | null;
      readonly reason: string;
    }
  | { readonly type: 'start-round'; readonly division: string; readonly round: number }
  | { readonly type: 'end-round'; readonly division: string; readonly round: number }
  | { readonly type: 'start-late-clock'; readonly division: string; readonly round: number; readonly player: number }
  | { readonly type: 'forfeit-late'; readonly division: string; readonly round: number; readonly player: number }
  | {
      readonly type: 'record-result';
      readonly division: string;
      readonly round: number;
      /** The game's players in any order; `scores` in the same order. */
      readonly players: readonly [number, number];
      readonly scores: readonly [number, number] | null;
      readonly kind: ResultKind;
      readonly forfeiter: number | null;
      readonly forfeitReason: ForfeitReason | null;
      readonly gameId: string | null;
      readonly final: boolean;
    }
  | {
      readonly type: 'correct-slip';
      readonly division: string;
      readonly round: number;
      readonly players: readonly [number, number];
      readonly scores: readonly [number, number];
    }
  | { readonly type: 'sign-slip'; readonly division: string; readonly round: number; readonly players: readonly [number, number] }
  | { readonly type: 'submit-slip'; readonly division: string; readonly round: number; readonly players: readonly [number, number] }
  | {
      readonly type: 'change-slip';
      readonly division: string;
      readonly round: number;
      readonly players: readonly [number, number];
      readonly scores: readonly [number, number];
      readonly ruling: SlipRuling;
    }
  | {
      readonly type: 'record-league-game';
      readonly division: string;
      readonly round: number;
      readonly players: readonly [number, number];
      readonly gameId: string;
    }
  | {
      readonly type: 'file-slip-dispute';
      readonly division: string;
      readonly round: number;
      readonly players: readonly [number, number];
      /** The scores the filer says the slip should show, in the order of `players`. */
      readonly scores: readonly [number, number];
      readonly reason: string;
    }
  | {
      readonly type: 'dismiss-slip-dispute';
      readonly division: string;
      readonly round: number;
      readonly players: readonly [number, number];
      readonly number: number;
      readonly reason: string;
    };

export type TournamentCommandType = TournamentCommand['type'];
export type TournamentCommandOf<T extends TournamentCommandType> = Extract<TournamentCommand, { type: T }>;

/** Who may give each command; the engine checks the role, the service says who the caller is. */
export const COMMAND_ROLES: Readonly<Record<TournamentCommandType, readonly ActorRole[]>> = {
  'add-division': ['director', 'system'],
  'add-player': ['director', 'system'],
  'withdraw-player': ['director', 'system'],
  'pre-pair': ['director'],
  'pair-round': ['director', 'system'],
  'override-pairing': ['director'],
  'start-round': ['director', 'system'],
  'end-round': ['director', 'system'],
  'start-late-clock': ['director'],
  'forfeit-late': ['director'],
  'record-result': ['director', 'scorekeeper', 'player', 'system'],
  'correct-slip': ['director', 'scorekeeper', 'player'],
  'sign-slip': ['scorekeeper', 'player'],
  'submit-slip': ['director', 'scorekeeper', 'system'],
  'change-slip': ['director'],
  'file-slip-dispute': ['player'],
  'dismiss-slip-dispute': ['director'],
  'record-league-game': ['system'],
};

/** The error codes of tournament commands (stable: clients switch on them). */
export const TOURNAMENT_ERROR_CODES = [
  'NOT_ALLOWED',
  'DIVISION_NOT_FOUND',
  'DIVISION_EXISTS',
  'ROUND_NOT_FOUND',
  'PLAYER_NOT_FOUND',
  'PLAYER_ALREADY_IN_DIVISION',
  'PLAYER_WITHDRAWN',
  'BAD_INPUT',
  'ROUND_ALREADY_STARTED',
  'ROUND_NOT_PAIRED',
  'ROUND_NOT_STARTED',
  'ROUND_ENDED',
  'PREVIOUS_ROUND_NOT_PAIRED',
  'PREVIOUS_ROUND_NOT_FINISHED',
  'ROUND_HAS_OPEN_GAMES',
  'ALREADY_PREPAIRED',
  'NOT_ENOUGH_PLAYERS',
  'GAME_NOT_IN_ROUND',
  'RESULT_EXISTS',
  'RESULT_MISSING',
  'TIE_NOT_ALLOWED',
  'SLIP_SUBMITTED',
  'SLIP_SIGNED',
  'SLIP_NOT_SUBMITTED',
  'SLIP_NOT_SIGNED',
  'SLIP_ALREADY_SIGNED',
  'SLIP_SIGNER_NOT_IN_GAME',
  'SLIP_CHANGE_NOT_ALLOWED',
  'NO_ANNOUNCED_START',
  'LATE_ARRIVAL_NOT_IN_RULES',
  'LATE_CLOCK_TOO_EARLY',
  'LATE_FORFEIT_TOO_EARLY',
  'LATE_CLOCK_NOT_STARTED',
  'DISPUTE_OPEN',
  'DISPUTE_NOT_FOUND',
] as const;
export type TournamentErrorCode = (typeof TOURNAMENT_ERROR_CODES)[number];

export const fail = (
  code: TournamentErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  citation?: Citation,
): Result<never, RuleError> => err(ruleError(code, message, details, citation));

export const SEED_001_S1 = cite('seed-001', '§1', 'Seed');
export const SEED_001_S3 = cite('seed-001', '§3', 'Seed');

/** What a command is decided against. */
export interface DecideContext {
  readonly actor: Actor;
  /** ISO time of the command. */
  readonly now: string;
}

/** The events a command causes, stamped with the actor and the time. */
export type Decided = Result<readonly TournamentEvent[], RuleError>;

export const divisionNamed = (state: TournamentState, name: string): Result<DivisionState, RuleError> => {
  const d = divisionOf(state, name);
  return d
    ? { ok: true, value: d }
    : fail('DIVISION_NOT_FOUND', `No division "${name}" in this tournament.`, {
        field: 'division',
        division: name,
        divisions: state.divisions.map((x) => x.spec.name),
      });
};

export const roundOf = (division: DivisionState, round: number): Result<RoundState, RuleError> => {
  const r = Number.isInteger(round) ? division.rounds[round - 1] : undefined;
  return r
    ? { ok: true, value: r }
    : fail('ROUND_NOT_FOUND', `Division ${division.spec.name} has rounds 1–${division.rounds.length}; there is no round ${round}.`, {
        field: 'round',
        round,
      });
};

export const entrantExists = (division: DivisionState, player: number, field = 'player'): Result<number, RuleError> =>
  Number.isInteger(player) && player >= 1 && player <= division.entrants.length
    ? { ok: true, value: player }
    : fail('PLAYER_NOT_FOUND', `Division ${division.spec.name} has no player ${player} (its players are 1–${division.entrants.length}).`, {
        field,
        player,
      });
