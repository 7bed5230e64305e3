import type { Citation } from '../errors.js';
import type { TimeControl } from '../game/events.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ByeChoice, PairedGame, PairingMethod } from './pairing/types.js';

/**
 * A tournament is a list of events, like a game (issue 30, item 1): players added or withdrawn, a round
 * paired or its pairing overridden, a result recorded, a slip signed, submitted or changed by a ruling.
 * Every event is plain JSON, carries who did it and when, and the state (`apply.ts`) and the standings
 * (`standings.ts`) are folds over the list, so the same log gives the same standings whatever order
 * results came in.
 */

/** Over the board (games at the table, entered as results or recorded games) or a correspondence league (Arbiter makes the games). */
export const DIVISION_MODES = ['over-the-board', 'correspondence'] as const;
export type DivisionMode = (typeof DIVISION_MODES)[number];

/** Who acted: a director, a player of the division, a game's scorekeeper, or the system (a game's end, a deadline, an import). */
export const ACTOR_ROLES = ['director', 'player', 'scorekeeper', 'system'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

export interface Actor {
  readonly role: ActorRole;
  /** The account, when there is one. */
  readonly playerId: string | null;
  /** A handle or a name, for the record. */
  readonly name: string;
  /** For `player`: the entrant number the actor plays as in the division the command concerns. */
  readonly entrant?: number;
}

/** One player of a division. */
export interface Entrant {
  /** 1-based, in the order added (a TSH `.t` file's line order). */
  readonly number: number;
  readonly name: string;
  /** The Arbiter account, or null for a name only. */
  readonly playerId: string | null;
  readonly rating: number;
  readonly class: string | null;
  /** What an imported TSH line said beyond Arbiter's model, written back on export (engine/tournament/tsh-division.ts). */
  readonly tsh?: TshCarry;
}

/** An imported TSH player line's own text and the fields Arbiter keeps as they are (`board`, `newr`, `rtime`, `off`, `p12` …). */
export interface TshCarry {
  /** The line exactly as read: written back while the model still says what it says. */
  readonly raw: string;
  /** The name as the line wrote it (the entrant's is trimmed). */
  readonly name: string;
  readonly fields: readonly { readonly name: string; readonly values: readonly string[] }[];
  readonly eol?: '\n' | '\r\n' | '\r';
}

/** The lines of an imported `.t` file that are not players (comments, blank lines) and its line ends, for an exact export. */
export interface TshFrame {
  /** In file order: a player line by entrant number, or a comment or blank line as written. */
  readonly lines: readonly (
    { readonly entrant: number } | { readonly text: string; readonly kind: 'comment' | 'blank'; readonly eol?: '\n' | '\r\n' | '\r' }
  )[];
  readonly lineEnding?: '\n' | '\r\n' | '\r';
  readonly finalNewline?: boolean;
  readonly bom?: boolean;
}

/** A round's plan: how it is paired and when it starts (over the board) or ends (correspondence). */
export interface RoundPlan {
  readonly method: PairingMethod;
  /** ISO time of the announced start (seed-001 §1), or null. */
  readonly startsAt: string | null;
  /** ISO time by which a correspondence round's games must end, or null. */
  readonly deadline: string | null;
}

/** What a division is set up with; fixed once the division exists, as a game's rule set is. */
export interface DivisionSpec {
  /** Unique within the tournament, e.g. "A". */
  readonly name: string;
  readonly mode: DivisionMode;
  readonly ruleSetId: string;
  readonly overrides: Readonly<Record<string, unknown>>;
  /** The resolved rule set (preset + overrides) at creation. */
  readonly rules: RuleSet;
  readonly lexicon: string;
  readonly tileSet: string;
  readonly layout: string;
  /** One per round; its length is the number of rounds. */
  readonly rounds: readonly RoundPlan[];
  /** How often two players may meet before a pairing counts as a repeat beyond allowance (0: once only). */
  readonly maxRepeats: number;
  /** Spread a win is worth, per game left, when deciding who has clinched first (Gibsonization). */
  readonly gibsonSpreadPerGame: number;
  /** Correspondence games' clock; null over the board. */
  readonly timeControl: TimeControl | null;
  /**
   * The rating system its ratings out are computed by (engine/rating/division.ts), by name; absent in logs
   * written before it existed, which means the default, `glicko2`.
   */
  readonly ratingSystem?: string;
  /** Set for a division imported from a TSH `.t` file. */
  readonly tshFrame?: TshFrame;
}

/** A bye or an unpaired round of one player, with the spread it scores (positive: a win; negative: a forfeit loss; 0: neither). */
export interface ByeEntry {
  readonly player: number;
  readonly spread: number;
}

/** Why a game's result is what it is. */
export const RESULT_KINDS = ['played', 'forfeit'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/** Why a game was forfeited. */
export const FORFEIT_REASONS = ['late-arrival', 'no-show', 'timeout', 'director'] as const;
export type ForfeitReason = (typeof FORFEIT_REASONS)[number];

/**
 * What the director found about a submitted slip: the facts of the `tally-slip-change` dispute kind
 * (engine/adjudication/dispute.ts) that the scores alone do not show. Absent ones default to a slip that
 * does not show the agreed score, as the score sheets substantiate.
 */
export interface SlipFindings {
  readonly slipMatchesAgreedScore?: boolean;
  readonly substantiatedByScoreSheets?: boolean;
  readonly bothAgree?: boolean;
  readonly unethicalConductProven?: boolean;
}

/** The ruling that changed a submitted slip (seed-001 §3: only a slip that does not show the agreed score; WESPA 5.4.1). */
export interface SlipRuling {
  /** The dispute kind ruled: always `tally-slip-change` (engine/adjudication). */
  readonly kind: 'tally-slip-change';
  /** What the director found, for the record. */
  readonly reason: string;
  /** The dispute filed, when it went through `fileDispute`. */
  readonly disputeId: string | null;
  readonly findings?: SlipFindings;
  /** The ruling code the adjudication gave (`SLIP_CORRECTED`, `DIRECTOR_DISCRETION`), filled in by the engine. */
  readonly code?: string;
  /** The rules it cites, filled in by the engine. */
  readonly citations?: readonly Citation[];
}

interface Base {
  /** ISO time. */
  readonly at: string;
  readonly by: Actor;
}

interface InDivision extends Base {
  readonly division: string;
}

interface InRound extends InDivision {
  readonly round: number;
}

interface OnGame extends InRound {
  /** The game's two players (either order): with the round they name one game. */
  readonly players: readonly [number, number];
}

export type TournamentEvent =
  | (Base & {
      readonly type: 'tournament-created';
      readonly name: string;
      readonly organizationId: string | null;
      readonly public: boolean;
    })
  | (Base & { readonly type: 'division-added'; readonly spec: DivisionSpec })
  | (InDivision & { readonly type: 'player-added'; readonly entrant: Entrant })
  | (InDivision & { readonly type: 'player-withdrawn'; readonly player: number; readonly fromRound: number; readonly reason: string })
  | (InRound & { readonly type: 'couple-prepaired'; readonly players: readonly [number, number] })
  | (InRound & {
      readonly type: 'round-paired';
      readonly method: PairingMethod;
      readonly games: readonly PairedGame[];
      readonly byes: readonly ByeEntry[];
      readonly gibsonized: readonly number[];
      /** The seed of the draws (who goes first on equal firsts and seconds). */
      readonly seed: string;
      readonly byeChoice: ByeChoice;
    })
  | (InRound & {
      readonly type: 'pairing-overridden';
      readonly games: readonly PairedGame[];
      readonly byes: readonly ByeEntry[];
      readonly reason: string;
    })
  | (InRound & { readonly type: 'round-started' })
  | (InRound & { readonly type: 'late-clock-started'; readonly player: number })
  | (OnGame & {
      readonly type: 'result-recorded';
      /** Goes first, then second. */
      readonly players: readonly [number, number];
      readonly scores: readonly [number, number];
      readonly kind: ResultKind;
      /** The player who forfeited (kind `forfeit`), else null. */
      readonly forfeiter: number | null;
      readonly forfeitReason: ForfeitReason | null;
      /** The Arbiter game it came from, when there is one. */
      readonly gameId: string | null;
      /** Signed and submitted at once (a correspondence game's end, an import). */
      readonly final: boolean;
    })
  | (OnGame & { readonly type: 'slip-corrected'; readonly scores: readonly [number, number] })
  | (OnGame & { readonly type: 'slip-signed'; readonly signer: number | null })
  | (OnGame & { readonly type: 'slip-submitted' })
  | (OnGame & { readonly type: 'slip-changed'; readonly scores: readonly [number, number]; readonly ruling: SlipRuling })
  | (OnGame & {
      readonly type: 'slip-dispute-filed';
      /** The tournament's dispute number (1, 2 …): what the director's ruling names as `disputeId`. */
      readonly number: number;
      /** The scores asked for, in the order of `players`. */
      readonly scores: readonly [number, number];
      readonly reason: string;
    })
  | (OnGame & { readonly type: 'slip-dispute-dismissed'; readonly number: number; readonly reason: string })
  | (OnGame & { readonly type: 'league-game-created'; readonly gameId: string })
  | (InRound & { readonly type: 'round-ended' });

export type TournamentEventType = TournamentEvent['type'];
export type TournamentEventOf<T extends TournamentEventType> = Extract<TournamentEvent, { type: T }>;

export const TOURNAMENT_EVENT_TYPES = [
  'tournament-created',
  'division-added',
  'player-added',
  'player-withdrawn',
  'couple-prepaired',
  'round-paired',
  'pairing-overridden',
  'round-started',
  'late-clock-started',
  'result-recorded',
  'slip-corrected',
  'slip-signed',
  'slip-submitted',
  'slip-changed',
  'slip-dispute-filed',
  'slip-dispute-dismissed',
  'league-game-created',
  'round-ended',
] as const satisfies readonly TournamentEventType[];
