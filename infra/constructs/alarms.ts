import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as rds from 'aws-cdk-lib/aws-rds';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, type MetricName } from '../../functions/observability/metric-names.js';

export interface AlarmsProps {
  /** Who is told (an e-mail subscription; confirm the first message). Without it, alarms show in the console only. */
  readonly email?: string;
  /** Thresholds; the defaults suit a small deployment (docs/operating.md says what each means). */
  readonly thresholds?: Partial<AlarmThresholds>;
}

export interface AlarmThresholds {
  /** 5xx answers in 5 minutes. */
  readonly serverErrors: number;
  /** 5xx share of all answers, percent, over 5 minutes (with at least 20 requests). */
  readonly errorRatePercent: number;
  /** p99 latency of the API, ms, three 5-minute periods in a row. */
  readonly p99LatencyMs: number;
  /** Age of the oldest due webhook delivery, seconds. */
  readonly webhookBacklogSeconds: number;
  /** Database connections (of the writer). */
  readonly databaseConnections: number;
}

export const DEFAULT_THRESHOLDS: AlarmThresholds = {
  serverErrors: 5,
  errorRatePercent: 5,
  p99LatencyMs: 3000,
  webhookBacklogSeconds: 900,
  databaseConnections: 400,
};

/** One of Arbiter's own metrics (functions/observability/metric-names.ts), as the EMF lines publish it. */
export const appMetric = (name: MetricName, statistic: string, dimensions: Record<string, string> = {}, period = Duration.minutes(5)) =>
  new cloudwatch.Metric({ namespace: METRIC_NAMESPACE, metricName: name, statistic, dimensionsMap: dimensions, period });

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Where the stack's alarms go: an SNS topic, encrypted with its own key (CloudWatch cannot publish to a
 * topic under the AWS-managed SNS key), TLS only. One alarm per dead-letter queue: any message in it
 * means a scheduled run failed or could not be delivered.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  readonly thresholds: AlarmThresholds;
  /** Every alarm made here, in order (the dashboard shows their states). */
  readonly all: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps = {}) {
    super(scope, id);
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...props.thresholds };
    this.key = new kms.Key(this, 'Key', { description: 'Arbiter: encrypts the alarm topic', enableKeyRotation: true });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'], // in a key policy, "*" is this key
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Arbiter alarms', masterKey: this.key, enforceSSL: true });
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
  }

  /** An alarm to the topic (and OK when it clears). `description` is the runbook's first line (docs/operating.md#alarms). */
  private alarm(id: string, description: string, props: Omit<cloudwatch.AlarmProps, 'alarmDescription'>): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, { alarmDescription: `Arbiter: ${description}`, ...props });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    alarm.addOkAction(new actions.SnsAction(this.topic));
    this.all.push(alarm);
    return alarm;
  }

  /** Alarms as soon as `queue` holds a message. */
  onDeadLetters(id: string, queue: sqs.IQueue, what: string): cloudwatch.Alarm {
    return this.alarm(id, `${what} failed: a message is waiting in its dead-letter queue`, {
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** The HTTP API: 5xx answers, their share, and the p99 latency. */
  onApi(api: apigw.HttpApi): cloudwatch.Alarm[] {
    const t = this.thresholds;
    const errors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const count = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    return [
      this.alarm('Api5xx', `the API answered ${t.serverErrors} or more 5xx in 5 minutes`, {
        metric: errors,
        threshold: t.serverErrors,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      this.alarm('ApiErrorRate', `more than ${t.errorRatePercent} % of the API's answers were 5xx over 5 minutes`, {
        // Below 20 requests a single failure is not a rate.
        metric: new cloudwatch.MathExpression({
          expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
          usingMetrics: { errors, requests: count },
          period: FIVE_MINUTES,
          label: '5xx %',
        }),
        threshold: t.errorRatePercent,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      this.alarm('ApiLatencyP99', `the API's p99 latency stayed above ${t.p99LatencyMs} ms for 15 minutes`, {
        metric: api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
        threshold: t.p99LatencyMs,
        evaluationPeriods: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
  }

  /** A function's errors (an invocation that threw or timed out) and throttles. */
  onFunction(id: string, fn: lambda.IFunction, what: string): cloudwatch.Alarm[] {
    return [
      this.alarm(`${id}Errors`, `${what} failed (a Lambda error: thrown, timed out or out of memory)`, {
        metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      this.alarm(`${id}Throttles`, `${what} was throttled (no concurrency left)`, {
        metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
  }

  /** The webhook backlog: the oldest due delivery (the sender publishes it every run; silence means the sender stopped). */
  onWebhookBacklog(): cloudwatch.Alarm {
    const t = this.thresholds;
    return this.alarm(
      'WebhookBacklog',
      `a webhook delivery has waited more than ${t.webhookBacklogSeconds} s (or the sender stopped reporting)`,
      {
        metric: appMetric('webhook_oldest_pending_age_seconds', 'Maximum'),
        threshold: t.webhookBacklogSeconds,
        evaluationPeriods: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      },
    );
  }

  /** Aurora Serverless v2 at its ceiling (every period of 15 minutes), and its connections. */
  onDatabase(cluster: rds.DatabaseCluster, maxCapacity: number): cloudwatch.Alarm[] {
    const t = this.thresholds;
    return [
      this.alarm('DatabaseAtMaxCapacity', `the database ran at its maximum of ${maxCapacity} ACU for 15 minutes`, {
        metric: cluster.metric('ServerlessDatabaseCapacity', { period: FIVE_MINUTES, statistic: 'Minimum' }),
        threshold: maxCapacity,
        evaluationPeriods: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      this.alarm('DatabaseConnections', `the database held more than ${t.databaseConnections} connections`, {
        metric: cluster.metricDatabaseConnections({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        threshold: t.databaseConnections,
        evaluationPeriods: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
  }

  /** The deadline sweeper not running: no invocation, or no sweep reported, for 15 minutes (it runs every minute). */
  onSweeperStopped(fn: lambda.IFunction): cloudwatch.Alarm[] {
    const silent = { threshold: 1, evaluationPeriods: 3, comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD };
    return [
      this.alarm('SweeperNotInvoked', 'the deadline sweeper has not been invoked for 15 minutes', {
        metric: fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
        ...silent,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
      this.alarm('SweeperNotSweeping', 'the deadline sweeper has reported no sweep for 15 minutes', {
        metric: appMetric('deadline_sweeps_total', 'Sum'),
        ...silent,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
    ];
  }
}
