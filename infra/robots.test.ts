/**
 * The robot seats' pieces in the stack (issue 19): the queue with its dead-letter queue, the function
 * fed by it with partial batch failures, its sweep schedule, the API allowed to send and told where.
 */
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, test } from 'vitest';
import { ROBOT_MAX_RECEIVES } from './constructs/robots.js';
import { ArbiterStack } from './stack.js';

const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = { graphql: stub('graphql'), webhooks: stub('webhooks'), migrate: stub('migrate'), deadlines: stub('deadlines') };

const synth = (robots: boolean) => {
  const stack = new ArbiterStack(new App(), 'Test', { code: { ...CODE, ...(robots ? { robots: stub('robots') } : {}) } });
  const template = Template.fromStack(stack);
  const id = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as CfnElement);
  return { stack, template, id };
};

describe('robot seats in the stack', () => {
  const s = synth(true);
  const robots = s.stack.robots!;

  test('the queue sends a message that failed three times to its dead-letter queue, which an alarm watches', () => {
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [s.id(robots.deadLetterQueue), 'Arn'] }, maxReceiveCount: ROBOT_MAX_RECEIVES },
      SqsManagedSseEnabled: true,
    });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [s.id(robots.deadLetterQueue), 'QueueName'] } }],
      Threshold: 1,
    });
  });

  test('the robots bundle reads the queue with partial batch failures, and a schedule sweeps through it too', () => {
    const fn = s.template.toJSON().Resources[s.id(robots.handler)].Properties;
    expect(fn.Code).toEqual({ ZipFile: "exports.handler = async () => 'robots';" });
    expect(fn.Environment.Variables).toMatchObject({ ARBITER_LEXICON_DIR: '/var/task/lexicons', ARBITER_MIGRATE_ON_START: '0' });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.id(robots.handler) },
      EventSourceArn: { 'Fn::GetAtt': [s.id(robots.queue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [s.id(robots.handler), 'Arn'] } })],
    });
    expect(s.stack.functions).toContain(robots.handler);
  });

  test('the API may send to the queue and knows its URL', () => {
    const api = s.template.toJSON().Resources[s.id(s.stack.api.handler)].Properties;
    expect(api.Environment.Variables['ARBITER_ROBOT_QUEUE_URL']).toEqual({ Ref: s.id(robots.queue) });
    s.template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: Match.arrayWith(['sqs:SendMessage']), Resource: { 'Fn::GetAtt': [s.id(robots.queue), 'Arn'] } }),
        ]),
      },
    });
  });

  test('without the bundle there are no robot pieces, and a warning says so', () => {
    const bare = synth(false);
    expect(bare.stack.robots).toBeUndefined();
    bare.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
    Annotations.fromStack(bare.stack).hasWarning('/Test', Match.stringLikeRegexp('never get its moves'));
  });
});
