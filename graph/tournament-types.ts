import type { Actor, Entrant, RoundPlan, SlipRuling } from '../engine/tournament/events.js';
import type { CrosstableCell, CrosstableRow } from '../engine/tournament/crosstable.js';
import type { ByeEntry } from '../engine/tournament/events.js';
import type { PairedGame } from '../engine/tournament/pairing/types.js';
import type { RatingLine } from '../engine/tournament/ratings.js';
import { formatRecord, type StandingRow } from '../engine/tournament/standings.js';
import type { DivisionState, PairingRecord, RoundState, Slip, SlipChange, SlipDispute } from '../engine/tournament/state.js';
import { builder } from './builder.js';
import { CitationType } from './errors.js';
import {
  FirstReasonEnum,
  FirstSecondPositionEnum,
  ForfeitReasonEnum,
  PairingMethodEnum,
  ResultKindEnum,
  RoundOutcomeKindEnum,
  RoundStatusEnum,
  SlipDisputeStatusEnum,
  SlipStatusEnum,
  TournamentActorRoleEnum,
  WinLossEnum,
} from './enums.js';

/**
 * The parts of a tournament as GraphQL types (issue 30, item 9): entrants, rounds with their pairings,
 * byes and pairing history, tally slips with their changes, standings and the crosstable. All of it is
 * read from the tournament's state as the service folded it (`TournamentView.state`); standings and the
 * crosstable are computed by the engine (engine/tournament/standings.ts, crosstable.ts), never here.
 * The Tournament and Division types that hold these are in graph/tournaments.ts.
 */

/** A round with the division it belongs to (entrants are looked up by number). */
export interface RoundParent {
  readonly division: DivisionState;
  readonly round: RoundState;
  /** The tournament's id and version, for the round's own fields. */
  readonly tournamentId: string;
  readonly version: number;
}

interface EntrantParent {
  readonly division: DivisionState;
  readonly entrant: Entrant;
}

interface PairingParent {
  readonly division: DivisionState;
  readonly round: RoundState;
  readonly game: PairedGame;
}

/** An ISO time of the log as a DateTime; null stays null. */
export const dateOrNull = (iso: string | null | undefined): Date | null => (iso ? new Date(iso) : null);

/** Entrant `number` of the division, with its division (for its withdrawal). */
export const entrantOf = (division: DivisionState, number: number): EntrantParent | null => {
  const entrant = division.entrants[number - 1];
  return entrant ? { division, entrant } : null;
};

export const ActorType = builder.objectRef<Actor>('TournamentActor').implement({
  description: 'Who did something in a tournament: their role, account and name, as the log keeps them.',
  fields: (t) => ({
    role: t.field({ type: TournamentActorRoleEnum, description: 'In what capacity they acted.', resolve: (a) => a.role }),
    playerId: t.id({
      nullable: true,
      description: 'Their account (Player.id); null for the system or a name only.',
      resolve: (a) => a.playerId,
    }),
    name: t.exposeString('name', { description: 'Their handle or name, for the record.' }),
    entrant: t.int({
      nullable: true,
      description: 'For a player: the entrant number they act as in the division concerned; null otherwise.',
      resolve: (a) => a.entrant ?? null,
    }),
  }),
});

export const EntrantType = builder.objectRef<EntrantParent>('Entrant').implement({
  description: 'A player of a division: an account or a name only, with a seed rating and an optional class.',
  fields: (t) => ({
    number: t.int({
      description: 'Entrant number in the division, 1-based, in the order added (a TSH .t file’s line order).',
      resolve: (e) => e.entrant.number,
    }),
    name: t.string({ description: 'The name shown in pairings and standings.', resolve: (e) => e.entrant.name }),
    playerId: t.id({
      nullable: true,
      description: 'The Arbiter account (Player.id); null for a name only.',
      resolve: (e) => e.entrant.playerId,
    }),
    rating: t.int({
      description: 'Seed rating: ranks players before round 1 and breaks the last ties in the standings.',
      resolve: (e) => e.entrant.rating,
    }),
    class: t.string({
      nullable: true,
      description: 'The rating class (TSH `class`), e.g. "B"; null when none.',
      resolve: (e) => e.entrant.class,
    }),
    withdrawnFromRound: t.int({
      nullable: true,
      description: 'The first round the player no longer plays, once withdrawn; null while they play.',
      resolve: (e) => e.division.withdrawn[e.entrant.number] ?? null,
    }),
  }),
});

export const RoundPlanType = builder.objectRef<RoundPlan & { readonly round: number }>('RoundPlan').implement({
  description: 'How a round is paired and when it starts (over the board) or must end (correspondence), fixed with the division.',
  fields: (t) => ({
    round: t.exposeInt('round', { description: 'The round, 1-based.' }),
    method: t.field({ type: PairingMethodEnum, description: 'The pairing method (pairRound may override it).', resolve: (p) => p.method }),
    startsAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The announced start (seed-001 §1: a late player’s clock starts no earlier than 5 minutes after it); null when none.',
      resolve: (p) => dateOrNull(p.startsAt),
    }),
    deadline: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'A correspondence round’s deadline for its games; null when none.',
      resolve: (p) => dateOrNull(p.deadline),
    }),
  }),
});

const SlipRulingType = builder.objectRef<SlipRuling>('SlipRuling').implement({
  description: 'The director’s ruling that changed a submitted slip (seed-001 §3: the tally-slip-change dispute kind).',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'The dispute kind ruled on: always tally-slip-change.' }),
    reason: t.exposeString('reason', { description: 'What the director found, for the record.' }),
    disputeId: t.id({ nullable: true, description: 'The dispute filed, when there was one; null otherwise.', resolve: (r) => r.disputeId }),
    ruling: t.string({
      nullable: true,
      description:
        'The ruling code the tally-slip-change adjudication gave under the division’s rule set (SLIP_CORRECTED, DIRECTOR_DISCRETION).',
      resolve: (r) => r.code ?? null,
    }),
    citations: t.field({
      type: [CitationType],
      description: 'The rules the ruling cites (seed-001 §3, WESPA 5.4.1 …).',
      resolve: (r) => [...(r.citations ?? [])],
    }),
  }),
});

const SlipChangeType = builder.objectRef<SlipChange>('SlipChange').implement({
  description: 'A change to a slip’s scores: who, when, from what to what, and the ruling when it came after submission.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', description: 'When.', resolve: (c) => new Date(c.at) }),
    by: t.field({ type: ActorType, description: 'Who changed it.', resolve: (c) => c.by }),
    from: t.intList({ description: 'The scores before, first player first.', resolve: (c) => [...c.from] }),
    to: t.intList({ description: 'The scores after, first player first.', resolve: (c) => [...c.to] }),
    ruling: t.field({
      type: SlipRulingType,
      nullable: true,
      description: 'The director’s ruling (after submission); null for a correction before it.',
      resolve: (c) => c.ruling,
    }),
  }),
});

const SlipDisputeType = builder.objectRef<SlipDispute>('SlipDispute').implement({
  description: 'A player’s tally-slip-change dispute on a submitted slip (seed-001 §3), and how the director decided it.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Its number in the tournament: changeSlip names it as disputeId.' }),
    at: t.field({ type: 'DateTime', description: 'When it was filed.', resolve: (d) => new Date(d.at) }),
    by: t.field({ type: ActorType, description: 'Who filed it.', resolve: (d) => d.by }),
    scores: t.intList({ description: 'The scores asked for, first player first.', resolve: (d) => [...d.scores] }),
    reason: t.exposeString('reason', { description: 'Why, as the filer wrote it.' }),
    status: t.field({
      type: SlipDisputeStatusEnum,
      description: 'Open, upheld (the slip was changed) or dismissed.',
      resolve: (d) => d.status,
    }),
    ruledReason: t.string({
      nullable: true,
      description: 'The director’s reason once decided; null while open.',
      resolve: (d) => d.ruledReason,
    }),
  }),
});

export const SlipType = builder.objectRef<Slip>('Slip').implement({
  description: 'A game’s tally slip (seed-001 §3): both scores, signed by the players and submitted; after that changed only by a ruling.',
  fields: (t) => ({
    first: t.int({ description: 'The entrant number of the player who went first.', resolve: (s) => s.players[0] }),
    second: t.int({ description: 'The entrant number of the player who went second.', resolve: (s) => s.players[1] }),
    firstScore: t.int({ description: 'The first player’s score.', resolve: (s) => s.scores[0] }),
    secondScore: t.int({ description: 'The second player’s score.', resolve: (s) => s.scores[1] }),
    kind: t.field({ type: ResultKindEnum, description: 'Played or forfeited.', resolve: (s) => s.kind }),
    forfeiter: t.int({ nullable: true, description: 'Who forfeited (a forfeit); null otherwise.', resolve: (s) => s.forfeiter }),
    forfeitReason: t.field({
      type: ForfeitReasonEnum,
      nullable: true,
      description: 'Why the game was forfeited; null for a played game.',
      resolve: (s) => s.forfeitReason,
    }),
    gameId: t.id({ nullable: true, description: 'The Arbiter game it came from (Game.id); null when none.', resolve: (s) => s.gameId }),
    status: t.field({ type: SlipStatusEnum, description: 'Recorded, signed or submitted.', resolve: (s) => s.status }),
    signers: t.intList({ description: 'Entrant numbers of the players who signed it.', resolve: (s) => [...s.signers] }),
    signedForBoth: t.exposeBoolean('signedForBoth', {
      description: 'A scorekeeper or the game’s end signed it for both players.',
    }),
    recordedAt: t.field({ type: 'DateTime', description: 'When the result was recorded.', resolve: (s) => new Date(s.recordedAt) }),
    changes: t.field({ type: [SlipChangeType], description: 'Every change to its scores, in order.', resolve: (s) => [...s.changes] }),
    disputes: t.field({
      type: [SlipDisputeType],
      description: 'Disputes filed on it after submission, in order.',
      resolve: (s) => [...s.disputes],
    }),
  }),
});

export const PairingType = builder.objectRef<PairingParent>('Pairing').implement({
  description: 'One game of a round: who goes first and why, how often the two have met, and its slip once recorded.',
  fields: (t) => ({
    first: t.int({ description: 'The entrant number of the player who goes first.', resolve: (p) => p.game.first }),
    second: t.int({ description: 'The entrant number of the player who goes second.', resolve: (p) => p.game.second }),
    firstName: t.string({ description: 'The first player’s name.', resolve: (p) => p.division.entrants[p.game.first - 1]?.name ?? '' }),
    secondName: t.string({ description: 'The second player’s name.', resolve: (p) => p.division.entrants[p.game.second - 1]?.name ?? '' }),
    firstReason: t.field({ type: FirstReasonEnum, description: 'Why the first player goes first.', resolve: (p) => p.game.firstReason }),
    repeats: t.int({ description: 'How often these two met before this round.', resolve: (p) => p.game.repeats }),
    gameId: t.id({
      nullable: true,
      description: 'A correspondence round’s game (Game.id), once Arbiter created it; null otherwise.',
      resolve: (p) => p.round.gameIds[p.game.first] ?? null,
    }),
    slip: t.field({
      type: SlipType,
      nullable: true,
      description: 'The game’s tally slip; null until a result is recorded.',
      resolve: (p) => p.round.slips[p.game.first] ?? null,
    }),
  }),
});

const ByeType = builder.objectRef<ByeEntry & { readonly name: string }>('Bye').implement({
  description: 'A player without a game in a round, and the spread it scores (seed-001 §4; the rule set’s byeSpread).',
  fields: (t) => ({
    player: t.exposeInt('player', { description: 'The entrant number.' }),
    name: t.exposeString('name', { description: 'The player’s name.' }),
    spread: t.exposeInt('spread', { description: 'Spread it scores: positive a win, negative a forfeit loss, 0 neither.' }),
  }),
});

const PairingRecordType = builder.objectRef<PairingRecord>('PairingRecord').implement({
  description: 'One pairing of a round or its override, with its author: the round’s pairing history.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', description: 'When.', resolve: (r) => new Date(r.at) }),
    by: t.field({ type: ActorType, description: 'Who paired or overrode it.', resolve: (r) => r.by }),
    overridden: t.boolean({
      description: 'The director replaced the pairing (overridePairing); false for a method’s pairing.',
      resolve: (r) => r.action === 'overridden',
    }),
    method: t.field({
      type: PairingMethodEnum,
      nullable: true,
      description: 'The method used; null for an override.',
      resolve: (r) => r.method,
    }),
    reason: t.string({ nullable: true, description: 'The director’s reason for an override; null otherwise.', resolve: (r) => r.reason }),
  }),
});

const LateClockType = builder.objectRef<{ readonly player: number; readonly at: string }>('LateClock').implement({
  description: 'A late player whose clock the director started (seed-001 §1).',
  fields: (t) => ({
    player: t.exposeInt('player', { description: 'The entrant number.' }),
    at: t.field({ type: 'DateTime', description: 'When the director started it.', resolve: (c) => new Date(c.at) }),
  }),
});

const CoupleType = builder.objectRef<readonly [number, number]>('PrePairedCouple').implement({
  description: 'A couple the director fixed before the round was paired (prePairCouple).',
  fields: (t) => ({
    player: t.int({ description: 'One entrant number.', resolve: (c) => c[0] }),
    opponent: t.int({ description: 'The other entrant number.', resolve: (c) => c[1] }),
  }),
});

export const RoundType = builder.objectRef<RoundParent>('Round').implement({
  description: 'A round of a division: its status, method, pairings with their slips, byes, and every pairing with its author.',
  fields: (t) => ({
    number: t.int({ description: 'The round, 1-based.', resolve: (r) => r.round.number }),
    division: t.string({ description: 'The division’s name.', resolve: (r) => r.division.spec.name }),
    tournamentId: t.id({ description: 'The tournament’s id (Tournament.id).', resolve: (r) => r.tournamentId }),
    version: t.int({
      description: 'The tournament’s version: send it as expectedVersion (REST: the ETag, If-Match).',
      resolve: (r) => r.version,
    }),
    status: t.field({ type: RoundStatusEnum, description: 'Unpaired, paired, started or ended.', resolve: (r) => r.round.status }),
    method: t.field({
      type: PairingMethodEnum,
      nullable: true,
      description: 'The method it was last paired by; null while unpaired or after an override.',
      resolve: (r) => r.round.method,
    }),
    seed: t.string({
      nullable: true,
      description: 'The seed of the last pairing’s draws; null while unpaired.',
      resolve: (r) => r.round.seed,
    }),
    startsAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The announced start (over the board); null when none.',
      resolve: (r) => dateOrNull(r.division.spec.rounds[r.round.number - 1]?.startsAt),
    }),
    deadline: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The deadline of a correspondence round; null when none.',
      resolve: (r) => dateOrNull(r.division.spec.rounds[r.round.number - 1]?.deadline),
    }),
    startedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it started; null before.',
      resolve: (r) => dateOrNull(r.round.startedAt),
    }),
    endedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it ended; null before.',
      resolve: (r) => dateOrNull(r.round.endedAt),
    }),
    gibsonized: t.intList({
      description: 'Players clinched for first and paired apart (weighted method).',
      resolve: (r) => [...r.round.gibsonized],
    }),
  }),
});

builder.objectFields(RoundType, (t) => ({
  pairings: t.field({
    type: [PairingType],
    description: 'The games of the round, first player first; empty while unpaired.',
    resolve: (r) => r.round.games.map((game) => ({ division: r.division, round: r.round, game })),
  }),
  byes: t.field({
    type: [ByeType],
    description: 'Players with a bye (or without a game) this round.',
    resolve: (r) => r.round.byes.map((b) => ({ ...b, name: r.division.entrants[b.player - 1]?.name ?? '' })),
  }),
  prePaired: t.field({
    type: [CoupleType],
    description: 'Couples the director fixed before pairing.',
    resolve: (r) => [...r.round.prePaired],
  }),
  history: t.field({
    type: [PairingRecordType],
    description: 'Every pairing and override, in order, with its author.',
    resolve: (r) => [...r.round.history],
  }),
  lateClocks: t.field({
    type: [LateClockType],
    description: 'Late players whose clock the director started.',
    resolve: (r) => [...r.round.lateClocks],
  }),
}));

/** A standings row with its player's ratings through the same rounds (graph/tournament-ratings.ts). */
export type StandingParent = StandingRow & { readonly ratings?: RatingLine };

export const StandingType = builder.objectRef<StandingParent>('Standing').implement({
  description:
    'One player’s line of the standings, computed from the log: wins (a tie ½), losses, spread, firsts and seconds (seed-001 §4), byes and the tiebreaks.',
  fields: (t) => ({
    rank: t.exposeInt('rank', {
      description: 'Place, 1 = top: wins, then the rule set’s tiebreaks, then seed rating, then entrant number.',
    }),
    number: t.int({ description: 'Entrant number.', resolve: (s) => s.entrant.number }),
    name: t.string({ description: 'The player’s name.', resolve: (s) => s.entrant.name }),
    playerId: t.id({ nullable: true, description: 'The Arbiter account; null for a name only.', resolve: (s) => s.entrant.playerId }),
    rating: t.int({ description: 'Seed rating.', resolve: (s) => s.entrant.rating }),
    class: t.string({ nullable: true, description: 'Rating class; null when none.', resolve: (s) => s.entrant.class }),
    wins: t.exposeFloat('wins', { description: 'Wins, a tie counting ½ (a bye that scores a win counts).' }),
    losses: t.exposeFloat('losses', { description: 'Losses, a tie counting ½.' }),
    record: t.string({ description: 'Wins–losses as people write it: 5–2, 4½–2½.', resolve: (s) => formatRecord(s.wins, s.losses) }),
    spread: t.exposeInt('spread', { description: 'Points for minus points against (byes and forfeits as the rule set says).' }),
    firsts: t.exposeInt('firsts', { description: 'Games counted as going first (seed-001 §4 for unplayed games).' }),
    seconds: t.exposeInt('seconds', { description: 'Games counted as going second.' }),
    byes: t.exposeInt('byes', { description: 'Byes received.' }),
    played: t.exposeInt('played', { description: 'Games with a result (byes not counted).' }),
    buchholz: t.exposeFloat('buchholz', { description: 'Sum of the opponents’ wins (a tiebreak of Swiss events).' }),
    median: t.exposeFloat('median', { description: 'Buchholz less the best and the worst opponent (with three or more).' }),
    withdrawn: t.exposeBoolean('withdrawn', { description: 'The player has withdrawn.' }),
  }),
});

const CrosstableCellType = builder.objectRef<CrosstableCell>('CrosstableCell').implement({
  description: 'One player’s round in the crosstable: opponent, first or second, both scores, and the record after it.',
  fields: (t) => ({
    round: t.exposeInt('round', { description: 'The round, 1-based.' }),
    kind: t.field({ type: RoundOutcomeKindEnum, description: 'A game, a bye, or nothing.', resolve: (c) => c.kind }),
    opponent: t.int({
      nullable: true,
      description: 'The opponent’s entrant number; 0 for a bye; null for nothing.',
      resolve: (c) => c.opponent,
    }),
    position: t.field({
      type: FirstSecondPositionEnum,
      description: 'First, second or neither as seed-001 §4 counts it.',
      resolve: (c) => c.position,
    }),
    score: t.int({
      nullable: true,
      description: 'The player’s score (a bye: its spread); null without a result.',
      resolve: (c) => c.score,
    }),
    opponentScore: t.int({ nullable: true, description: 'The opponent’s score; null without a result.', resolve: (c) => c.opponentScore }),
    result: t.field({
      type: WinLossEnum,
      nullable: true,
      description: 'Win, loss or tie; null without a result.',
      resolve: (c) => c.result,
    }),
    forfeit: t.exposeBoolean('forfeit', { description: 'The game was forfeited (by either player).' }),
    wins: t.exposeFloat('wins', { description: 'Wins after this round.' }),
    losses: t.exposeFloat('losses', { description: 'Losses after this round.' }),
    spread: t.exposeInt('spread', { description: 'Spread after this round.' }),
  }),
});

export const CrosstableRowType = builder.objectRef<CrosstableRow>('CrosstableRow').implement({
  description: 'One player’s row of the crosstable, in standings order: a cell per round.',
  fields: (t) => ({
    rank: t.int({ description: 'Place in the standings.', resolve: (r) => r.standing.rank }),
    number: t.int({ description: 'Entrant number.', resolve: (r) => r.standing.entrant.number }),
    name: t.string({ description: 'The player’s name.', resolve: (r) => r.standing.entrant.name }),
    cells: t.field({ type: [CrosstableCellType], description: 'One per round, in round order.', resolve: (r) => [...r.cells] }),
  }),
});
