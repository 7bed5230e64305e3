import type { ServiceDeps } from './context.js';
import { sweepLobby } from './lobby-sweep.js';
import { playRobotTurns, robotGamesToMove } from './robot-turns.js';

/**
 * The in-process robot worker (npm start, the tests): a wake-up after a commit queues the game, and
 * the queue is worked one game at a time after the request that woke it has returned; a periodic
 * sweep queues every game where a robot is to move, so nothing waits on a lost wake-up. On AWS the
 * same two entries are an SQS message and a schedule (functions/robots.ts).
 */
export interface RobotWorker {
  /** Queues the game (the `robotTurns` hook of ServiceDeps). */
  readonly wake: (gameId: string) => void;
  /** Queues every game where a robot is to move; answers how many. */
  readonly sweep: () => Promise<number>;
  /** Resolves once the queue is empty and nothing is running. */
  readonly idle: () => Promise<void>;
  /** Stops the periodic sweep; queued games are still played. */
  readonly stop: () => void;
}

export interface RobotWorkerOptions {
  /** Milliseconds between sweeps; 0 or absent = no periodic sweep. */
  readonly sweepMs?: number;
  readonly log?: (line: string) => void;
}

export const createRobotWorker = (deps: Omit<ServiceDeps, 'robotTurns'>, options: RobotWorkerOptions = {}): RobotWorker => {
  const queue: string[] = [];
  let running: Promise<void> | null = null;
  const log = options.log ?? ((line: string) => console.warn(line));
  // The robot's own turns wake nobody: playRobotTurns goes on by itself while the robot is to move.
  const own: ServiceDeps = deps;

  const work = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        const r = await playRobotTurns(own, id);
        if (!r.ok) log(JSON.stringify({ msg: 'robot.turn-failed', gameId: id, code: r.error.code, message: r.error.message }));
      } catch (e) {
        log(JSON.stringify({ msg: 'robot.turn-crashed', gameId: id, error: String(e) }));
      }
    }
  };
  const wake = (gameId: string): void => {
    if (!queue.includes(gameId)) queue.push(gameId);
    // setImmediate: the waking request finishes first; the robot never moves inside it.
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(work).finally(() => {
      running = null;
      if (queue.length > 0) wake(queue[0]!);
    });
  };
  const sweep = async (): Promise<number> => {
    // The lobby's seeks and pairing requests ride on this sweep (docs/lobby.md) rather than a timer of their own.
    await sweepLobby(own).catch((e: unknown) => log(JSON.stringify({ msg: 'lobby.sweep-failed', error: String(e) })));
    const ids = await robotGamesToMove(own);
    for (const id of ids) wake(id);
    return ids.length;
  };
  const timer =
    options.sweepMs && options.sweepMs > 0
      ? setInterval(() => {
          sweep().catch((e: unknown) => log(JSON.stringify({ msg: 'robot.sweep-failed', error: String(e) })));
        }, options.sweepMs)
      : null;
  timer?.unref();
  const idle = async (): Promise<void> => {
    while (running) await running;
  };
  return { wake, sweep, idle, stop: () => timer && clearInterval(timer) };
};
