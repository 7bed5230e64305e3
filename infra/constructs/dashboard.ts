import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as rds from 'aws-cdk-lib/aws-rds';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE } from '../../functions/observability/metric-names.js';
import { appMetric } from './alarms.js';

export interface DashboardProps {
  readonly api: apigw.HttpApi;
  readonly functions: readonly { readonly name: string; readonly fn: lambda.IFunction }[];
  readonly cluster: rds.DatabaseCluster;
  readonly maxCapacity: number;
  readonly deadLetterQueues: readonly { readonly name: string; readonly queue: sqs.IQueue }[];
  readonly alarms: readonly cloudwatch.IAlarm[];
}

const PERIOD = Duration.minutes(5);

/** One metric per value of a label, found by a SEARCH (the label's values are the app's codes, not known here). */
const byLabel = (metric: string, label: string, stat: string) =>
  new cloudwatch.MathExpression({
    expression: `SEARCH('{${METRIC_NAMESPACE},${label}} MetricName="${metric}"', '${stat}', 300)`,
    usingMetrics: {},
    label: metric,
    period: PERIOD,
  });

/**
 * The operator's one page (docs/operating.md#dashboard): the alarms' states; the API's traffic, errors
 * and latency; turns by outcome and their latency; disputes; webhooks and their backlog; the sweeper;
 * the functions; the database; the dead-letter queues.
 */
export class Dashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = []) =>
      new cloudwatch.GraphWidget({ title, left, right, width: 8, height: 6 });
    const fns = props.functions;
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(6),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 })],
        [
          graph(
            'API requests and 5xx',
            [props.api.metricCount({ period: PERIOD }), props.api.metricClientError({ period: PERIOD })],
            [props.api.metricServerError({ period: PERIOD })],
          ),
          graph('API latency (p50, p99)', [
            props.api.metricLatency({ period: PERIOD, statistic: 'p50' }),
            props.api.metricLatency({ period: PERIOD, statistic: 'p99' }),
          ]),
          graph('Requests by status class (app)', [byLabel('requests_total', 'status', 'Sum')]),
        ],
        [
          graph('Turns by outcome', [byLabel('turns_submitted_total', 'outcome', 'Sum')]),
          graph('Turn latency (p50, p99)', [appMetric('turn_latency_ms', 'p50'), appMetric('turn_latency_ms', 'p99')]),
          graph('Disputes filed and ruled; rate-limit refusals', [
            byLabel('disputes_filed_total', 'outcome', 'Sum'),
            byLabel('disputes_ruled_total', 'outcome', 'Sum'),
            byLabel('rate_limit_refusals_total', 'field', 'Sum'),
          ]),
        ],
        [
          graph('Webhook deliveries by status', [byLabel('webhook_deliveries_total', 'status', 'Sum')]),
          graph('Oldest due webhook delivery (s)', [appMetric('webhook_oldest_pending_age_seconds', 'Maximum')]),
          graph(
            'Deadline sweeps and games settled',
            [appMetric('deadline_sweeps_total', 'Sum')],
            [byLabel('deadline_games_settled_total', 'result', 'Sum')],
          ),
        ],
        [
          graph(
            'Function errors and throttles',
            fns.map(({ name, fn }) => fn.metricErrors({ period: PERIOD, label: `${name} errors` })),
            fns.map(({ name, fn }) => fn.metricThrottles({ period: PERIOD, label: `${name} throttles` })),
          ),
          graph(
            'Function duration (p99) and cold starts',
            fns.map(({ name, fn }) => fn.metricDuration({ period: PERIOD, statistic: 'p99', label: `${name} p99` })),
            [byLabel('cold_starts_total', 'function', 'Sum')],
          ),
          graph(
            'Dead-letter queues',
            props.deadLetterQueues.map(({ name, queue }) =>
              queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: name }),
            ),
          ),
        ],
        [
          new cloudwatch.GraphWidget({
            title: `Database capacity (ACU, max ${props.maxCapacity}) and connections`,
            left: [props.cluster.metric('ServerlessDatabaseCapacity', { period: PERIOD, statistic: 'Maximum' })],
            right: [props.cluster.metricDatabaseConnections({ period: PERIOD, statistic: 'Maximum' })],
            leftAnnotations: [{ value: props.maxCapacity, label: 'max ACU' }],
            width: 12,
            height: 6,
          }),
          new cloudwatch.GraphWidget({
            title: 'Database CPU and ACU utilisation (%)',
            left: [
              props.cluster.metricCPUUtilization({ period: PERIOD }),
              props.cluster.metric('ACUUtilization', { period: PERIOD, statistic: 'Maximum' }),
            ],
            width: 12,
            height: 6,
          }),
        ],
      ],
    });
  }
}
