import { ruleError, type RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';
import type { Kwg } from '../engine/lexicon/kwg.js';
import {
  analyzeGame,
  analyzePosition as rankMoves,
  decisionPoints,
  type DecisionPoint,
  type MadeMove,
  type RankedMove,
  type TurnAnalysis,
} from '../engine/movegen/analysis.js';
import { cgpFromState, cgpOperand, parseCgp, positionFromCgp } from '../engine/movegen/cgp.js';
import { positionFromState, type Position } from '../engine/movegen/position.js';
import { err, ok, type Result } from '../engine/result.js';
import { loadGame, type GameRow } from '../store/games.js';
import { seatsOf, type SeatHolder } from '../store/seats.js';
import type { ServiceDeps } from './context.js';
import { fail } from './game-errors.js';
import { engineEvents, fold } from './game-log.js';
import { seatOf } from './game-reads.js';
import { isRobotHandle } from './robot-seats.js';
import { lexiconKwg } from './upload-kwgs.js';

/**
 * Position analysis (issue 19): a position from a stored game (id + version), a GCG record (+ turn)
 * or a CGP line, ranked by the move generator (engine/movegen/analysis.ts). Hidden information: a
 * live game is analysed only for the player against a robot whose game allows hints, and only at
 * their own turns (their own rack); anything else is ANALYSIS_NOT_ALLOWED until the game is over,
 * when everybody may. GCG and CGP input is the caller's own, so it is always analysed.
 */

export const ANALYSIS_ERROR_CODES = ['ANALYSIS_NOT_ALLOWED'] as const;

/** Top moves listed by default, and at most. */
export const DEFAULT_ANALYSIS_TOP = 10;
export const MAX_ANALYSIS_TOP = 50;

export type AnalysisSource =
  | { readonly kind: 'game'; readonly gameId: string; readonly version?: number | null }
  | { readonly kind: 'gcg'; readonly gcg: string; readonly turn: number; readonly lexicon?: string | null }
  | { readonly kind: 'cgp'; readonly cgp: string; readonly lexicon?: string | null };

export interface AnalysisResult {
  /** The position as CGP, with only the rack of the player to move. */
  readonly cgp: string;
  readonly moveCount: number;
  readonly top: readonly RankedMove[];
  /** The move made here (when the source knows it and it is a legal move). */
  readonly made: RankedMove | null;
  /** Whether the source says what was played here (false for a CGP, or a game's current position). */
  readonly madeKnown: boolean;
}

const notAllowed = (message: string, details: Record<string, unknown>) => err(ruleError('ANALYSIS_NOT_ALLOWED', message, details));

const kwgFor = async (deps: ServiceDeps, lexicon: { readonly name: string; readonly hash?: string }): Promise<Result<Kwg, RuleError>> => {
  const k = await lexiconKwg(deps, lexicon);
  return k.ok ? ok(k.value.kwg) : k;
};

const topOf = (top: number | null | undefined): Result<number, RuleError> => {
  const n = top ?? DEFAULT_ANALYSIS_TOP;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ANALYSIS_TOP)
    return fail('BAD_INPUT', `top must be a whole number from 1 to ${MAX_ANALYSIS_TOP}, not ${n}.`, { field: 'top' });
  return ok(n);
};

/**
 * Who may analyse `seat`'s decision in this game: everybody once it is over; while it is on, only
 * the viewer in that very seat, against a robot, in a game that allows hints.
 */
const mayAnalyse = (game: GameRow, seats: readonly SeatHolder[], viewerId: string | null, seat: Seat | 'any'): Result<true, RuleError> => {
  if (game.status === 'ended') return ok(true);
  const mine = seatOf(seats, viewerId);
  const details = { gameId: game.id };
  if (mine === null || !game.allowHints || !seats.some((s) => s.seat !== mine && isRobotHandle(s.player?.handle)))
    return notAllowed(
      'This game is still being played: it can be analysed once it is over (or, by its player, in a game against a robot created with allowHints).',
      details,
    );
  if (seat !== 'any' && seat !== mine)
    return notAllowed('While the game is on, you may analyse only your own turns: that rack is hidden.', details);
  return ok(true);
};

const resultOf = (state: GameState, seat: Seat, position: Position, kwg: Kwg, top: number, made: MadeMove | null): AnalysisResult => {
  const a = rankMoves(position, kwg, { top, made });
  return {
    cgp: cgpFromState({ ...state, turn: seat }, [seat]),
    moveCount: a.moveCount,
    top: a.top,
    made: a.made,
    madeKnown: made !== null,
  };
};

const fromGame = async (deps: ServiceDeps, viewerId: string | null, gameId: string, version: number | null | undefined, top: number) => {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { game, events: stored } = loaded.value;
  const at = version ?? game.version;
  if (!Number.isInteger(at) || at < 1 || at > game.version)
    return fail('BAD_INPUT', `version must be from 1 to the game's version ${game.version}, not ${at}.`, { field: 'version' });
  if (game.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId });
  const seats = await seatsOf(deps.db.prisma, gameId);
  const all = engineEvents(stored);
  const state = fold(all.slice(0, at));
  if (state.status !== 'playing')
    return fail('BAD_INPUT', `Nobody chooses a move at version ${at}: the game is ${state.status}.`, { field: 'version' });
  const allowed = mayAnalyse(game, seats, viewerId, state.turn);
  if (!allowed.ok) return allowed;
  if (state.racks[state.turn].hidden > 0)
    return fail('BAD_INPUT', `The rack of the player to move at version ${at} is not known (an imported record without it).`, {
      field: 'version',
    });
  const kwg = await kwgFor(deps, state.lexicon ?? { name: '' });
  if (!kwg.ok) return kwg;
  // The move made here is the next decision point at this version, if the log has one yet.
  const made = decisionPoints(all).find((p) => p.version === at)?.made ?? null;
  return ok(resultOf(state, state.turn, positionFromState(state), kwg.value, top, made));
};

const lexiconName = (deps: ServiceDeps, name: string | null | undefined): Result<string, RuleError> => {
  const chosen = name ?? deps.lexicons.defaultName;
  if (chosen === null) return err(ruleError('LEXICON_NOT_FOUND', 'No lexicon is loaded on this server: run `npm run lexicons`.', {}));
  return ok(chosen);
};

const fromGcg = async (deps: ServiceDeps, gcg: string, turn: number, lexicon: string | null | undefined, top: number) => {
  const doc = parseGcg(gcg);
  if (!doc.ok) return fail('BAD_INPUT', `gcg line ${doc.error.line}: ${doc.error.message}`, { field: 'gcg' });
  const points = decisionPoints(replayGcg(doc.value).events);
  const point: DecisionPoint | undefined = points[turn - 1];
  if (!Number.isInteger(turn) || !point)
    return fail('BAD_INPUT', `turn must be from 1 to ${points.length} (the record's moves with a known rack), not ${turn}.`, {
      field: 'turn',
    });
  const name = lexiconName(deps, lexicon ?? point.state.lexicon?.name);
  if (!name.ok) return name;
  const kwg = await kwgFor(deps, { name: name.value });
  if (!kwg.ok) return kwg;
  return ok(resultOf(point.state, point.seat, positionFromState(point.state, point.seat), kwg.value, top, point.made));
};

const fromCgp = async (deps: ServiceDeps, text: string, lexicon: string | null | undefined, top: number) => {
  const cgp = parseCgp(text);
  if (!cgp.ok) return fail('BAD_INPUT', cgp.error.message, { field: 'cgp' });
  const name = lexiconName(deps, lexicon ?? cgpOperand(cgp.value, 'lex'));
  if (!name.ok) return name;
  const kwg = await kwgFor(deps, { name: name.value });
  if (!kwg.ok) return kwg;
  const a = rankMoves(positionFromCgp(cgp.value), kwg.value, { top });
  return ok<AnalysisResult>({ cgp: text.trim(), moveCount: a.moveCount, top: a.top, made: null, madeKnown: false });
};

/** The top moves of a position (see the module comment). Errors: ANALYSIS_NOT_ALLOWED, GAME_NOT_FOUND, BAD_INPUT, LEXICON_NOT_FOUND. */
export async function analyzePosition(
  deps: ServiceDeps,
  viewerId: string | null,
  source: AnalysisSource,
  options: { readonly top?: number | null } = {},
): Promise<Result<AnalysisResult, RuleError>> {
  const top = topOf(options.top);
  if (!top.ok) return top;
  switch (source.kind) {
    case 'game':
      return fromGame(deps, viewerId, source.gameId, source.version, top.value);
    case 'gcg':
      return fromGcg(deps, source.gcg, source.turn, source.lexicon, top.value);
    case 'cgp':
      return fromCgp(deps, source.cgp, source.lexicon, top.value);
  }
}

/** A game's analysis: every decision point (while it is on, with hints: only the viewer's own turns). */
export interface GameAnalysis {
  readonly gameId: string;
  readonly turns: readonly TurnAnalysis[];
}

/** Every turn of a game: the move made, the best one, the equity lost. Errors as analyzePosition's. */
export async function gameAnalysis(deps: ServiceDeps, viewerId: string | null, gameId: string): Promise<Result<GameAnalysis, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { game } = loaded.value;
  if (game.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId });
  const seats = await seatsOf(deps.db.prisma, gameId);
  const allowed = mayAnalyse(game, seats, viewerId, 'any');
  if (!allowed.ok) return allowed;
  const events = engineEvents(loaded.value.events);
  const lexicon = fold(events).lexicon;
  const kwg = await kwgFor(deps, lexicon ?? { name: '' });
  if (!kwg.ok) return kwg;
  const mine = seatOf(seats, viewerId);
  const keep = game.status === 'ended' ? undefined : (p: DecisionPoint) => p.seat === mine;
  return ok({ gameId, turns: analyzeGame(events, kwg.value, keep) });
}

/**
 * The game at `version` as a CGP line from `mySeat`'s side: only that seat's rack is written (a
 * spectator's line has none), so it shows nothing the caller's own view does not. Null while open.
 */
export async function gameCgp(
  deps: ServiceDeps,
  gameId: string,
  version: number,
  mySeat: Seat | null,
): Promise<Result<string | null, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const events = engineEvents(loaded.value.events.slice(0, version));
  if (events.length === 0 || loaded.value.game.status === 'open') return ok(null);
  return ok(cgpFromState(fold(events), mySeat === null ? [] : [mySeat]));
}
