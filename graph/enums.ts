import type { Role } from '../service/directors.js';
import type { OrganizationKind } from '../service/organizations.js';
import type { DisputeStatus } from '../engine/adjudication/game-disputes.js';
import type { Citation } from '../engine/errors.js';
import type { ADJUSTMENT_KINDS, DISPUTE_FACT_SOURCES, EndReason, TIME_CONTROL_KINDS } from '../engine/game/events.js';
import type { FIRST_SECOND_POSITIONS } from '../engine/game/forfeits.js';
import type { MatchStatus } from '../engine/game/match.js';
import type { TurnRecord } from '../engine/game/state.js';
import type { ActionKind } from '../engine/game/view.js';
import type { ChallengeMode, MATCH_DECIDERS, RuleSetId } from '../engine/rules/ruleset.js';
import type { ApiScope } from '../service/accounts.js';
import type { ClientType } from '../service/oauth-apps.js';
import type { GameRowStatus } from '../service/game-projection.js';
import type { WebhookEventKind } from '../service/webhook-events.js';
import type { WebhookDeliveryStatus } from '../service/webhook-log.js';
import type { ActorRole, DivisionMode, ForfeitReason, ResultKind, TournamentEventType } from '../engine/tournament/events.js';
import type { FirstReason, PairingMethod } from '../engine/tournament/pairing/types.js';
import type { GameResult, OutcomeKind } from '../engine/tournament/results.js';
import type { RoundStatus, SlipDisputeStatus, SlipStatus } from '../engine/tournament/state.js';
import type { TournamentViewerRole } from '../service/tournaments.js';
import { builder } from './builder.js';
import { ValidationError } from './error-classes.js';

/**
 * The closed sets of the API as UPPER_SNAKE enums (docs/api.md, "Schema conventions"). Each enum's
 * internal values are the engine's or the service's own strings (`waiting-final` is WAITING_FINAL on
 * the wire), so resolvers return and inputs yield those strings unchanged. Each value list is a
 * `Record` over the vocabulary's type: a value the engine adds does not compile until it is described here.
 */

/** `waiting-final` → `WAITING_FINAL`, `games:read` → `GAMES_READ`. */
export const enumName = (value: string): string => value.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type EnumRef<K extends string> = PothosSchemaTypes.EnumRef<BuilderTypes, K, K>;

const closedSet = <K extends string>(
  name: string,
  description: string,
  values: Readonly<Record<K, string>>,
  names: Partial<Readonly<Record<K, string>>> = {},
): EnumRef<K> =>
  builder.enumType(name, {
    description,
    values: Object.fromEntries(
      (Object.entries(values) as [K, string][]).map(([value, about]) => [names[value] ?? enumName(value), { value, description: about }]),
    ),
  }) as unknown as EnumRef<K>;

/**
 * A lower-case enum of the first release, kept for one more (docs/api.md, "Deprecations"): every value
 * deprecated in favour of the same value of `replacement`. The schema linter's ignore list names
 * exactly these values (test/api/schema.test.ts checks that it names nothing else).
 */
export const legacyEnum = <K extends string>(name: string, replacement: string, values: readonly K[]): EnumRef<K> =>
  builder.enumType(name, {
    description: `The old lower-case spelling of ${replacement}, kept for one release: use ${replacement}.`,
    values: Object.fromEntries(
      values.map((v) => [
        v,
        { value: v, description: `The same as ${replacement}.${enumName(v)}.`, deprecationReason: `Use ${replacement}.${enumName(v)}.` },
      ]),
    ),
  }) as unknown as EnumRef<K>;

export const GameStateEnum = closedSet<GameRowStatus>('GameState', 'Where a game stands.', {
  open: 'Created with an open seat: waiting for a second player (joinGame).',
  playing: 'Under way: the player in whoseTurn is to move.',
  'waiting-final': 'The last tile is played and the bag is empty: the opponent may still challenge the out play or pass to end the game.',
  ended: 'Over: result is set and the bag seed is revealed.',
});

export const GameActionEnum = closedSet<ActionKind>('GameAction', 'Something a seated player may do now (Game.actions).', {
  play: 'Place tiles (submitTurn action.play).',
  exchange: 'Exchange tiles with the bag (submitTurn action.exchange).',
  pass: 'Pass the turn (submitTurn action.pass).',
  challenge: 'Challenge the opponent’s last play (submitTurn action.challenge).',
  resign: 'Resign the game (submitTurn action.resign), on either player’s turn.',
  'free-trade': 'Trade tiles under the FRIENDLY free-trade rule (submitTurn action.freeTrade; seed-002).',
  'blank-substitution': 'Take a blank from the board for its letter under FRIENDLY rules (submitTurn action.blankSubstitution; seed-002).',
  abort: 'Cancel the game before its first turn (abortGame).',
  'claim-timeout': 'Claim the game on time: the opponent is past their deadline (claimTimeout).',
  'request-pause': 'Ask the opponent to stop a correspondence clock (requestPause).',
  'accept-pause': 'Accept the opponent’s pause request (respondToPause with accept: true).',
  'decline-pause': 'Decline the opponent’s pause request (respondToPause with accept: false).',
  resume: 'End a running pause early (resume).',
});

export const GameMoveTypeEnum = closedSet<TurnRecord['kind']>('GameMoveType', 'What a line of the score sheet records.', {
  play: 'Tiles placed on the board; score is the play’s score.',
  exchange: 'Tiles exchanged; scores nothing.',
  pass: 'A pass; scores nothing.',
  challenge: 'A challenge that found every word valid (the line of the challenger).',
  'phony-withdrawn': 'A challenged play with an invalid word came off the board; score removes what it had scored.',
  'turn-lost': 'The challenger lost their turn for an unsuccessful challenge (double challenge).',
  'challenge-points': 'Points for an unsuccessful challenge (points-per-word or points-per-turn challenge rule).',
  'time-penalty': 'Points deducted for overtime.',
  'end-adjustment': 'The rack count at the end of the game (see GameOutcome.adjustments).',
  ruling: 'Points changed by an adjudicator’s ruling.',
});

export const GameEndReasonEnum = closedSet<EndReason>('GameEndReason', 'Why a game ended.', {
  'went-out': 'A player used their last tile with the bag empty (and the out play stood).',
  'scoreless-turns': 'The rule set’s limit of consecutive scoreless turns was reached (end.scorelessTurns).',
  'consecutive-exchanges': 'Both players exchanged the rule set’s number of times in a row (end.consecutiveExchangesEach).',
  resigned: 'A player resigned; they lose whatever the score (loser).',
  'timed-out': 'The player to move passed their correspondence deadline and the opponent claimed the game.',
  forfeited: 'A player forfeited the game.',
  'challenge-lost': 'A player was wrong about a challenge under a rule that ends the game for it (triple challenge).',
  ruling: 'An adjudicator’s ruling ended the game.',
  aborted: 'Cancelled before its first turn: no winner and no result.',
});

export const EndAdjustmentTypeEnum = closedSet<(typeof ADJUSTMENT_KINDS)[number]>(
  'EndAdjustmentType',
  'How a rack counts at the end of the game.',
  {
    'opponent-rack': 'Points for going out: the opponent’s rack value (doubled or transferred, as the rule set says: end.goingOut).',
    'own-rack': 'A deduction: the value of the seat’s own rack left unplayed.',
  },
);

export const TimeControlTypeEnum = closedSet<(typeof TIME_CONTROL_KINDS)[number]>('TimeControlType', 'How a game is timed.', {
  untimed: 'No clock: nobody loses on time.',
  correspondence: 'A deadline per turn (turnSeconds) plus a bank per player (bankSeconds); the server keeps the time.',
  clock: 'Minutes per player (minutes), kept by the clients; the server records them only.',
});

export const MatchStateEnum = closedSet<MatchStatus>('MatchState', 'Where a match stands.', {
  open: 'Waiting for the second player (joinMatch).',
  playing: 'Under way: at least one of its games is not over.',
  ended: 'Every game has ended: result is set.',
  aborted: 'A game of the match was aborted: the match has no result.',
});

export const MatchDeciderEnum = closedSet<(typeof MATCH_DECIDERS)[number]>(
  'MatchDecider',
  'What decides a match (the rule set’s match.decidedBy).',
  {
    'combined-points': 'The higher combined points over the games wins; equal points tie (seed-003 scoring 11).',
  },
);

export const FirstSecondPositionEnum = closedSet<(typeof FIRST_SECOND_POSITIONS)[number]>(
  'FirstSecondPosition',
  'Where a player finished one game of a match, for the firsts-and-seconds tally.',
  {
    first: 'Won the game (a first).',
    second: 'Lost the game (a second).',
    neither: 'Neither: a tie, or a game forfeited before it began where the rule set gives no first or second for it.',
  },
);

export const RuleSetPresetEnum = closedSet<RuleSetId>('RuleSetPreset', 'A rule-set preset (docs/rules.md lists every parameter of each).', {
  NSA_2008: 'NSA tournament rules (2008): double challenge. The default for games.',
  WESPA: 'WESPA tournament rules (V3.0): 5 points per valid word unsuccessfully challenged.',
  FRIENDLY: 'Friendly house rules (seed-002): free challenges, free trades, blank substitution.',
  MATCH_VARIANT: 'The two-game match variant (seed-003): decided on combined points. The default for matches.',
  ONLINE_VOID: 'Online play with void challenge (Woogles): a phony is refused when played, there are no challenges.',
});

export const ChallengeModeEnum = closedSet<ChallengeMode>(
  'ChallengeMode',
  'What happens when a play is challenged (the rule set’s challenge.mode).',
  {
    double: 'A phony comes off; if every word is valid the challenger loses their turn (NSA 2008, seed-001 §2).',
    single: 'A phony comes off; an unsuccessful challenge costs nothing.',
    'points-per-word': 'A phony comes off; the challenged player gets challenge.points per valid word challenged (WESPA 3.10.13).',
    'points-per-turn': 'A phony comes off; the challenged player gets challenge.points once per unsuccessful challenge (WESPA 3.10.13).',
    void: 'Invalid words are refused when played; there are no challenges (Woogles VOID).',
    triple: 'Whoever is wrong about a challenge loses the game (Woogles TRIPLE).',
    free: 'An invalid word is withdrawn and the same player plays again; challenging costs nothing (seed-002).',
  },
);

export const PremiumSquareEnum = closedSet<'DLS' | 'TLS' | 'QLS' | 'DWS' | 'TWS' | 'QWS'>(
  'PremiumSquare',
  'A premium square of the board; it counts only for the tiles a play puts on it (seed-003 scoring 5).',
  {
    DLS: 'Double letter score.',
    TLS: 'Triple letter score.',
    QLS: 'Quadruple letter score (the 21 × 21 board).',
    DWS: 'Double word score.',
    TWS: 'Triple word score.',
    QWS: 'Quadruple word score (the 21 × 21 board).',
  },
);

export const SourceVerificationEnum = closedSet<NonNullable<Citation['verification']>>(
  'SourceVerification',
  'How well a citation is sourced, by the tags of the reference documents.',
  {
    V: 'Read in the primary text.',
    P: 'Taken from an excerpt of the primary text.',
    S: 'From a secondary source.',
    Seed: 'From one of the project’s founding documents (seed-000 … seed-003).',
    U: 'Not verified.',
  },
  { V: 'VERIFIED', P: 'PRIMARY_EXCERPT', S: 'SECONDARY', U: 'UNVERIFIED' },
);

export const ApiScopeEnum = closedSet<ApiScope>('ApiScope', 'What an API key may do (a player token holds every scope).', {
  'games:read': 'Read the owner’s games and matches, as the owner sees them (their own seat’s view only).',
  'games:play': 'Create, join and play games and matches in the owner’s seat: turns, challenges, resigning, pauses, timeouts.',
  'keys:manage': 'Create, list and revoke the owner’s API keys (createApiKey, apiKeys, revokeApiKey).',
  'webhooks:manage': 'Register, list, pause and delete the owner’s webhook subscriptions, and read their delivery log.',
  'lexicons:manage': 'Upload word lists, and new editions of the owner’s own (uploadLexicon, POST /v1/lexicons).',
  'disputes:rule': 'Rule on disputes as a director (ruleOnDispute); the owner must hold the director role too (docs/security.md).',
  'apps:manage': 'Register, list, change and delete the owner’s third-party OAuth apps (registerApp, myApps …, docs/apps.md).',
});

export const WebhookEventTypeEnum = closedSet<WebhookEventKind>(
  'WebhookEventType',
  'An event a webhook subscription can deliver (docs/webhooks.md).',
  {
    'your-turn': 'A turn ended and it is now a player’s move; sent to the player to move only.',
    'game-started': 'A game started: both seats are filled and its first turn begins; sent to both seated players.',
    'game-ended': 'A game ended; sent to both seated players.',
    'challenge-resolved': 'A challenge was ruled on; sent to both seated players.',
    'dispute-filed': 'A dispute was filed on a game (fileDispute); sent to both seated players.',
    'dispute-ruled': 'A ruling was applied to a dispute, automatic or a director’s; sent to both seated players.',
    'round-paired': 'A tournament round was paired or its pairing overridden; sent to the event’s directors and the division’s players.',
    'result-recorded': 'A tournament game’s result was recorded; sent to the event’s directors and the game’s two players.',
    'slip-submitted':
      'A tournament game’s tally slip was submitted (final but for a ruling); sent to the event’s directors and the game’s two players.',
    'standings-changed': 'A tournament division’s standings changed; sent to the event’s directors and the division’s players.',
    'challenge-received': 'A player challenged you to a game (or asked for a rematch); sent to the challenged player only.',
    'challenge-answered':
      'A challenge was accepted (naming the game), declined or withdrawn; sent to the other party only (docs/lobby.md#announcements).',
    'seek-accepted': 'Another player accepted your seek and the game started (naming it); sent to the seek’s author only.',
    'pairing-found': 'Your pairing request was paired and the game started (naming it); sent to each of the two players.',
    'robot-offered':
      'Your pairing request’s wait ended unpaired: a casual robot game is offered (acceptRobotOffer); sent to its player only.',
  },
);

export const WebhookDeliveryStateEnum = closedSet<WebhookDeliveryStatus>('WebhookDeliveryState', 'Where one webhook delivery stands.', {
  pending: 'Not tried yet.',
  failed: 'The last attempt failed; the next one is due at nextAttemptAt.',
  succeeded: 'The receiver answered 2xx.',
  dead: 'Every retry failed: Arbiter gave up on it.',
});

/**
 * The value of an input that has a deprecated twin (docs/api.md, "Deprecations"): the enum-typed new
 * field or the old String one, never both; `required` when one of them must be given.
 */
export const eitherOf = <T>(
  current: { readonly field: string; readonly value: T | null | undefined },
  legacy: { readonly field: string; readonly value: T | null | undefined },
  required = false,
): T | null => {
  if (current.value != null && legacy.value != null)
    throw new ValidationError([{ field: legacy.field, message: `Give ${current.field} or ${legacy.field} (deprecated), not both.` }]);
  const value = current.value ?? legacy.value ?? null;
  if (required && value === null) throw new ValidationError([{ field: current.field, message: `${current.field} is required.` }]);
  return value;
};

export const PlayerRoleEnum = closedSet<Role>('PlayerRole', 'What a player may do besides playing (docs/security.md).', {
  player: 'Plays games.',
  director: 'Also rules on disputes left to a director or appealed (ruleOnDispute).',
  admin: 'Also grants and revokes the director role; made from the command line only (arbiter director).',
});

export const OrganizationKindEnum = closedSet<OrganizationKind>(
  'OrganizationKind',
  'What an organization is (docs/adjudication.md, directors).',
  {
    club: 'A club: its directors rule on the disputes of the games played under it.',
    event: 'An event (a tournament): its directors rule on the disputes of the games played under it.',
  },
);

export const DisputeStatusEnum = closedSet<DisputeStatus>(
  'DisputeStatus',
  'Where a dispute filed on a game stands (docs/adjudication.md).',
  {
    open: 'Filed; the rule set leaves it to a director, who has not ruled yet.',
    appealed: 'A seated player appealed the automatic ruling; it stands until a director rules.',
    ruled: 'A ruling has been applied to the game (the automatic one, or a director’s).',
  },
);

export const DisputeFactSourceEnum = closedSet<(typeof DISPUTE_FACT_SOURCES)[number]>(
  'DisputeFactSource',
  'Where a fact of a filed dispute comes from.',
  {
    log: 'Read from the game log (the claimant cannot change it).',
    claimant: 'Stated by whoever filed the dispute (what happened at the table).',
  },
);

export const AnalyzedMoveKindEnum = closedSet<'play' | 'exchange' | 'pass'>('AnalyzedMoveKind', 'What kind of move an analysed move is.', {
  play: 'Tiles placed on the board.',
  exchange: 'Tiles swapped with the bag.',
  pass: 'No tiles moved.',
});

// ---------------------------------------------------------------------------------------------
// Tournaments (issue 30; docs/tournaments.md)

export const PairingMethodEnum = closedSet<PairingMethod>('PairingMethod', 'How a tournament round is paired (docs/tournaments.md).', {
  'round-robin': 'Berger tables, each pair once (FIDE Handbook C.05 Annex 1).',
  'double-round-robin': 'Berger tables twice over, firsts swapped in the second half.',
  'match-round-robin': 'Each pair twice in consecutive rounds, once first each (seed-003’s two-game match inside a round robin).',
  'king-of-the-hill': '1 v 2, 3 v 4 … by the standings before the round (TSH koth).',
  'initial-fontes': 'Initial Fontes: the field split in quarters by seed for the first rounds (TSH initfontes).',
  swiss: 'Swiss by wins then spread, avoiding repeats (TSH swiss).',
  weighted: 'Minimum-weight perfect matching over rank difference, repeats, first/second balance and Gibsonization (Woogles COP).',
  manual: 'No method: the director gives every pair (overridePairing).',
});

export const DivisionModeEnum = closedSet<DivisionMode>('DivisionMode', 'How a division’s games are played.', {
  'over-the-board': 'At the table: results are entered (or recorded games), slips signed and submitted.',
  correspondence: 'A correspondence league: Arbiter creates each round’s games and records their results when they end.',
});

export const RoundStatusEnum = closedSet<RoundStatus>('RoundStatus', 'Where a tournament round stands.', {
  unpaired: 'Not paired yet.',
  paired: 'Paired (the director may still re-pair or override it) but not started.',
  started: 'Under way: results are being recorded.',
  ended: 'Over: every game has its result (or the director ended it).',
});

export const SlipStatusEnum = closedSet<SlipStatus>('SlipStatus', 'Where a tally slip stands (seed-001 §3).', {
  recorded: 'Entered, not signed by both players yet: either player may correct it.',
  signed: 'Signed by both players (or a scorekeeper, or the game’s end).',
  submitted: 'Submitted: its scores change only by a director’s tally-slip-change ruling (changeSlip).',
});

export const ResultKindEnum = closedSet<ResultKind>('ResultKind', 'Why a tournament game’s result is what it is.', {
  played: 'The game was played; the slip has its scores.',
  forfeit: 'One player forfeited: the scores are the rule set’s forfeit spread unless given.',
});

export const ForfeitReasonEnum = closedSet<ForfeitReason>('ForfeitReason', 'Why a tournament game was forfeited.', {
  'late-arrival': 'The player arrived too late (seed-001 §1: 25 minutes after the announced start, or the clock at −0:01).',
  'no-show': 'The player did not come.',
  timeout: 'The player ran out of time (a correspondence game’s clock).',
  director: 'The director declared it forfeited.',
});

export const FirstReasonEnum = closedSet<FirstReason>('FirstReason', 'Why a paired game’s first player goes first.', {
  'fewer-firsts': 'They have gone first fewer times so far.',
  'more-seconds': 'Firsts equal, they have gone second more times.',
  draw: 'Firsts and seconds equal: a seeded draw, recorded with the round.',
  schedule: 'A fixed schedule (round robin) says so.',
  director: 'The director said so (overridePairing).',
  unknown: 'An imported game whose record does not say who went first (TSH p12 3 or 4, or none): counted neither first nor second.',
});

export const TournamentViewerRoleEnum = closedSet<TournamentViewerRole>('TournamentViewerRole', 'How the caller stands to a tournament.', {
  director: 'A director of its event: creates, pairs, overrides, withdraws, submits and rules.',
  player: 'Plays in one of its divisions: signs their own slips and files disputes.',
  public: 'Neither: reads what is public.',
});

export const TournamentActorRoleEnum = closedSet<ActorRole>('TournamentActorRole', 'Who did something in a tournament’s log.', {
  director: 'A director of the event.',
  player: 'A player of the division.',
  scorekeeper: 'The scorekeeper of a recorded game.',
  system: 'Arbiter itself: a game’s end, a deadline, an import.',
});

export const RoundOutcomeKindEnum = closedSet<OutcomeKind>('RoundOutcomeKind', 'What a player had in a round (a crosstable cell).', {
  game: 'A game (with its result once recorded).',
  bye: 'A bye (or an unpaired round that scores as the rule set says).',
  none: 'Nothing: withdrawn, not entered yet, or not paired.',
});

export const WinLossEnum = closedSet<GameResult>('WinLoss', 'A player’s result in one tournament game.', {
  win: 'Won (a bye that scores a win too).',
  loss: 'Lost (or forfeited).',
  tie: 'Tied: half a win and half a loss.',
});

export const TournamentEventTypeEnum = closedSet<TournamentEventType>(
  'TournamentEventType',
  'What one event of a tournament’s log records.',
  {
    'tournament-created': 'The tournament was created.',
    'division-added': 'A division was added, with its settings.',
    'player-added': 'A player joined a division.',
    'player-withdrawn': 'A player withdrew from a division from a round on.',
    'couple-prepaired': 'The director fixed a couple before the round was paired.',
    'round-paired': 'A round was paired (again, for a re-pair) by its method.',
    'pairing-overridden': 'The director replaced a round’s pairing.',
    'round-started': 'A round started.',
    'late-clock-started': 'The director started a late player’s clock (seed-001 §1).',
    'result-recorded': 'A game’s result was recorded: its tally slip.',
    'slip-corrected': 'A slip’s scores were corrected before submission.',
    'slip-signed': 'A slip was signed.',
    'slip-submitted': 'A slip was submitted.',
    'slip-changed': 'A submitted slip was changed by a director’s ruling (tally-slip-change).',
    'league-game-created': 'Arbiter created a correspondence league game.',
    'round-ended': 'A round ended.',
    'slip-dispute-filed': 'A player filed a tally-slip-change dispute on a submitted slip (seed-001 §3).',
    'slip-dispute-dismissed': 'The director dismissed a slip dispute: the slip stands.',
  },
);

export const SlipDisputeStatusEnum = closedSet<SlipDisputeStatus>('SlipDisputeStatus', 'Where a slip dispute stands.', {
  open: 'Filed; the director has not decided it.',
  upheld: 'The director changed the slip (changeSlip naming it).',
  dismissed: 'The director dismissed it: the slip stands.',
});

export const OAuthClientTypeEnum = closedSet<ClientType>(
  'OAuthClientType',
  'What kind of OAuth client a third-party app is (docs/apps.md).',
  {
    public: 'A browser or mobile app, which cannot keep a secret: it has none, and proves each authorization with PKCE alone.',
    confidential: 'A server, which keeps a client secret and sends it with every token request (as well as PKCE).',
  },
);
