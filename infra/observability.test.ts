/**
 * Issue 18: the stack's alarms (each to the encrypted SNS topic, with a runbook line in
 * docs/operating.md), its dashboard, the e-mail subscription from context, tracing on every
 * long-running function, and the probe routes of the HTTP API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, test } from 'vitest';
import { ArbiterStack, type ArbiterStackProps } from './stack.js';

const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = { graphql: stub('graphql'), webhooks: stub('webhooks'), migrate: stub('migrate'), deadlines: stub('deadlines') };

type Resource = { Type: string; Properties: Record<string, any> };
const synth = (props: Partial<ArbiterStackProps> = {}) => {
  const stack = new ArbiterStack(new App(), 'Obs', { code: CODE, ...props });
  const template = Template.fromStack(stack);
  const resources = Object.values(template.toJSON().Resources as Record<string, Resource>);
  return { stack, template, resources };
};

/** Every alarm of the stack, by the construct id it was given (the runbook in docs/operating.md uses the same names). */
const ALARMS = [
  'WebhookSenderFailed',
  'DeadlineSweeperFailed',
  'Api5xx',
  'ApiErrorRate',
  'ApiLatencyP99',
  'ApiFunctionErrors',
  'ApiFunctionThrottles',
  'WebhookSenderFunctionErrors',
  'WebhookSenderFunctionThrottles',
  'WebhookBacklog',
  'DatabaseAtMaxCapacity',
  'DatabaseConnections',
  'DeadlineSweeperFunctionErrors',
  'DeadlineSweeperFunctionThrottles',
  'SweeperNotInvoked',
  'SweeperNotSweeping',
];

describe('observability in the stack', () => {
  const s = synth({ alarms: { email: 'ops@example.com' }, database: { maxCapacity: 8 } });
  const alarms = s.resources.filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  const byId = new Map(s.stack.alarms.all.map((a) => [a.node.id, a]));

  test('has exactly the listed alarms, each telling the topic when it fires and when it clears', () => {
    expect(s.stack.alarms.all.map((a) => a.node.id)).toEqual(ALARMS);
    expect(alarms).toHaveLength(ALARMS.length);
    const topic = s.stack.getLogicalId(s.stack.alarms.topic.node.defaultChild as never);
    for (const a of alarms) {
      expect(a.Properties['AlarmActions']).toEqual([{ Ref: topic }]);
      expect(a.Properties['OKActions']).toEqual([{ Ref: topic }]);
      expect(a.Properties['AlarmDescription']).toMatch(/^Arbiter: /);
    }
  });

  test('watches what the issue names, with the thresholds it documents', () => {
    const props = (id: string) => {
      const logical = s.stack.getLogicalId(byId.get(id)!.node.defaultChild as never);
      return (s.template.toJSON().Resources as Record<string, Resource>)[logical]!.Properties;
    };
    expect(props('Api5xx')).toMatchObject({ MetricName: '5xx', Namespace: 'AWS/ApiGateway', Threshold: 5 });
    expect(props('ApiLatencyP99')).toMatchObject({
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: 3000,
      EvaluationPeriods: 3,
    });
    expect(JSON.stringify(props('ApiErrorRate')['Metrics'])).toContain('100 * errors / requests');
    expect(props('ApiFunctionThrottles')).toMatchObject({ MetricName: 'Throttles', Namespace: 'AWS/Lambda', Threshold: 1 });
    expect(props('WebhookSenderFailed')).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
    expect(props('WebhookBacklog')).toMatchObject({
      Namespace: 'Arbiter',
      MetricName: 'webhook_oldest_pending_age_seconds',
      Threshold: 900,
      TreatMissingData: 'breaching',
    });
    expect(props('DatabaseAtMaxCapacity')).toMatchObject({ MetricName: 'ServerlessDatabaseCapacity', Threshold: 8 });
    expect(props('DatabaseConnections')).toMatchObject({ MetricName: 'DatabaseConnections', Threshold: 400 });
    expect(props('SweeperNotInvoked')).toMatchObject({
      MetricName: 'Invocations',
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    expect(props('SweeperNotSweeping')).toMatchObject({
      Namespace: 'Arbiter',
      MetricName: 'deadline_sweeps_total',
      TreatMissingData: 'breaching',
    });
  });

  test('sends alarms to an encrypted, TLS-only topic with the e-mail of the context value', () => {
    s.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(s.resources.filter((r) => r.Type === 'AWS::SNS::TopicPolicy')).toHaveLength(1);
  });

  test('draws one dashboard over the API, turns, webhooks, sweeper, functions, database and queues', () => {
    const dashboards = s.resources.filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties['DashboardBody']);
    for (const title of [
      'Alarms',
      'API latency',
      'Turns by outcome',
      'Turn latency',
      'Disputes filed',
      'Webhook deliveries',
      'Oldest due webhook',
      'Deadline sweeps',
      'Function errors',
      'cold starts',
      'Dead-letter queues',
      'Database capacity',
    ]) {
      expect(body).toContain(title);
    }
  });

  test('traces the API, the sender and the sweeper through X-Ray and the ADOT layer; not the migration', () => {
    const traced = [s.stack.api.handler, s.stack.webhookSender.handler, s.stack.deadlineSweeper!.handler];
    for (const fn of s.stack.functions) {
      const r = (s.template.toJSON().Resources as Record<string, Resource>)[s.stack.getLogicalId(fn.node.defaultChild as never)]!
        .Properties;
      if (traced.includes(fn)) {
        expect(r['TracingConfig']).toEqual({ Mode: 'Active' });
        expect(r['Environment']['Variables']).toMatchObject({ ARBITER_TRACING: 'on', AWS_LAMBDA_EXEC_WRAPPER: '/opt/otel-handler' });
        expect(JSON.stringify(r['Layers'])).toContain('aws-otel-nodejs');
      } else expect(r['TracingConfig']).toBeUndefined();
    }
    const untraced = synth({ tracing: false });
    untraced.template.resourcePropertiesCountIs('AWS::Lambda::Function', { TracingConfig: { Mode: 'Active' } }, 0);
  });

  test('routes GET /health and GET /ready to the API function by name', () => {
    const routes = s.resources.filter((r) => r.Type === 'AWS::ApiGatewayV2::Route').map((r) => r.Properties['RouteKey']);
    expect(routes).toEqual(expect.arrayContaining(['GET /health', 'GET /ready']));
  });

  test('every alarm has its runbook line in docs/operating.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'operating.md'), 'utf8');
    for (const id of ALARMS) expect(doc, id).toContain(`| \`${id}\``);
  });
});
