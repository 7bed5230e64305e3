import { createHash } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import { CHALLENGE_EFFECTS } from '../engine/game/challenge.js';
import type { Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { formatMove } from '../engine/move.js';
import { positionFromState } from '../engine/movegen/position.js';
import { chooseMove, seededRng, type RobotPolicy } from '../engine/movegen/robot.js';
import { err, ok, type Result } from '../engine/result.js';
import { gameSeating, loadGame } from '../store/games.js';
import type { LoadedKwg } from '../store/lexicon-files.js';
import type { ServiceDeps } from './context.js';
import { engineEvents, fold } from './game-log.js';
import { gameNotFound } from './game-errors.js';
import { knownLog } from './log-cache.js';
import { isRobotHandle, robotKwg, robotPolicyOf, ROBOT_HANDLES } from './robot-seats.js';
import { submitTurn, type TurnAction } from './turns.js';

/** A robot's turns (issue 19): what it does in a position, and playing it through submitTurn (seats: robot-seats.ts). */

/**
 * The robot's decision on challenges: it challenges the opponent's pending play exactly when the
 * game's lexicon rejects one of its words (the word list is public, so this uses nothing hidden), and
 * never challenges a valid play. With the out play waiting for its final answer it otherwise passes.
 */
const challengeDue = (state: GameState, seat: Seat, lexicon: Lexicon | null): boolean => {
  const p = state.pending;
  if (!p || p.seat === seat || p.challenged || !lexicon) return false;
  if (!CHALLENGE_EFFECTS[state.rules.challenge.mode].challengeable) return false;
  return p.words.some((w) => !lexicon.has(w.word));
};

/** What the robot does in `state` at `version` (its seat is to move). */
export const robotAction = (
  state: GameState,
  version: number,
  gameId: string,
  policy: RobotPolicy,
  lexicon: Lexicon | null,
  kwg: LoadedKwg,
): TurnAction => {
  const seat = state.turn;
  if (challengeDue(state, seat, lexicon)) return { kind: 'challenge' };
  if (state.status === 'waiting-final') return { kind: 'pass' };
  // Ties are broken by a source seeded from the game and version: a retried wake-up chooses the same move.
  const seed = createHash('sha256').update(`${gameId}:${version}`).digest().readUInt32LE(0);
  const move = chooseMove(positionFromState(state, seat), kwg.kwg, policy, seededRng(seed)).move;
  if (move.kind === 'exchange') return { kind: 'exchange', tiles: (move.tiles ?? []).join('') };
  if (move.kind === 'pass') return { kind: 'pass' };
  return { kind: 'play', move: formatMove(move) };
};

/** What a wake-up did: the actions the robot took (none when no robot was to move). */
export interface RobotTurnOutcome {
  readonly gameId: string;
  readonly actions: readonly TurnAction[];
}

/** A robot never needs more than this many actions in a row (a challenge, then its play). */
const MAX_ROBOT_ACTIONS = 4;

/**
 * Plays whatever the robot in this game has to do now — nothing if it is not a robot's move or the
 * game is over — through `submitTurn` as the robot player, at the version it read, with an
 * idempotency key of that version: a duplicate wake-up replays the same answer or meets
 * STALE_VERSION, which ends it quietly. Errors: GAME_NOT_FOUND, ROBOT_UNAVAILABLE, or the turn's own.
 */
export async function playRobotTurns(deps: ServiceDeps, gameId: string): Promise<Result<RobotTurnOutcome, RuleError>> {
  const actions: TurnAction[] = [];
  for (let i = 0; i < MAX_ROBOT_ACTIONS; i++) {
    const game = await gameSeating(deps.db.prisma, gameId);
    if (!game) return gameNotFound(gameId);
    if (game.status !== 'playing' && game.status !== 'waiting-final') break;
    const { seats } = game;
    // Woken by a turn this process just committed, the robot finds that turn's state known (log-cache.ts).
    const known = knownLog(deps.db, gameId, game.version);
    let state = known?.version === game.version ? known.state : null;
    if (!state) {
      const loaded = await loadGame(deps.db.prisma, gameId);
      if (!loaded.ok) return loaded;
      if (loaded.value.game.version !== game.version) continue;
      state = fold(engineEvents(loaded.value.events));
    }
    const robot = seats.find((s) => s.seat === state.turn)?.player;
    const policy = robotPolicyOf(robot?.handle);
    if (!robot || !policy || !state.lexicon) break;
    const kwg = await robotKwg(deps, state.lexicon);
    if (!kwg.ok) return kwg;
    const lexicon = deps.lexicons.getMatching(state.lexicon);
    const action = robotAction(state, game.version, gameId, policy, lexicon.ok ? lexicon.value : null, kwg.value);
    const r = await submitTurn(deps, robot.id, {
      gameId,
      expectedVersion: game.version,
      idempotencyKey: `robot:${gameId}:${game.version}`,
      action,
    });
    if (!r.ok) return r.error.code === 'STALE_VERSION' ? ok({ gameId, actions }) : err(r.error);
    if (r.value.replayed) break;
    actions.push(action);
    // Only a challenge can leave the robot to move again (its play after the phony comes off).
    if (action.kind !== 'challenge') break;
  }
  return ok({ gameId, actions });
}

/**
 * Games where a robot is to move (the sweep's work list), oldest update first. The game row's
 * projection (status, turn seat) is written in the turn's own transaction, so it is the durable
 * record of a robot's pending move: a wake-up lost in a crash is found here on the next sweep.
 */
export const robotGamesToMove = async (deps: ServiceDeps, limit = 100): Promise<string[]> => {
  const rows = await deps.db.prisma.game.findMany({
    where: {
      status: { in: ['playing', 'waiting-final'] },
      seats: { some: { player: { handle: { in: Object.keys(ROBOT_HANDLES) } } } },
    },
    select: { id: true, turnSeat: true, seats: { select: { seat: true, player: { select: { handle: true } } } } },
    orderBy: { updatedAt: 'asc' },
    take: limit * 4,
  });
  return rows
    .filter((g) => isRobotHandle(g.seats.find((s) => s.seat === g.turnSeat)?.player?.handle))
    .slice(0, limit)
    .map((g) => g.id);
};
