import type { TimeControl } from '../engine/game/events.js';
import type { TournamentCommand } from '../engine/tournament/commands.js';
import type { DivisionMode } from '../engine/tournament/events.js';
import type { PairingMethod } from '../engine/tournament/pairing/types.js';
import type { TournamentState } from '../engine/tournament/state.js';

/**
 * The tournament service's contract types (issue 30), re-exported by service/tournaments.ts: what graph/
 * and rest/ give the service and get back.
 */

/** How the caller stands to a tournament: directs its event, plays in it, or neither. */
export const TOURNAMENT_VIEWER_ROLES = ['director', 'player', 'public'] as const;
export type TournamentViewerRole = (typeof TOURNAMENT_VIEWER_ROLES)[number];

export interface RoundPlanInput {
  readonly method?: PairingMethod | null;
  /** ISO time. */
  readonly startsAt?: string | null;
  readonly deadline?: string | null;
}

/** A player entered with a division at creation (the same as an `add-player` command). */
export interface EntrantInput {
  /** The player's account by handle; null or absent: a name only (over-the-board divisions). */
  readonly handle?: string | null;
  /** The account by id (instead of the handle). */
  readonly playerId?: string | null;
  /** Default: the account's display name. */
  readonly name?: string | null;
  /** Seed rating, 0–4000 (default 0). */
  readonly rating?: number | null;
  readonly class?: string | null;
}

export interface DivisionInput {
  readonly name: string;
  readonly mode?: DivisionMode | null;
  /** Preset id (default NSA_2008). */
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  /** Shorthand for the override `board.distribution` (a tile set id of engine/tiles.ts). */
  readonly tileSet?: string | null;
  /** Shorthand for the override `board.layout` (a named layout of engine/board.ts). */
  readonly layout?: string | null;
  readonly rounds: number;
  /** The method of every round without its own plan (default swiss). */
  readonly method?: PairingMethod | null;
  /** Per round, 1-based order; shorter than `rounds` is allowed. */
  readonly roundPlans?: readonly RoundPlanInput[] | null;
  /** Default: {@link defaultMaxRepeats} (service/tournament-spec.ts). */
  readonly maxRepeats?: number | null;
  /** Default 250 (service/tournament-spec.ts DEFAULT_GIBSON_SPREAD_PER_GAME). */
  readonly gibsonSpreadPerGame?: number | null;
  /** Correspondence divisions: the games' clock (default: 3 days a turn, no bank). */
  readonly timeControl?: TimeControl | null;
  /** The rating system of its ratings out, by name (engine/rating/division.ts; default glicko2). */
  readonly ratingSystem?: string | null;
  /** The division's players, entered in this order (entrant numbers 1, 2, …); more may be added later (`add-player`). */
  readonly players?: readonly EntrantInput[] | null;
}

export interface NewTournamentInput {
  /** The event (an organization of kind `event`) it belongs to; the caller must direct it. */
  readonly organizationId: string;
  readonly name: string;
  /** Standings and pairings public (default true). */
  readonly public?: boolean | null;
  readonly divisions: readonly DivisionInput[];
}

/** A round of a division past its deadline (correspondence) whose games have not all ended: the director's to settle. */
export interface OverdueRound {
  readonly division: string;
  readonly round: number;
  /** ISO time. */
  readonly deadline: string;
  /** The games without a result, first player first. */
  readonly openGames: readonly (readonly [number, number])[];
}

export interface TournamentView {
  readonly id: string;
  readonly organizationId: string;
  readonly version: number;
  readonly state: TournamentState;
  readonly viewerRole: TournamentViewerRole;
  /** The caller's entrant number in each division they play in. */
  readonly myEntrants: readonly { readonly division: string; readonly number: number }[];
  /** Rounds past their deadline with games still open (correspondence), as of the read. */
  readonly overdue: readonly OverdueRound[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface TournamentSummary {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly public: boolean;
  readonly version: number;
  readonly createdAt: Date;
}

/**
 * A command as the API gives it: the engine's, less what the service fills in (the actor, the time). For
 * `pair-round` an empty `seed` means "draw one" (128 random bits, recorded in the event); for
 * `add-division` the service resolves the spec again from its `ruleSetId`, `overrides`, `lexicon` … (the
 * given `rules` are ignored: {@link divisionSpec} builds a whole spec from a DivisionInput).
 */
export type TournamentCommandInput = TournamentCommand;

export interface CommandOptions {
  /** The version the caller saw (If-Match): VERSION_CONFLICT when the log has moved on. */
  readonly expectedVersion?: number | null;
  readonly idempotencyKey?: string | null;
}

/** One event of the log as the public sees it (nothing hidden is in a tournament's log; slips of a private event are the viewer's business). */
export interface TournamentLogEntry {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly by: string;
  readonly payload: Readonly<Record<string, unknown>>;
}
