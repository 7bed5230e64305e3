/**
 * The live streams on AWS in the stack (issue 31; docs/deploying.md, "Live streams and notifications on AWS"):
 * functions/stream-entry.ts behind a function URL in RESPONSE_STREAM mode, Lambda's full 15 minutes, the
 * token's key to read and nothing else new, the API told where the streams are; without the bundle, no
 * function URL and a warning.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, test } from 'vitest';
import { FUNCTION_BUNDLES } from '../scripts/build.js';
import { STREAM_POLL_ENV, STREAM_URL_ENV } from '../functions/stream-env.js';
import { ArbiterStack, type ArbiterStackProps } from './stack.js';

const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = { graphql: stub('graphql'), webhooks: stub('webhooks'), migrate: stub('migrate'), deadlines: stub('deadlines') };

const synth = (props: Partial<ArbiterStackProps> = {}, withStream = true) => {
  const stack = new ArbiterStack(new App(), 'Test', { code: { ...CODE, ...(withStream ? { stream: stub('stream') } : {}) }, ...props });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const id = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as CfnElement);
  return { stack, template, resources, id };
};

describe('live streams in the stack', () => {
  const s = synth({ streams: { maxStreams: 40, pollMs: 1500 } });
  const streams = s.stack.streams!;
  const fn = s.resources[s.id(streams.handler)]!.Properties;

  test('a function URL in RESPONSE_STREAM mode, its auth the application’s bearer token, CORS for GET with the resume header and POST (graphql-sse)', () => {
    s.template.resourceCountIs('AWS::Lambda::Url', 1);
    s.template.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [s.id(streams.handler), 'Arn'] },
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      Cors: Match.objectLike({
        AllowMethods: ['GET', 'POST'],
        AllowHeaders: ['authorization', 'accept', 'last-event-id', 'content-type'],
        AllowOrigins: ['*'],
      }),
    });
    // AuthType NONE needs the public invoke permission on the URL alone.
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      FunctionUrlAuthType: 'NONE',
      Principal: '*',
    });
    expect(JSON.stringify(s.template.findOutputs('StreamUrl'))).toContain('FunctionUrl');
  });

  test('runs the stream bundle for Lambda’s 15 minutes, capped by reserved concurrency, with the poll given', () => {
    expect(fn['Code']).toEqual({ ZipFile: "exports.handler = async () => 'stream';" });
    expect(fn['Timeout']).toBe(900);
    expect(fn['MemorySize']).toBe(512);
    expect(fn['ReservedConcurrentExecutions']).toBe(40);
    // The ADOT wrapper is for buffered handlers: the stream function is not traced.
    expect(fn['TracingConfig']).toBeUndefined();
    const env = fn['Environment']['Variables'];
    expect(env).toMatchObject({ ARBITER_MIGRATE_ON_START: '0', [STREAM_POLL_ENV]: '1500' });
    expect(env['ARBITER_JWT_SECRET_ARN']).toEqual({ Ref: s.stack.getLogicalId(s.stack.secrets.jwtSecret.node.defaultChild as CfnElement) });
    expect(s.stack.functions).toContain(streams.handler);
  });

  test('the API names the stream URL (its 501 points there); the migration runs before the stream function changes', () => {
    const api = s.resources[s.id(s.stack.api.handler)]!.Properties['Environment']['Variables'];
    expect(api[STREAM_URL_ENV]).toEqual({ 'Fn::GetAtt': [s.id(streams.url), 'FunctionUrl'] });
    const trigger = Object.entries(s.resources).find(([, r]) => r.Type === 'Custom::Trigger')![0];
    expect((s.template.toJSON().Resources[s.id(streams.handler)] as { DependsOn?: string[] }).DependsOn).toContain(trigger);
  });

  test('the stream function reads the database secret and the JWT key, nothing else', () => {
    const role = s.stack.getLogicalId(streams.handler.role!.node.defaultChild as CfnElement);
    const statements = Object.values(s.resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties['Roles'].some((x: { Ref: string }) => x.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[]);
    const actions = statements.flatMap((st) => [st.Action].flat());
    expect(actions.sort()).toEqual(['secretsmanager:GetSecretValue', 'secretsmanager:GetSecretValue']);
  });

  test('the build bundles the stream entry without lexicons', () => {
    expect(FUNCTION_BUNDLES.find((b) => b.name === 'stream')).toEqual({ name: 'stream', entry: 'functions/stream-entry.ts', assets: [] });
  });

  test('without the bundle: no function URL, the API keeps its plain 501, and a warning says so', () => {
    const n = synth({}, false);
    expect(n.stack.streams).toBeUndefined();
    n.template.resourceCountIs('AWS::Lambda::Url', 0);
    expect(n.resources[n.id(n.stack.api.handler)]!.Properties['Environment']['Variables'][STREAM_URL_ENV]).toBeUndefined();
    const warnings = Annotations.fromStack(n.stack).findWarning('*', Match.stringLikeRegexp('No stream bundle'));
    expect(warnings).toHaveLength(1);
  });
});
