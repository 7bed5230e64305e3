import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTION_BUNDLES } from '../scripts/build.js';
import { lambdaNodeFlags } from '../scripts/compile-cache.js';
import { bundleCode } from './constructs/function.js';
import { ArbiterStack, type ArbiterStackProps } from './stack.js';

/** Inline stubs instead of the dist/ bundles: no esbuild, no assets, fast. */
const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = { graphql: stub('graphql'), webhooks: stub('webhooks'), migrate: stub('migrate'), deadlines: stub('deadlines') };

type Resource = { Type: string; Properties?: Record<string, any>; DependsOn?: string[] };

const synth = (props: Partial<ArbiterStackProps> = {}) => {
  const stack = new ArbiterStack(new App(), 'Test', { code: CODE, ...props });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const id = (c: { node: { defaultChild?: unknown } } | CfnElement) =>
    stack.getLogicalId(('node' in c && c.node.defaultChild ? c.node.defaultChild : c) as CfnElement);
  return { stack, template, resources, id };
};

const ofType = (resources: Record<string, Resource>, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

describe('ArbiterStack', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth();
  });

  test('has one function per concern: API, sender, sweeper, migration', () => {
    expect(s.stack.functions).toHaveLength(4);
    const counts = Object.fromEntries(
      [
        'AWS::RDS::DBCluster',
        'AWS::RDS::DBInstance',
        'AWS::RDS::DBProxy',
        'AWS::ApiGatewayV2::Api',
        'AWS::Events::Rule',
        'AWS::SecretsManager::Secret',
        'Custom::Trigger',
        'AWS::EC2::NatGateway',
      ].map((t) => [t, ofType(s.resources, t).length]),
    );
    expect(counts).toEqual({
      'AWS::RDS::DBCluster': 1,
      'AWS::RDS::DBInstance': 1,
      'AWS::RDS::DBProxy': 1,
      'AWS::ApiGatewayV2::Api': 1,
      'AWS::Events::Rule': 2,
      // The database's, the JWT key, and the notifications' two (infra/notifications.test.ts).
      'AWS::SecretsManager::Secret': 4,
      'Custom::Trigger': 1,
      'AWS::EC2::NatGateway': 1,
    });
  });

  test('every function is nodejs22.x on arm64, in the VPC, with a log group kept 30 days', () => {
    for (const fn of s.stack.functions) {
      const r = s.resources[s.id(fn)]!;
      expect(r.Properties!['Runtime']).toBe('nodejs22.x');
      expect(r.Properties!['Architectures']).toEqual(['arm64']);
      expect(r.Properties!['Handler']).toBe('lambda.handler');
      // Lambda applies runtime updates itself unless the runtime version is pinned (next test).
      expect(r.Properties!['RuntimeManagementConfig']).toBeUndefined();
      expect(r.Properties!['VpcConfig']['SecurityGroupIds']).toHaveLength(1);
      const logGroupId = r.Properties!['LoggingConfig']['LogGroup']['Ref'] as string;
      expect(s.resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    }
  });

  test('context runtimeVersionArn pins every function to that runtime version (for a compile cache built for its Node)', () => {
    const arn = 'arn:aws:lambda:eu-west-1::runtime:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
    const stack = new ArbiterStack(new App({ context: { runtimeVersionArn: arn } }), 'Pinned', { code: CODE });
    const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
    expect(stack.functions).toHaveLength(s.stack.functions.length);
    for (const fn of stack.functions)
      expect(resources[stack.getLogicalId(fn.node.defaultChild as CfnElement)]!.Properties!['RuntimeManagementConfig']).toEqual({
        UpdateRuntimeOn: 'Manual',
        RuntimeVersionArn: arn,
      });
  });

  test('a bundle folder ships whole but its source maps: the warm code cache and index.cjs when built, index.mjs alone otherwise', () => {
    const root = mkdtempSync(join(tmpdir(), 'arbiter-infra-code-'));
    try {
      const dist = join(root, 'graphql');
      mkdirSync(join(dist, 'compile-cache', 'v22.23.3-arm64-91f95280'), { recursive: true });
      expect(bundleCode(dist)).toBeUndefined(); // not built
      for (const f of ['lambda.mjs', 'index.mjs', 'index.mjs.map', 'index.cjs', 'compile-cache/v22.23.3-arm64-91f95280/index.cjs.cache'])
        writeFileSync(join(dist, f), f);
      const staged = (code: lambda.Code) => {
        const app = new App({ outdir: join(root, `out-${Math.random().toString(36).slice(2)}`) });
        new ArbiterStack(app, 'Staged', { code: { ...CODE, graphql: code } });
        // The folders staged for upload; ours is the one with lambda.mjs (the others are CDK's own handlers).
        const out = app.synth().directory;
        const dirs = readdirSync(out).filter((d) => d.startsWith('asset.') && existsSync(join(out, d, 'lambda.mjs')));
        expect(dirs).toHaveLength(1);
        return readdirSync(join(out, dirs[0]!), { recursive: true }).map(String).sort();
      };
      expect(staged(bundleCode(dist)!)).toEqual([
        'compile-cache',
        'compile-cache/v22.23.3-arm64-91f95280',
        'compile-cache/v22.23.3-arm64-91f95280/index.cjs.cache',
        'index.cjs',
        'index.mjs',
        'lambda.mjs',
      ]);
      rmSync(join(dist, 'compile-cache'), { recursive: true });
      rmSync(join(dist, 'index.cjs'));
      expect(staged(bundleCode(dist)!)).toEqual(['index.mjs', 'lambda.mjs']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("the API's memory size is the one its warm code cache is built for (scripts/build.ts: Lambda derives V8's heap flags from it)", () => {
    const graphql = FUNCTION_BUNDLES.find((b) => b.name === 'graphql')!;
    expect(s.resources[s.id(s.stack.api.handler)]!.Properties!['MemorySize']).toBe(graphql.memoryMb);
    expect(lambdaNodeFlags(graphql.memoryMb!)).toEqual(['--expose-gc', '--max-semi-space-size=51', '--max-old-space-size=922']);
  });

  test('the only other functions are the CDK trigger provider', () => {
    const ours = new Set(s.stack.functions.map((f) => s.id(f)));
    const others = ofType(s.resources, 'AWS::Lambda::Function')
      .filter(([id]) => !ours.has(id))
      .map(([id]) => id);
    expect(others).toHaveLength(1);
    expect(others[0]).toMatch(/^AWSCDKTriggerCustomResourceProvider/);
  });

  test('every log group has a retention (the HTTP API access log too)', () => {
    for (const [, g] of ofType(s.resources, 'AWS::Logs::LogGroup')) expect(g.Properties!['RetentionInDays']).toBe(30);
  });

  test('no environment variable holds a secret: only ARNs of Secrets Manager secrets', () => {
    const secretTypes = new Set(['AWS::SecretsManager::Secret', 'AWS::SecretsManager::SecretTargetAttachment']);
    for (const fn of s.stack.functions) {
      const vars = s.resources[s.id(fn)]!.Properties!['Environment']['Variables'] as Record<string, unknown>;
      for (const [name, value] of Object.entries(vars)) {
        expect(name).not.toMatch(/PASSWORD|DATABASE_URL|TOKEN|^ARBITER_JWT_SECRET$/);
        if (typeof value === 'string') {
          expect(value).not.toMatch(/:\/\/[^/\s]*:[^/\s]*@/); // no URL with credentials
          expect(value.length).toBeLessThan(40); // no literal keys
        }
        if (/SECRET/.test(name)) {
          expect(name).toMatch(/_ARN$/);
          const ref = (value as { Ref?: string }).Ref;
          expect(secretTypes.has(s.resources[ref!]?.Type ?? '')).toBe(true);
        }
      }
    }
    const api = s.resources[s.id(s.stack.api.handler)]!.Properties!['Environment']['Variables'];
    expect(Object.keys(api)).toEqual(
      expect.arrayContaining(['ARBITER_DB_SECRET_ARN', 'ARBITER_DB_HOST', 'ARBITER_JWT_SECRET_ARN', 'ARBITER_LEXICON_DIR']),
    );
    expect(api['ARBITER_MIGRATE_ON_START']).toBe('0');
    // The OAuth issuer: the API's own address unless a public URL is given (functions/oauth-server.ts).
    expect(JSON.stringify(api['ARBITER_PUBLIC_URL'])).toContain(s.id(s.stack.api.httpApi));
    expect(api['ARBITER_DB_HOST']).toEqual({ 'Fn::GetAtt': [s.id(s.stack.database.proxy), 'Endpoint'] });
  });

  test('the webhook sender links pictures under the API’s URL (or the public URL given); the play page URL is an output', () => {
    const env = (t: ReturnType<typeof synth>) => t.resources[t.id(t.stack.webhookSender.handler)]!.Properties!['Environment']['Variables'];
    expect(JSON.stringify(env(s)['ARBITER_PUBLIC_URL'])).toContain(s.id(s.stack.api.httpApi));
    expect(env(synth({ publicUrl: 'https://arbiter.example.org' }))['ARBITER_PUBLIC_URL']).toBe('https://arbiter.example.org');
    expect(JSON.stringify(s.template.findOutputs('PlayUrl'))).toContain('/play');
  });

  test('secrets are generated by Secrets Manager: the JWT key and the database credentials', () => {
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 64, ExcludePunctuation: true }),
    });
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ GenerateStringKey: 'password', SecretStringTemplate: '{"username":"arbiter"}' }),
    });
  });

  test('Aurora PostgreSQL Serverless v2: 0.5–4 ACU, encrypted, TLS forced, private', () => {
    s.template.hasResourceProperties('AWS::RDS::DBCluster', {
      Engine: 'aurora-postgresql',
      ServerlessV2ScalingConfiguration: { MinCapacity: 0.5, MaxCapacity: 4 },
      StorageEncrypted: true,
      DatabaseName: 'arbiter',
    });
    s.template.hasResourceProperties('AWS::RDS::DBInstance', { DBInstanceClass: 'db.serverless', PubliclyAccessible: false });
    s.template.hasResourceProperties('AWS::RDS::DBClusterParameterGroup', { Parameters: { 'rds.force_ssl': '1' } });
  });

  test('capacity is a parameter', () => {
    const t = synth({ database: { minCapacity: 0, maxCapacity: 16 } }).template;
    t.hasResourceProperties('AWS::RDS::DBCluster', { ServerlessV2ScalingConfiguration: { MinCapacity: 0, MaxCapacity: 16 } });
  });

  test('RDS Proxy requires TLS, authenticates with the generated secret, caps connections', () => {
    s.template.hasResourceProperties('AWS::RDS::DBProxy', {
      EngineFamily: 'POSTGRESQL',
      RequireTLS: true,
      Auth: [Match.objectLike({ AuthScheme: 'SECRETS', IAMAuth: 'DISABLED', ClientPasswordAuthType: 'POSTGRES_SCRAM_SHA_256' })],
    });
    s.template.hasResourceProperties('AWS::RDS::DBProxyTargetGroup', {
      ConnectionPoolConfigurationInfo: Match.objectLike({ MaxConnectionsPercent: 80, MaxIdleConnectionsPercent: 20 }),
    });
  });

  test('the database admits only the proxy, and the proxy only the functions', () => {
    const fnSg = s.id(s.stack.network.functionsSecurityGroup);
    const proxySg = s.id(s.stack.database.proxySecurityGroup);
    const clusterSg = s.id(s.stack.database.clusterSecurityGroup);
    const rules = ofType(s.resources, 'AWS::EC2::SecurityGroupIngress').map(([, r]) => r.Properties!);
    const into = (sg: string) => rules.filter((r) => r['GroupId']['Fn::GetAtt']?.[0] === sg);
    const clusterPort = { 'Fn::GetAtt': [s.id(s.stack.database.cluster), 'Endpoint.Port'] };
    // The proxy, and Secrets Manager's password-rotation function (it changes the password on the cluster itself).
    const [rotationSg] = ofType(s.resources, 'AWS::EC2::SecurityGroup').find(([id]) =>
      id.startsWith('DatabaseClusterRotationSingleUserSecurityGroup'),
    )!;
    expect(into(clusterSg).map((r) => [r['SourceSecurityGroupId']['Fn::GetAtt'][0], r['FromPort'], r['ToPort']])).toEqual(
      expect.arrayContaining([
        [proxySg, clusterPort, clusterPort],
        [rotationSg, clusterPort, clusterPort],
      ]),
    );
    expect(into(clusterSg)).toHaveLength(2);
    expect(into(proxySg).map((r) => [r['SourceSecurityGroupId']['Fn::GetAtt'][0], r['FromPort'], r['ToPort']])).toEqual([
      [fnSg, 5432, 5432],
    ]);
    for (const [, sg] of ofType(s.resources, 'AWS::EC2::SecurityGroup')) expect(sg.Properties!['SecurityGroupIngress']).toBeUndefined();
    expect(rules.every((r) => r['CidrIp'] === undefined && r['CidrIpv6'] === undefined)).toBe(true);
    const egress = ofType(s.resources, 'AWS::EC2::SecurityGroupEgress').map(([, r]) => r.Properties!);
    expect(
      egress.filter((r) => r['GroupId']['Fn::GetAtt'][0] === proxySg).map((r) => r['DestinationSecurityGroupId']['Fn::GetAtt'][0]),
    ).toEqual([clusterSg]);
    expect(egress.filter((r) => r['GroupId']['Fn::GetAtt'][0] === clusterSg)).toEqual([]);
    s.template.hasResourceProperties('AWS::RDS::DBCluster', { VpcSecurityGroupIds: [{ 'Fn::GetAtt': [clusterSg, 'GroupId'] }] });
  });

  test('IAM: no wildcard actions, no wildcard resources on secrets or the database', () => {
    for (const [, p] of ofType(s.resources, 'AWS::IAM::Policy')) {
      for (const st of p.Properties!['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[]) {
        const actions = asArray(st.Action);
        for (const a of actions) expect(a).not.toMatch(/(^\*$)|(:\*$)/);
        if (actions.some((a) => /^(secretsmanager|rds|rds-db|kms):/.test(a))) expect(asArray(st.Resource)).not.toContain('*');
      }
    }
  });

  test('each function reads only its own secrets, with GetSecretValue alone', () => {
    const dbSecret = s.id(s.stack.database.secret as unknown as CfnElement);
    const jwtSecret = s.id(s.stack.secrets.jwtSecret);
    const secretGrants = (fn: lambda.Function) => {
      const role = s.id(fn.role!);
      return ofType(s.resources, 'AWS::IAM::Policy')
        .filter(([, p]) => asArray(p.Properties!['Roles']).some((r: any) => r.Ref === role))
        .flatMap(([, p]) => p.Properties!['PolicyDocument']['Statement'] as { Action: string; Resource: { Ref: string } }[])
        .filter((st) => asArray(st.Action).some((a) => a.startsWith('secretsmanager:')))
        .map((st) => [st.Action, st.Resource.Ref]);
    };
    // The API serves the push and e-mail routes, so it reads the notifications' keys too.
    expect(secretGrants(s.stack.api.handler).sort()).toEqual(
      [
        ['secretsmanager:GetSecretValue', dbSecret],
        ['secretsmanager:GetSecretValue', jwtSecret],
        ['secretsmanager:GetSecretValue', s.id(s.stack.notifications.vapidSecret)],
        ['secretsmanager:GetSecretValue', s.id(s.stack.notifications.mailSecret)],
      ].sort(),
    );
    for (const job of [s.stack.webhookSender.handler, s.stack.deadlineSweeper!.handler, s.stack.migration.handler]) {
      expect(secretGrants(job)).toEqual([['secretsmanager:GetSecretValue', dbSecret]]);
    }
  });

  test('the sender and the sweeper run every minute, with a DLQ and no Lambda-side retries', () => {
    for (const job of [s.stack.webhookSender, s.stack.deadlineSweeper!]) {
      const rule = s.resources[s.id(job.rule)]!.Properties!;
      expect(rule['ScheduleExpression']).toBe('rate(1 minute)');
      expect(rule['State']).toBe('ENABLED');
      expect(rule['Targets']).toEqual([
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [s.id(job.handler), 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [s.id(job.deadLetterQueue), 'Arn'] } },
          RetryPolicy: { MaximumEventAgeInSeconds: 60, MaximumRetryAttempts: 2 },
        }),
      ]);
      s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: s.id(job.handler) },
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [s.id(job.deadLetterQueue), 'Arn'] } } },
      });
    }
  });

  test('the sweeper schedule targets the deadlines bundle, which runs without lexicons and without migrating', () => {
    const sweeper = s.stack.deadlineSweeper!;
    const fn = s.resources[s.id(sweeper.handler)]!.Properties!;
    // The inline stub stands for dist/deadlines (functions/deadlines.ts).
    expect(fn['Code']).toEqual({ ZipFile: "exports.handler = async () => 'deadlines';" });
    expect(fn['Description']).toMatch(/deadline sweeper/);
    const env = fn['Environment']['Variables'] as Record<string, unknown>;
    expect(env['ARBITER_MIGRATE_ON_START']).toBe('0');
    expect(env).not.toHaveProperty('ARBITER_LEXICON_DIR');
    const rule = s.resources[s.id(sweeper.rule)]!.Properties!;
    expect(rule['ScheduleExpression']).toBe('rate(1 minute)');
    expect(rule['Targets']).toEqual([expect.objectContaining({ Arn: { 'Fn::GetAtt': [s.id(sweeper.handler), 'Arn'] } })]);
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [s.id(sweeper.handler), 'Arn'] },
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [s.id(sweeper.rule), 'Arn'] },
    });
  });

  test('the migration trigger runs after the database and before the API and the jobs', () => {
    const [[triggerId, trigger]] = ofType(s.resources, 'Custom::Trigger') as [[string, Resource]];
    // The version's logical ID carries a hash of the code, so a new bundle means a new version and a new run.
    const versionId = (trigger.Properties!['HandlerArn'] as { Ref: string }).Ref;
    expect(s.resources[versionId]).toMatchObject({
      Type: 'AWS::Lambda::Version',
      Properties: { FunctionName: { Ref: s.id(s.stack.migration.handler) } },
    });
    expect(trigger.Properties!['InvocationType']).toBe('RequestResponse');
    expect(trigger.DependsOn).toEqual(expect.arrayContaining([s.id(s.stack.database.cluster), s.id(s.stack.database.proxy)]));
    const dependsOnTrigger = (id: string) => expect(s.resources[id]!.DependsOn ?? []).toContain(triggerId);
    dependsOnTrigger(s.id(s.stack.api.handler));
    dependsOnTrigger(s.id(s.stack.api.httpApi));
    dependsOnTrigger(s.id(s.stack.api.stage));
    dependsOnTrigger(s.id(s.stack.webhookSender.handler));
    dependsOnTrigger(s.id(s.stack.deadlineSweeper!.rule));
  });

  test('the HTTP API sends every route to the GraphQL function (payload v2), with CORS and throttling', () => {
    const apiId = s.id(s.stack.api.httpApi);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
        AllowHeaders: ['content-type', 'authorization', 'if-match', 'if-none-match', 'idempotency-key'],
        ExposeHeaders: ['etag', 'location', 'link', 'retry-after', 'deprecation', 'sunset'],
      }),
    });
    const [[integrationId]] = ofType(s.resources, 'AWS::ApiGatewayV2::Integration') as [[string, Resource]];
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      ApiId: { Ref: apiId },
      IntegrationType: 'AWS_PROXY',
      IntegrationUri: { 'Fn::GetAtt': [s.id(s.stack.api.handler), 'Arn'] },
      PayloadFormatVersion: '2.0',
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      ApiId: { Ref: apiId },
      RouteKey: '$default',
      Target: { 'Fn::Join': ['', ['integrations/', { Ref: integrationId }]] },
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [s.id(s.stack.api.handler), 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
  });

  test('provisioned concurrency puts the API on a live alias', () => {
    const p = synth({ api: { provisionedConcurrency: 2, reservedConcurrency: 20 } });
    p.template.hasResourceProperties('AWS::Lambda::Alias', {
      Name: 'live',
      ProvisionedConcurrencyConfig: { ProvisionedConcurrentExecutions: 2 },
    });
    p.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationUri: { Ref: p.id(p.stack.api.target as lambda.Alias) },
    });
    p.template.hasResourceProperties('AWS::Lambda::Function', { ReservedConcurrentExecutions: 20, Architectures: ['arm64'] });
  });

  test('without a sweeper bundle the stack has no sweeper and says so', () => {
    const { graphql, webhooks, migrate } = CODE;
    const n = synth({ code: { graphql, webhooks, migrate } });
    expect(n.stack.deadlineSweeper).toBeUndefined();
    expect(n.stack.functions).toHaveLength(3);
    n.template.resourceCountIs('AWS::Events::Rule', 1);
    Annotations.fromStack(n.stack).hasWarning('/Test', Match.stringLikeRegexp('no deadline sweeper'));
  });

  test('secrets rotate every 30 days: the database password (hosted single-user rotation) and, with its bundle, the JWT key', () => {
    const schedules = ofType(s.resources, 'AWS::SecretsManager::RotationSchedule').map(([, r]) => r.Properties!);
    expect(schedules).toEqual([
      expect.objectContaining({ RotationRules: expect.objectContaining({ ScheduleExpression: 'rate(30 days)' }) }),
    ]);
    const r = synth({ code: { ...CODE, rotateJwtSecret: stub('rotate-jwt-secret') } });
    const jwtSchedule = ofType(r.resources, 'AWS::SecretsManager::RotationSchedule').find(
      ([, x]) => x.Properties!['SecretId']['Ref'] === r.id(r.stack.secrets.jwtSecret),
    );
    expect(jwtSchedule?.[1].Properties).toMatchObject({
      RotationLambdaARN: { 'Fn::GetAtt': [r.id(r.stack.jwtRotator!), 'Arn'] },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
    });
    expect(r.stack.functions).toContain(r.stack.jwtRotator);
    Annotations.fromStack(s.stack).hasWarning('/Test', Match.stringLikeRegexp('JWT key is never rotated'));
  });

  test('function roles hold inline policies only: no AWS-managed policy', () => {
    for (const fn of s.stack.functions) {
      const role = s.resources[s.id(fn.role!)]!.Properties!;
      expect(role['ManagedPolicyArns']).toBeUndefined();
      const statements = role['Policies'][0]['PolicyDocument']['Statement'] as { Action: string[]; Resource: unknown }[];
      expect(statements[0]).toMatchObject({
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [s.id(fn.logGroupRef), 'Arn'] },
      });
    }
  });

  test('dead-letter queues raise an alarm to the encrypted alarm topic; the VPC logs its flows', () => {
    for (const job of [s.stack.webhookSender, s.stack.deadlineSweeper!]) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [s.id(job.deadLetterQueue), 'QueueName'] } }],
        Threshold: 1,
        AlarmActions: [{ Ref: s.id(s.stack.alarms.topic) }],
      });
    }
    s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [s.id(s.stack.alarms.key), 'Arn'] } });
    s.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    s.template.hasResourceProperties('AWS::EC2::FlowLog', {
      ResourceType: 'VPC',
      TrafficType: 'ALL',
      LogDestinationType: 'cloud-watch-logs',
    });
  });

  test('the database is deletion-protected and allows IAM authentication unless told otherwise', () => {
    s.template.hasResourceProperties('AWS::RDS::DBCluster', { DeletionProtection: true, EnableIAMDatabaseAuthentication: true });
    synth({ database: { deletionProtection: false } }).template.hasResourceProperties('AWS::RDS::DBCluster', { DeletionProtection: false });
  });

  test('NAT-less variant: functions in isolated subnets, Secrets Manager reached through an endpoint', () => {
    const n = synth({ network: { natGateways: 0 } });
    n.template.resourceCountIs('AWS::EC2::NatGateway', 0);
    for (const fn of n.stack.functions) {
      const subnets = n.resources[n.id(fn)]!.Properties!['VpcConfig']['SubnetIds'] as { Ref: string }[];
      for (const { Ref } of subnets) expect(Ref).toMatch(/^NetworkVpcappSubnet/);
    }
    n.template.resourceCountIs('AWS::EC2::InternetGateway', 0);
    n.template.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, '.secretsmanager']] },
      VpcEndpointType: 'Interface',
      PrivateDnsEnabled: true,
    });
  });
});
