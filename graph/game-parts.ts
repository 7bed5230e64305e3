import { formatBoard, formatSquare, type Board } from '../engine/board.js';
import type { Adjustment } from '../engine/game/events.js';
import type { GameResult, TurnRecord } from '../engine/game/state.js';
import { joinTiles } from '../engine/tiles.js';
import type { GameSnapshot, SeatHolder } from '../service/game-reads.js';
import type { RatingChanged, RatingChangedSeat } from '../service/ratings.js';
import { builder } from './builder.js';
import { BoardLayoutType } from './layouts.js';
import { EndAdjustmentTypeEnum, GameEndReasonEnum, GameMoveTypeEnum } from './enums.js';
import { CitationType } from './errors.js';
import { PlayerType } from './players.js';
import { ScoredWordType } from './rules.js';

/**
 * The parts of a `Game` (graph/game.ts): its lexicon, seats, board, unseen tiles, score sheet and
 * outcome, each as the caller's view of the game shows it (service/game-reads.ts): never another
 * player's rack, nor the bag order.
 */

export const GameLexiconType = builder.objectRef<{ name: string; hash: string }>('GameLexicon').implement({
  description: 'The word list a game is judged with, by name and content hash.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The lexicon’s name, e.g. SOWPODS (see the lexicons query).' }),
    hash: t.exposeString('hash', {
      description:
        'The `sha256:` content hash of the word list the game was created with: the same name with another hash is another list.',
    }),
  }),
});

interface SeatShape {
  readonly holder: SeatHolder;
  readonly game: GameSnapshot;
}

export const seatsOf = (g: GameSnapshot): SeatShape[] => g.seats.map((holder) => ({ holder, game: g }));

/** One seat's side of a rated game's latest `rating-changed` (service/ratings.ts). */
interface SeatRatingChange {
  readonly change: RatingChanged;
  readonly seat: RatingChangedSeat;
}

const SeatRatingChangeType = builder.objectRef<SeatRatingChange>('SeatRatingChange').implement({
  description:
    'One seat’s rating change from a rated game (Glicko-2, docs/rated-play.md): its rating before the game (its deviation grown for idle rating periods first) and after. Public, as a player’s page is.',
  fields: (t) => ({
    category: t.string({ description: 'The rating category, e.g. match/correspondence.', resolve: (s) => s.change.category }),
    score: t.float({
      description: 'The result the game was rated as for this seat: 1 a win, 0.5 a tie, 0 a loss.',
      resolve: (s) => s.seat.score,
    }),
    ratingBefore: t.float({ description: 'The rating before the game.', resolve: (s) => s.seat.before.rating }),
    ratingAfter: t.float({ description: 'The rating after the game.', resolve: (s) => s.seat.after.rating }),
    deviationBefore: t.float({
      description: 'The rating deviation (RD) before the game, grown for the rating periods the player was idle.',
      resolve: (s) => s.seat.before.rd,
    }),
    deviationAfter: t.float({ description: 'The rating deviation (RD) after the game.', resolve: (s) => s.seat.after.rd }),
    provisional: t.boolean({
      description: 'The rating after the game is still provisional (RD at or above 110): shown with a “?”.',
      resolve: (s) => s.seat.provisional,
    }),
    ratedAt: t.field({
      type: 'DateTime',
      description: 'When the game was rated: its place in each player’s order of rated games.',
      resolve: (s) => new Date(s.change.ratedAt),
    }),
  }),
});

export const GameSeatType = builder.objectRef<SeatShape>('GameSeat').implement({
  description: 'One of the two seats of a game: who holds it, their score and how many tiles they hold.',
  fields: (t) => ({
    seat: t.int({ description: 'The seat: 0 or 1 (the index into Game.scores).', resolve: (s) => s.holder.seat }),
    player: t.field({
      type: PlayerType,
      nullable: true,
      description: 'The player in the seat; null while the seat is open (joinGame).',
      resolve: (s) => s.holder.player,
    }),
    isMe: t.boolean({ description: 'The seat is yours.', resolve: (s) => s.game.mySeat === s.holder.seat }),
    score: t.int({
      description: 'The seat’s score now (0 while the game is open).',
      resolve: (s) => s.game.view?.scores[s.holder.seat] ?? 0,
    }),
    rackSize: t.int({
      description: 'How many tiles the seat holds (never which).',
      resolve: (s) => s.game.view?.rackSizes[s.holder.seat] ?? 0,
    }),
    ratingChange: t.field({
      type: SeatRatingChangeType,
      nullable: true,
      description:
        'What the game did to the seat’s rating, once a rated game has ended (after a ruling’s recompute, the recomputed change); null for a casual game, while it is on, and for an aborted game.',
      resolve: (s) => {
        const change = s.game.ratingChange;
        const seat = change?.players.find((p) => p.seat === s.holder.seat);
        return change && seat ? { change, seat } : null;
      },
    }),
  }),
});

const BoardTileType = builder.objectRef<{ row: number; col: number; letter: string; blank: boolean }>('BoardTile').implement({
  description: 'A tile on the board.',
  fields: (t) => ({
    square: t.string({ description: 'The square in notation: column letter and row number, e.g. H8.', resolve: (x) => formatSquare(x) }),
    row: t.exposeInt('row', { description: 'The row, 0-based from the top (row 0 is notation row 1).' }),
    col: t.exposeInt('col', { description: 'The column, 0-based from the left (column A is 0).' }),
    letter: t.exposeString('letter', {
      description: 'The letter it stands for (a blank’s chosen letter), uppercase; a digraph is two letters.',
    }),
    blank: t.exposeBoolean('blank', { description: 'The tile is a blank: it scores 0 (seed-003 scoring 6).' }),
  }),
});

export const BoardType = builder.objectRef<Board>('Board').implement({
  description: 'The tiles on the board.',
  fields: (t) => ({
    rows: t.stringList({
      description:
        'One string per row, top first: uppercase letters for tiles, lowercase for blanks, `.` for empty squares, [CH] for a digraph tile (the board format checkPlay takes).',
      resolve: (b) => formatBoard(b).split('\n'),
    }),
    tiles: t.field({
      type: [BoardTileType],
      description: 'Every tile on the board, row by row, left to right.',
      resolve: (b) => {
        const n = b.layout.rows.length;
        return b.cells.flatMap((c, i) => (c ? [{ row: Math.floor(i / n), col: i % n, letter: c.letter, blank: c.blank }] : []));
      },
    }),
    layout: t.string({
      description:
        'The board layout’s name: CrosswordGame (15 × 15), SuperCrosswordGame (21 × 21), another of the layouts query, or custom-… for a board given as data.',
      resolve: (b) => b.layout.name,
    }),
    boardLayout: t.field({
      type: BoardLayoutType,
      description: 'The layout itself: its rows, start square and hash (a board given as data included).',
      resolve: (b) => b.layout,
    }),
  }),
});

export const TileCountType = builder.objectRef<{ tile: string; count: number }>('TileCount').implement({
  description: 'How many of one tile.',
  fields: (t) => ({
    tile: t.exposeString('tile', { description: 'The tile: a letter, [CH] for a digraph, ? for a blank.' }),
    count: t.exposeInt('count', { description: 'How many, at least 1.' }),
  }),
});

export const GameMoveType = builder.objectRef<TurnRecord>('GameMove').implement({
  description: 'One line of the score sheet.',
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The seat the line is scored to: 0 or 1.' }),
    kind: t.exposeString('kind', {
      description:
        'The line’s type in the old spelling: play, exchange, pass, challenge, phony-withdrawn, turn-lost, challenge-points, time-penalty, end-adjustment, ruling.',
      deprecationReason: 'Use type (the GameMoveType enum).',
    }),
    type: t.field({ type: GameMoveTypeEnum, description: 'What the line records.', resolve: (m) => m.kind }),
    notation: t.string({
      description:
        'The move as notation writes it: `8H WORD` (a play), `-ABC` (your own exchange) or `-3` (another’s), `-` (a pass), or a short note for other lines.',
      resolve: (m) => m.move,
    }),
    score: t.exposeInt('score', { description: 'Points this line adds to the seat (negative for a deduction).' }),
    cumulative: t.exposeInt('cumulative', { description: 'The seat’s total after this line.' }),
    event: t.exposeInt('event', {
      description:
        'The event number (game version) of the event that wrote this line: what a dispute about this act names in fileDispute’s concerns. Not always the version the turn was submitted at plus one: a recorded play with its rack entered is preceded by the rack’s own event.',
    }),
    words: t.field({
      type: [ScoredWordType],
      description: 'For a play: the words formed, main word first, then cross words, each with its score breakdown; empty otherwise.',
      resolve: (m) => [...(m.words ?? [])],
    }),
    tiles: t.string({
      nullable: true,
      description: 'The tiles exchanged (your own exchanges only) or the rack counted at the end; null otherwise.',
      resolve: (m) => (m.tiles ? joinTiles(m.tiles) : null),
    }),
    count: t.int({
      nullable: true,
      description: 'How many tiles were exchanged (shown to both players); null for other lines.',
      resolve: (m) => m.count ?? null,
    }),
    secondsLeft: t.int({
      nullable: true,
      description:
        'Recorded games with a clock: the mover’s clock as the scorekeeper read it after this move, in seconds (negative = overtime); null when not read, and for other lines.',
      resolve: (m) => m.secondsLeft ?? null,
    }),
    citations: t.field({
      type: [CitationType],
      description: 'A time penalty of a recorded game: the rule-set parameters it follows, with their sources; empty otherwise.',
      resolve: (m) => [...(m.citations ?? [])],
    }),
  }),
});

const AdjustmentType = builder.objectRef<Adjustment>('EndAdjustment').implement({
  description: 'One rack counted at the end of the game.',
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The seat whose score changes: 0 or 1.' }),
    points: t.exposeInt('points', { description: 'Points added to the seat (negative for a deduction).' }),
    kind: t.exposeString('kind', {
      description: 'The adjustment’s type in the old spelling: opponent-rack or own-rack.',
      deprecationReason: 'Use type (the EndAdjustmentType enum).',
    }),
    type: t.field({ type: EndAdjustmentTypeEnum, description: 'What the adjustment counts.', resolve: (a) => a.kind }),
    tiles: t.string({ description: 'The rack counted (? a blank).', resolve: (a) => joinTiles(a.tiles) }),
  }),
});

export const GameOutcomeType = builder.objectRef<GameResult>('GameOutcome').implement({
  description: 'How a game ended: the reason, the winner, the end-of-game adjustments and the revealed bag seed.',
  fields: (t) => ({
    reason: t.exposeString('reason', {
      description:
        'Why the game ended, in the old spelling: went-out, scoreless-turns, consecutive-exchanges, resigned, timed-out, forfeited, challenge-lost, ruling, aborted.',
      deprecationReason: 'Use endReason (the GameEndReason enum).',
    }),
    endReason: t.field({ type: GameEndReasonEnum, description: 'Why the game ended.', resolve: (r) => r.reason }),
    winner: t.int({ nullable: true, description: 'The winning seat; null for a tie or an aborted game.', resolve: (r) => r.winner }),
    loser: t.int({
      nullable: true,
      description: 'The seat that lost regardless of score (it resigned, timed out, forfeited …); null when the score decided.',
      resolve: (r) => r.loser,
    }),
    adjustments: t.field({
      type: [AdjustmentType],
      description: 'The racks counted at the end, as the rule set scores them (end.goingOut); empty when no rack was counted.',
      resolve: (r) => [...r.adjustments],
    }),
    scoresBeforeAdjustments: t.intList({
      description: 'The scores by seat before the adjustments (what some tie-breaks use: end.tieBreak).',
      resolve: (r) => [...r.scoresBeforeAdjustments],
    }),
    bagSeed: t.string({
      nullable: true,
      description:
        'The secret bag seed, revealed at the end: sha256(bagSeed) = Game.bagCommitment, and every draw can be re-derived from it. null for imported games.',
      resolve: (r) => r.seed,
    }),
  }),
});

/** The tiles of `tiles` counted, in their order (equal tiles are adjacent). */
export const counted = (tiles: readonly string[]): { tile: string; count: number }[] => {
  const out: { tile: string; count: number }[] = [];
  for (const t of tiles) {
    const last = out[out.length - 1];
    if (last && last.tile === t) last.count++;
    else out.push({ tile: t, count: 1 });
  }
  return out;
};
