/**
 * Every metric Arbiter emits, as data: the CloudWatch (EMF) and Prometheus outputs of metrics.ts are
 * both written from this table, and the alarms of infra/constructs/alarms.ts name these metrics. Label
 * values are closed sets (outcome codes, statuses), never ids.
 */
export const METRIC_NAMESPACE = 'Arbiter';

export type MetricType = 'counter' | 'histogram' | 'gauge';
export type MetricUnit = 'Count' | 'Milliseconds' | 'Seconds';

export interface MetricDefinition {
  readonly type: MetricType;
  readonly unit: MetricUnit;
  readonly labels: readonly string[];
  readonly help: string;
}

export const METRICS = {
  requests_total: { type: 'counter', unit: 'Count', labels: ['status'], help: 'Requests answered, by HTTP status class (2xx, 4xx, 5xx).' },
  requests_by_caller_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['caller'],
    help: 'Requests that reached the API (GraphQL or /v1), by caller kind: player, api-key, app (an OAuth token), anonymous.',
  },
  request_duration_ms: { type: 'histogram', unit: 'Milliseconds', labels: [], help: 'Time to answer a request.' },
  turns_submitted_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['outcome'],
    help: 'Turns submitted, by outcome: OK or the refusal code (ILLEGAL_MOVE, STALE_VERSION, …).',
  },
  turn_latency_ms: { type: 'histogram', unit: 'Milliseconds', labels: [], help: 'Time the turn mutation took, from resolve to result.' },
  disputes_filed_total: { type: 'counter', unit: 'Count', labels: ['outcome'], help: 'Disputes filed on a game, by outcome code.' },
  disputes_ruled_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['outcome'],
    help: 'Disputes ruled (adjudicate, or a ruling on a game), by outcome code.',
  },
  rate_limit_refusals_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['field'],
    help: 'Calls refused with RATE_LIMITED (a per-client limit or the login back-off), by root field.',
  },
  webhook_deliveries_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['status'],
    help: 'Webhook delivery attempts, by result: succeeded, retrying, dead.',
  },
  webhook_oldest_pending_age_seconds: {
    type: 'gauge',
    unit: 'Seconds',
    labels: [],
    help: 'Age of the oldest webhook delivery still waiting to be sent (0 when none), after each drain.',
  },
  deadline_sweeps_total: { type: 'counter', unit: 'Count', labels: [], help: 'Runs of the deadline sweeper.' },
  deadline_games_settled_total: {
    type: 'counter',
    unit: 'Count',
    labels: ['result'],
    help: 'Games the sweeper settled or failed to settle.',
  },
  cold_starts_total: { type: 'counter', unit: 'Count', labels: ['function'], help: 'Containers (Lambda) or processes started.' },
} as const satisfies Record<string, MetricDefinition>;

export type MetricName = keyof typeof METRICS;
