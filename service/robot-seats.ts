import type { RuleError } from '../engine/errors.js';
import type { RobotPolicy } from '../engine/movegen/robot.js';
import type { Result } from '../engine/result.js';
import type { LoadedKwg } from '../store/lexicon-files.js';
import { findPlayerByHandle, insertPlayer, type PlayerRow } from '../store/players.js';
import type { SeatHolder } from '../store/seats.js';
import type { ServiceDeps, Tx } from './context.js';
import { fail } from './game-errors.js';
import { lexiconKwg } from './upload-kwgs.js';

/**
 * Robot seats (issue 19). A robot is a system player whose handle is `robot:greedy` or `robot:equity`
 * (a colon, which no registered handle may hold, so nobody can pose as one), created the first time a
 * game asks for it. It plays through `submitTurn` like anyone: same checks, same log, its own seat.
 * The robot's turn is never played inside the request that handed it the move: the caller's
 * `robotTurns` hook (an in-process worker locally, an SQS message on AWS) runs `playRobotTurns` (robot-turns.ts)
 * afterwards, and a periodic sweep (`robotGamesToMove`) catches any wake-up that was lost.
 */

export const ROBOT_HANDLES = { 'robot:greedy': 'greedy', 'robot:equity': 'equity' } as const satisfies Record<string, RobotPolicy>;
export type RobotHandle = keyof typeof ROBOT_HANDLES;
const ROBOT_NAMES: Record<RobotHandle, string> = { 'robot:greedy': 'Robot (greedy)', 'robot:equity': 'Robot (equity)' };
const ROBOT_STYLES: Record<RobotHandle, string> = {
  'robot:greedy': 'Plays the highest-scoring move, whatever it leaves on its rack.',
  'robot:equity': 'Plays the move of highest equity: its score plus the value of the tiles it keeps (docs/movegen.md).',
};

/** The robots a game may seat, for clients that offer them (the play page's "play the robot"). */
export const ROBOT_OPPONENTS: readonly { readonly handle: RobotHandle; readonly displayName: string; readonly description: string }[] = (
  Object.keys(ROBOT_HANDLES) as RobotHandle[]
).map((handle) => ({
  handle,
  displayName: ROBOT_NAMES[handle],
  description: ROBOT_STYLES[handle],
}));

export const isRobotHandle = (handle: string | null | undefined): handle is RobotHandle =>
  handle !== null && handle !== undefined && Object.hasOwn(ROBOT_HANDLES, handle);

/** The policy of the robot holding this handle; null for a person. */
export const robotPolicyOf = (handle: string | null | undefined): RobotPolicy | null =>
  isRobotHandle(handle) ? ROBOT_HANDLES[handle] : null;

export const hasRobotSeat = (seats: readonly SeatHolder[]): boolean => seats.some((s) => isRobotHandle(s.player?.handle));

/** The robot's player row, created on first use (no password: nobody can sign in as it). */
export const ensureRobotPlayer = async (client: Tx, handle: RobotHandle): Promise<PlayerRow> => {
  const found = await findPlayerByHandle(client, handle);
  if (found) return found;
  // A concurrent first use may win the insert: then read its row.
  const made = await insertPlayer(client, { handle, displayName: ROBOT_NAMES[handle], passwordHash: null });
  return made ?? (await findPlayerByHandle(client, handle))!;
};

/** The move-generation graph of a game's lexicon, or ROBOT_UNAVAILABLE saying why a robot cannot play it. */
export const robotKwg = async (
  deps: ServiceDeps,
  lexicon: { readonly name: string; readonly hash: string },
): Promise<Result<LoadedKwg, RuleError>> => {
  const kwg = await lexiconKwg(deps, lexicon);
  if (kwg.ok) return kwg;
  return fail('ROBOT_UNAVAILABLE', `No robot can play with ${lexicon.name} here: ${kwg.error.message}`, {
    field: 'lexicon',
    lexicon: lexicon.name,
  });
};

/**
 * Calls the `robotTurns` hook after a commit. A failed wake-up never fails the committed turn: the
 * sweep finds the game anyway, so it is only reported.
 */
export const wakeRobots = async (deps: ServiceDeps, gameId: string): Promise<void> => {
  try {
    await deps.robotTurns?.(gameId);
  } catch (e) {
    console.warn(JSON.stringify({ msg: 'robot.wake-failed', gameId, error: String(e) }));
  }
};
