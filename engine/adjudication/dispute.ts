import { FORFEIT_ROLES, type ForfeitRole } from '../game/forfeits.js';
import { SCORELESS_TURN_KINDS } from '../rules/ruleset.js';

/**
 * A dispute is a structured description of what happened, with only the facts an adjudicator needs.
 * Parties are relative: `player` is the one whose act is disputed (the exchanger, the late arrival, the
 * player whose play was challenged, the overdrawer, the one who went out or resigned); `opponent` is the
 * other. Parse JSON with `parseDispute` (parse.ts); answer with `adjudicate` (adjudicate.ts).
 */

export const DISPUTE_KINDS = [
  'illegal-exchange',
  'exchange-count-mismatch',
  'exchange-unspecified',
  'exchange-early-return',
  'late-arrival',
  'overtime',
  'challenge-outcome',
  'return-from-challenge',
  'fast-bagging',
  'out-play-hold',
  'overdraw',
  'underdraw',
  'scoring-error',
  'tally-slip-change',
  'recount-request',
  'scoreless-turns',
  'going-out',
  'resignation',
  'forfeit-order',
  'tied-game',
  'match-result',
  'exchange-tiles-not-bagged',
  'challenge-after-draw',
  'wrong-adjudication',
  'mistyped-challenge',
  'placement-challenge',
  'long-hold',
  'courtesy-draw',
  'out-of-order-draw',
  'spilled-tiles',
  'tiles-found',
  'missing-tile',
  'blank-designation',
  'abort-request',
  'idle-opponent',
  'blank-substitution',
  'free-trade',
] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];

export const PARTIES = ['player', 'opponent'] as const;
export type Party = (typeof PARTIES)[number];

/** How far an exchange with too few tiles in the bag got before it was noticed (seed-000 "Penalties"; WESPA 3.10.15(i)). */
export const ILLEGAL_EXCHANGE_STAGES = [
  'announced',
  'drawn-not-racked',
  'old-returned-new-not-racked',
  'racking-started',
  'after-opponent-turn',
] as const;
export type IllegalExchangeStage = (typeof ILLEGAL_EXCHANGE_STAGES)[number];

/** A turn in a run of turns: the scoreless kinds of the rule set, or a play that scored. */
export const TURN_RECORD_KINDS = [...SCORELESS_TURN_KINDS, 'scoring-play'] as const;
export type TurnRecordKind = (typeof TURN_RECORD_KINDS)[number];

/** The disputed player's part in an unplayed game (seed-001 §4); defined with the tally in game/forfeits.ts. */
export { FORFEIT_ROLES, type ForfeitRole };

/** Where the result slip is: not yet signed, signed but not handed in, or signed and submitted. */
export const SLIP_STATES = ['not-signed', 'signed', 'submitted'] as const;
export type SlipState = (typeof SLIP_STATES)[number];

export const UNDERDRAW_DISCOVERIES = ['before-next-turn-completed', 'after-next-turn-completed'] as const;
export type UnderdrawDiscovery = (typeof UNDERDRAW_DISCOVERIES)[number];

/** Who caused a faulty lookup of challenged words: the challenged player, the challenger, or both. */
export const LOOKUP_CULPRITS = ['player', 'opponent', 'both'] as const;
export type LookupCulprit = (typeof LOOKUP_CULPRITS)[number];

export const LOOKUP_RESULTS = ['acceptable', 'unacceptable'] as const;
export type LookupResult = (typeof LOOKUP_RESULTS)[number];

/** What was wrong with a challenged placement; `none` = the placement was legal (WESPA 3.10.14, A1.6). */
export const PLACEMENT_FAULTS = ['opening-misses-centre', 'not-in-line', 'diagonal', 'off-grid', 'wrong-orientation', 'none'] as const;
export type PlacementFault = (typeof PLACEMENT_FAULTS)[number];

/** When tiles were spilled or exposed, relative to drawing (WESPA 4.4). */
export const SPILL_MOMENTS = ['during-draw', 'just-after-draw', 'unrelated'] as const;
export type SpillMoment = (typeof SPILL_MOMENTS)[number];

/** Where tiles turned up after the game seemed over (WESPA 4.3 outside the bag, 4.5 in the bag). */
export const FOUND_PLACES = ['outside-bag', 'in-bag'] as const;
export type FoundPlace = (typeof FOUND_PLACES)[number];

/** The state of a blank's designation when it is disputed (WESPA 3.8(b)–(d)). */
export const BLANK_DESIGNATIONS = ['undeclared', 'improperly-declared', 'properly-declared'] as const;
export type BlankDesignation = (typeof BLANK_DESIGNATIONS)[number];

export const REQUEST_REPLIES = ['accepted', 'declined', 'none'] as const;
export type RequestReply = (typeof REQUEST_REPLIES)[number];

export interface Scores {
  readonly player: number;
  readonly opponent: number;
}

interface Base<K extends DisputeKind> {
  readonly kind: K;
  /** Free text, echoed nowhere; for the people reading the file. */
  readonly description?: string;
}

/** Exchange with fewer tiles in the bag than the minimum (seed-000 "Penalties"; WESPA 3.10.15(i)). */
export interface IllegalExchange extends Base<'illegal-exchange'> {
  readonly bagCount: number;
  readonly stage: IllegalExchangeStage;
  readonly exchangedCount: number;
  readonly rackSize: number;
  /** At `racking-started`: whether any old tile had also gone into the bag (WESPA 3.10.15(i)(iv) vs (v)). */
  readonly oldTilesInBag: boolean;
}

/** Announced exchange count differs from the tiles placed face down (seed-000 "Disputes"; WESPA 3.10.15(e)). */
export interface ExchangeCountMismatch extends Base<'exchange-count-mismatch'> {
  readonly announced: number;
  readonly placedFaceDown: number;
  readonly rackSize: number;
}

/** Exchange announced with no count and no tiles face down (seed-000 "Penalties"; WESPA 3.10.15(b)). */
export type ExchangeUnspecified = Base<'exchange-unspecified'>;

/** Old tiles put into the bag before the new ones were drawn (seed-000 "Disputes"; WESPA 3.10.15(c)). */
export interface ExchangeEarlyReturn extends Base<'exchange-early-return'> {
  /** The player drew back some of the tiles just returned. */
  readonly drewSameTiles: boolean;
}

/** A player arrives late for a round (seed-001 §1; WESPA 2.3). */
export interface LateArrival extends Base<'late-arrival'> {
  readonly minutesLate: number;
  readonly announcedStart: boolean;
  /** Minute after the start at which the late player's clock was started; null = when the rules allow. */
  readonly clockStartedAtMinute: number | null;
}

/** A player's clock went past zero (WESPA 5.3; NASPA ref. B7; Woogles). */
export interface Overtime extends Base<'overtime'> {
  readonly secondsOver: number;
  /** Scores before any overtime penalty, needed to record a forfeit (WESPA 5.3.3). */
  readonly scores: Scores | null;
}

/** The result of a challenge of the player's play (seed-001 §2; WESPA 3.10.13; seed-002). */
export interface ChallengeOutcome extends Base<'challenge-outcome'> {
  readonly playValid: boolean;
  readonly wordsChallenged: number;
}

/** Returning to the board after a challenge (seed-001 §2; WESPA 3.10.6). */
export interface ReturnFromChallenge extends Base<'return-from-challenge'> {
  readonly playAcceptable: boolean;
  /** Tiles the challenged player had drawn before the ruling. */
  readonly drawnTiles: number;
  readonly drawnTouchedRack: boolean;
  /** The challenge winner is delaying reracking and replenishing. */
  readonly winnerDelaying: boolean;
}

/** The player drew before the opponent could consider a challenge (seed-001 §8; WESPA 3.10.1–3.10.2). */
export interface FastBagging extends Base<'fast-bagging'> {
  readonly secondsBeforeDraw: number;
  readonly scoreRecordedBeforeDraw: boolean;
}

/** After the player's out play and the neutralised clock (seed-001 §9; WESPA 5.1). */
export interface OutPlayHold extends Base<'out-play-hold'> {
  /** Seconds after neutralising when the opponent held or challenged, or how long they have been silent. */
  readonly secondsAfterNeutralise: number;
  readonly held: boolean;
  readonly challenged: boolean;
}

/** The player has more tiles than a full rack (WESPA 3.9.5; NSA ref. B5.1). */
export interface Overdraw extends Base<'overdraw'> {
  readonly tilesOnRack: number;
  readonly drawn: number;
  readonly touchedRack: boolean;
  readonly rackSize: number;
}

/** The player drew too few late in the game and the opponent emptied the bag (WESPA 3.9.8). */
export interface Underdraw extends Base<'underdraw'> {
  readonly missing: number;
  readonly discovered: UnderdrawDiscovery;
}

/** A turn of the player's was scored wrongly (seed-001 §3; WESPA 3.5(d)). */
export interface ScoringError extends Base<'scoring-error'> {
  readonly announced: number;
  readonly correct: number;
  readonly slip: SlipState;
}

/** A change to the result slip is asked for (seed-001 §3; WESPA 5.4.1). */
export interface TallySlipChange extends Base<'tally-slip-change'> {
  readonly slip: SlipState;
  readonly slipMatchesAgreedScore: boolean;
  readonly scoresReversed: boolean;
  readonly substantiatedByScoreSheets: boolean;
  readonly bothAgree: boolean;
  readonly unethicalConductProven: boolean;
}

/** A recount of the game is asked for (seed-001 §3; WESPA 5.5). */
export interface RecountRequest extends Base<'recount-request'> {
  readonly margin: number;
  readonly slip: SlipState;
}

/** Does a run of turns end the game? (WESPA 5.2; NASPA ref. B6.1; seed-003 rule 12b). Oldest first; players alternate. */
export interface ScorelessTurns extends Base<'scoreless-turns'> {
  readonly turns: readonly TurnRecordKind[];
  /** Value of each rack, `player` = who made the last turn. */
  readonly rackValues: Scores | null;
}

/** The player went out (WESPA 5.1.4; seed-003 scoring 9). */
export interface GoingOut extends Base<'going-out'> {
  readonly opponentRackValue: number;
}

/** The player resigns (WESPA 5.7; Woogles). */
export interface Resignation extends Base<'resignation'> {
  readonly scores: Scores;
  readonly emergency: boolean;
}

/** Firsts and seconds for unplayed games (seed-001 §4), in round order. */
export interface ForfeitOrder extends Base<'forfeit-order'> {
  readonly games: readonly { readonly round: number; readonly role: ForfeitRole }[];
}

/** The final scores are tied (seed-003 scoring 10). */
export interface TiedGame extends Base<'tied-game'> {
  readonly finalScores: Scores;
  readonly scoresBeforeAdjustments: Scores;
}

/** Who won the match (seed-003 rule 1, scoring 11). */
export interface MatchResult extends Base<'match-result'> {
  readonly games: readonly Scores[];
}

/** The exchanger left the face-down tiles out of the bag (WESPA 3.10.15(d)). */
export interface ExchangeTilesNotBagged extends Base<'exchange-tiles-not-bagged'> {
  readonly tiles: number;
  /** Either player has drawn since the exchange. */
  readonly drawnSince: boolean;
  readonly rackSize: number;
}

/** The opponent challenges after the player started drawing (WESPA 3.10.1–3.10.2; seed-001 §8; NASPA ref. B1.1). */
export interface ChallengeAfterDraw extends Base<'challenge-after-draw'> {
  /** A hold was called before the player drew. */
  readonly holdCalled: boolean;
  /** Seconds from the clock press to the first tile drawn. */
  readonly secondsBeforeDraw: number;
  readonly scoreRecordedBeforeDraw: boolean;
  /** The player wrote the score before the turn (WESPA 3.10.2: flash-drawing). */
  readonly scoreWrittenInAdvance: boolean;
  readonly drawnTiles: number;
  /** The drawn tiles have touched the player's rack. */
  readonly drawnTouchedRack: boolean;
}

/** A challenge of the player's play was adjudicated wrongly and this is found later (WESPA 3.10.9, 3.10.11; NASPA IV.J.1.n). */
export interface WrongAdjudication extends Base<'wrong-adjudication'> {
  /** What the wrong adjudication said: the play was acceptable (it is not) or unacceptable (it is). */
  readonly ruledAcceptable: boolean;
  readonly wordsChallenged: number;
  /** Newly drawn tiles, or tiles retracted from the board, have touched (been mixed into) a rack. */
  readonly tilesTouchedRack: boolean;
  /** A later play is on the board and the clock has been started. */
  readonly nextPlayMade: boolean;
}

/** The challenged words were typed or written wrongly (WESPA 3.10.10; NASPA IV.J.2, 2012). */
export interface MistypedChallenge extends Base<'mistyped-challenge'> {
  readonly causedBy: LookupCulprit;
  /** The result the faulty lookup showed. */
  readonly resultShown: LookupResult;
  readonly tilesTouchedRack: boolean;
  readonly nextPlayMade: boolean;
}

/** The player's placement is challenged (WESPA 3.10.14; NASPA ref. B3.1). */
export interface PlacementChallenge extends Base<'placement-challenge'> {
  readonly fault: PlacementFault;
  readonly challenged: boolean;
  /** Every word the play forms is valid. */
  readonly playValid: boolean;
}

/** The opponent holds the player's play for a long time (WESPA 3.10.5, 6.3.1(h)). */
export interface LongHold extends Base<'long-hold'> {
  /** How far into overtime the holder's clock now is (0 = still within time). */
  readonly holderOvertimeSeconds: number;
  /** The hold was called only to keep the player from drawing. */
  readonly onlyToBlockDraw: boolean;
}

/** The player made a courtesy draw during a hold (WESPA 3.10.6, 3.9.10; NASPA ref. B4). */
export interface CourtesyDraw extends Base<'courtesy-draw'> {
  readonly secondsAfterClockPress: number;
  readonly drawnTiles: number;
  readonly mixedIntoRack: boolean;
  /** The opponent then challenged successfully. */
  readonly challengeSucceeded: boolean;
  /** The challenge was declared while the player was still drawing. */
  readonly challengedMidDraw: boolean;
  readonly rackSize: number;
}

/** The player drew out of turn order (WESPA 3.9.9). */
export interface OutOfOrderDraw extends Base<'out-of-order-draw'> {
  readonly drawnTiles: number;
  /** It happened before the opponent could draw, and leaves too few tiles in the bag for the opponent. */
  readonly opponentLeftShort: boolean;
  readonly touchedRack: boolean;
}

/** The player spilled or exposed tiles (WESPA 4.4; NASPA 2015 IV.B.3). */
export interface SpilledTiles extends Base<'spilled-tiles'> {
  readonly exposed: number;
  readonly bagCount: number;
  readonly moment: SpillMoment;
}

/** Tiles turn up outside or in the bag after the game seemed over (WESPA 4.3, 4.5, 5.4.1). */
export interface TilesFound extends Base<'tiles-found'> {
  readonly found: number;
  readonly where: FoundPlace;
  /** Tiles on each rack now. */
  readonly racks: Scores;
  readonly shouldHaveDrawnEarliest: Party;
  readonly slip: SlipState;
  readonly rackSize: number;
}

/** Tiles are missing and a search did not find them (WESPA 4.6). */
export interface MissingTile extends Base<'missing-tile'> {
  readonly missing: number;
}

/** The player's blank designation is missing or disputed (WESPA 3.8; NASPA IV.F; seed-003 rule 10). */
export interface BlankDesignationDispute extends Base<'blank-designation'> {
  readonly designation: BlankDesignation;
  /** Plays made since the blank was played (0 = the opponent is on the next turn). */
  readonly playsSince: number;
}

/** The player asks to abort (cancel) an online game (Woogles meta-events). */
export interface AbortRequest extends Base<'abort-request'> {
  /** Abort requests the player made earlier in this game. */
  readonly earlierRequests: number;
  readonly gameEvents: number;
  /** Time left to the opponent (the receiver), overtime included. */
  readonly receiverSecondsLeft: number;
  readonly reply: RequestReply;
  /** Seconds since the request, when it has no reply. */
  readonly secondsWithoutReply: number;
}

/** The player nudges an idle or disconnected opponent (Woogles adjudication request). */
export interface IdleOpponent extends Base<'idle-opponent'> {
  readonly earlierRequests: number;
  /** The player's own clock is running (it is the player's turn). */
  readonly requesterClockRunning: boolean;
  readonly answered: boolean;
  readonly secondsUnanswered: number;
}

/** The player swaps a rack tile for a blank on the board (seed-002 Blank Substitution). */
export interface BlankSubstitution extends Base<'blank-substitution'> {
  /** The letter the blank on the board was designated as. */
  readonly blankLetter: string;
  /** The tile the player gives for it. */
  readonly tileGiven: string;
  readonly atStartOfTurn: boolean;
  /** The player replays the blank in the same turn. */
  readonly blankReplayed: boolean;
}

/** The player asks for a free trade of a bad rack (seed-002 Free Trades). */
export interface FreeTrade extends Base<'free-trade'> {
  readonly rack: readonly string[];
  /** The tiles announced for trading, in order; empty = which trades are possible. */
  readonly trades: readonly string[];
}

export type Dispute =
  | IllegalExchange
  | ExchangeCountMismatch
  | ExchangeUnspecified
  | ExchangeEarlyReturn
  | LateArrival
  | Overtime
  | ChallengeOutcome
  | ReturnFromChallenge
  | FastBagging
  | OutPlayHold
  | Overdraw
  | Underdraw
  | ScoringError
  | TallySlipChange
  | RecountRequest
  | ScorelessTurns
  | GoingOut
  | Resignation
  | ForfeitOrder
  | TiedGame
  | MatchResult
  | ExchangeTilesNotBagged
  | ChallengeAfterDraw
  | WrongAdjudication
  | MistypedChallenge
  | PlacementChallenge
  | LongHold
  | CourtesyDraw
  | OutOfOrderDraw
  | SpilledTiles
  | TilesFound
  | MissingTile
  | BlankDesignationDispute
  | AbortRequest
  | IdleOpponent
  | BlankSubstitution
  | FreeTrade;

export type DisputeOf<K extends DisputeKind> = Extract<Dispute, { kind: K }>;

export const isDisputeKind = (k: unknown): k is DisputeKind => typeof k === 'string' && (DISPUTE_KINDS as readonly string[]).includes(k);
