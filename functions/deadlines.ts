import type { Db } from '../store/db.js';
import { sweepDeadlines, type SweepOptions, type SweepResult } from '../service/lifecycle.js';
import { containerDb } from './container-db.js';

/**
 * The deadline sweeper Lambda, invoked on a schedule (EventBridge, every minute): ends every overdue
 * correspondence game (`sweepDeadlines`, service/lifecycle.ts) and logs the counts as one JSON line.
 * Overlapping or late invocations are safe: each game is settled at the version read, so a move or
 * another sweeper that committed first wins and this run skips the game.
 */

export interface DeadlineHandlerDeps {
  /** The database, opened once per container. */
  readonly getDb: () => Promise<Db>;
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
  readonly options?: Omit<SweepOptions, 'now'>;
}

export interface DeadlineRunLog extends Omit<SweepResult, 'failed'> {
  readonly msg: 'deadlines.sweep';
  /** How many games were refused for another reason, with their ids and codes. */
  readonly failed: number;
  readonly failures: SweepResult['failed'];
  readonly ms: number;
}

export const createDeadlineHandler = (deps: DeadlineHandlerDeps) => async (): Promise<SweepResult> => {
  const now = deps.now ?? (() => new Date());
  const started = Date.now();
  const db = await deps.getDb();
  const result = await sweepDeadlines({ db, now }, deps.options ?? {});
  const { failed, ...counts } = result;
  const line: DeadlineRunLog = { msg: 'deadlines.sweep', ...counts, failed: failed.length, failures: failed, ms: Date.now() - started };
  (deps.log ?? console.log)(JSON.stringify(line));
  return result;
};

/** The Lambda entry point (scheduled event; the event itself carries nothing we need). No lexicons: a timeout or an auto-pass judges no word. */
export const handler = createDeadlineHandler({ getDb: () => containerDb() });
