import type { Db } from '../store/db.js';
import { sweepDeadlines, type SweepOptions, type SweepResult } from '../service/lifecycle.js';
import { containerDb } from './container-db.js';
import { metrics } from './observability/metrics.js';
import { observeRun, workerLog } from './observability/worker.js';

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

/** One line per run with the counts, one per game that could not be settled; the sweep metrics (their absence is an alarm). */
export const createDeadlineHandler = (deps: DeadlineHandlerDeps) => (): Promise<SweepResult> =>
  observeRun('deadlines', async () => {
    const now = deps.now ?? (() => new Date());
    const log = workerLog(deps.log);
    const started = Date.now();
    const db = await deps.getDb();
    const result = await sweepDeadlines({ db, now }, deps.options ?? {});
    const { failed, ...counts } = result;
    const line: DeadlineRunLog = { msg: 'deadlines.sweep', ...counts, failed: failed.length, failures: failed, ms: Date.now() - started };
    log('info', { ...line });
    for (const f of failed) log('warn', { msg: 'deadlines.failure', ...f });
    metrics().inc('deadline_sweeps_total');
    metrics().inc('deadline_games_settled_total', { result: 'settled' }, counts.timedOut + counts.autoPassed);
    metrics().inc('deadline_games_settled_total', { result: 'failed' }, failed.length);
    return result;
  });

/** The Lambda entry point (scheduled event; the event itself carries nothing we need). No lexicons: a timeout or an auto-pass judges no word. */
export const handler = createDeadlineHandler({ getDb: () => containerDb() });
