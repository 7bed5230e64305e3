import { logger } from './log.js';
import { metrics } from './metrics.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from './paths.js';
import { runInScope, type RequestScope } from './scope.js';
import { withSpan } from './tracing.js';

/**
 * One request, observed: run inside its scope and a `request` span, then one log line with what the
 * scope gathered, and the request metrics. Both runtimes wrap their handler in this (the Lambda
 * handler, the local server); the fields are chosen here, and none of them is a credential or a
 * game's hidden information: ids, names, codes and counts only.
 */
export interface RequestLine {
  readonly msg: 'request';
  readonly requestId: string;
  readonly method: string;
  /** The path without its query string. */
  readonly path: string;
  /** The GraphQL operation name, or the REST route template (`POST /v1/games/{id}/turns`). */
  readonly operation: string | null;
  readonly caller: RequestScope['caller'] | null;
  readonly gameId: string | null;
  /** OK, a typed error's code, or HTTP_<status> for what never reached GraphQL. */
  readonly outcome: string;
  readonly status: number;
  readonly ms: number;
  /** SQL statements this request sent. */
  readonly sql: number;
  readonly coldStart?: true;
  /** The process that served it, when `npm start` runs several (functions/cluster.ts). */
  readonly pid?: number;
}

/** Paths whose lines are debug-level (probes and scrapes would drown the log). */
const QUIET_PATHS = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);

let started = false;

/** The first request of this process (a Lambda container's cold start), counted once. */
const coldStart = (fn: string): boolean => {
  if (started) return false;
  started = true;
  metrics().inc('cold_starts_total', { function: fn });
  return true;
};

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export interface RequestInfo {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The function (Lambda) or `server`, for the cold-start count. */
  readonly runtime: string;
  /** Set by a clustered server: which worker answered. */
  readonly pid?: number;
}

export const observeRequest = async <T>(info: RequestInfo, run: () => Promise<T>, statusOf: (result: T) => number): Promise<T> =>
  runInScope(info.requestId, async (scope) => {
    const cold = coldStart(info.runtime);
    let status = 500;
    try {
      const result = await withSpan('request', { 'http.request.method': info.method, 'url.path': info.path }, run);
      status = statusOf(result);
      return result;
    } finally {
      const ms = Math.round((performance.now() - scope.started) * 10) / 10;
      const line: RequestLine = {
        msg: 'request',
        requestId: info.requestId,
        method: info.method,
        path: info.path,
        operation: scope.operation ?? null,
        caller: scope.caller ?? null,
        gameId: scope.gameId ?? null,
        outcome: scope.outcome ?? (status < 400 ? 'OK' : `HTTP_${status}`),
        status,
        ms,
        sql: scope.sql,
        ...(cold ? { coldStart: true as const } : {}),
        ...(info.pid === undefined ? {} : { pid: info.pid }),
      };
      const log = logger();
      if (status >= 500) log.error(line);
      else if (QUIET_PATHS.has(info.path)) log.debug(line);
      else log.info(line);
      metrics().inc('requests_total', { status: statusClass(status) });
      // Its own counter, not a label of requests_total: the dashboard and alarms read that one by status alone.
      if (scope.caller) metrics().inc('requests_by_caller_total', { caller: scope.caller });
      metrics().observe('request_duration_ms', ms);
    }
  });
