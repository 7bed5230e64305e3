import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TRACING_ENV } from '../../functions/observability/tracing.js';

/** Every Arbiter function runs the same runtime and architecture (Graviton is ~20 % cheaper per GB-second). */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const FUNCTION_ARCHITECTURE = lambda.Architecture.ARM_64;
export const DEFAULT_LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
/**
 * Lambda's entry in every bundle (functions/lambda-entry.ts): it loads index.cjs through a shipped warm code
 * cache, or index.mjs (with Node's compile cache when that was shipped).
 */
export const FUNCTION_HANDLER = 'lambda.handler';

/**
 * A function's code: the folder `npm run build` wrote (dist/<name>/), all of it but the source maps:
 * lambda.mjs (the handler's file) and index.mjs, its chunks and assets, and, when built for Lambda's Node,
 * index.cjs and compile-cache/. Undefined when lambda.mjs or index.mjs is missing (not built).
 */
export const bundleCode = (dir: string): lambda.Code | undefined =>
  existsSync(join(dir, 'lambda.mjs')) && existsSync(join(dir, 'index.mjs'))
    ? lambda.Code.fromAsset(dir, { exclude: ['*.map'] })
    : undefined;
/**
 * CDK context key: a runtime version ARN (the "Runtime Version ARN" of a function's INIT_START log line)
 * pins every function to it (Lambda's manual runtime management). Unset, Lambda applies runtime updates
 * itself (automatic): security patches arrive without a deploy, and a shipped compile cache stops matching
 * when the Node release changes, until the next build for it (docs/deploying.md, "Compile cache").
 */
export const RUNTIME_VERSION_CONTEXT = 'runtimeVersionArn';

export interface ArbiterFunctionProps {
  /** The bundle folder (`Code.fromAsset('dist/<name>')`); tests pass `Code.fromInline`. */
  readonly code: lambda.Code;
  readonly description: string;
  readonly vpc: ec2.IVpc;
  readonly vpcSubnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment?: Readonly<Record<string, string>>;
  readonly memorySize?: number;
  readonly timeout?: Duration;
  readonly reservedConcurrentExecutions?: number;
  readonly logRetention?: logs.RetentionDays;
}

/**
 * A Lambda function from one esbuild bundle (`lambda.mjs` in front of `index.mjs`, export `handler`), in the VPC, with its own
 * log group and a retention. Its role holds only what the function uses, written out here instead of
 * the AWS-managed AWSLambdaBasicExecutionRole / AWSLambdaVPCAccessExecutionRole (cdk-nag IAM4): writing
 * to its own log group, and the network interfaces Lambda needs in a VPC. Secrets are granted one by one
 * with {@link grantSecretValue}.
 */
export class ArbiterFunction extends lambda.Function {
  readonly logGroupRef: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ArbiterFunctionProps) {
    const pinned: unknown = scope.node.tryGetContext(RUNTIME_VERSION_CONTEXT);
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? DEFAULT_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description}: execution role`,
      inlinePolicies: {
        run: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
            new iam.PolicyStatement({
              actions: [
                'ec2:CreateNetworkInterface',
                'ec2:DescribeNetworkInterfaces',
                'ec2:DescribeSubnets',
                'ec2:DeleteNetworkInterface',
                'ec2:AssignPrivateIpAddresses',
                'ec2:UnassignPrivateIpAddresses',
              ],
              resources: ['*'],
            }),
          ],
        }),
      },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The network-interface actions Lambda needs in a VPC (those of AWSLambdaVPCAccessExecutionRole): the Describe actions take no resource, and the interfaces do not exist before Lambda creates them.',
    });
    super(scope, id, {
      role,
      code: props.code,
      handler: FUNCTION_HANDLER,
      runtime: FUNCTION_RUNTIME,
      ...(typeof pinned === 'string' && pinned ? { runtimeManagementMode: lambda.RuntimeManagementMode.manual(pinned) } : {}),
      architecture: FUNCTION_ARCHITECTURE,
      description: props.description,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(15),
      vpc: props.vpc,
      vpcSubnets: props.vpcSubnets,
      securityGroups: [props.securityGroup],
      allowPublicSubnet: false,
      logGroup,
      environment: { NODE_ENV: 'production', ...props.environment },
      ...(props.reservedConcurrentExecutions === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
    });
    this.logGroupRef = logGroup;
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: `${FUNCTION_RUNTIME.name}: the newest runtime the code is built and tested for (package.json engines: Node 20 and 22; esbuild targets node22). Move up when the test suite runs on the next one.`,
    });
  }

  /**
   * X-Ray active tracing with the ADOT JavaScript layer, whose wrapper registers the OpenTelemetry
   * tracer provider that our spans (functions/observability/tracing.ts) go to; ARBITER_TRACING=on
   * turns them on. Only the Lambda instrumentation of the layer is enabled: our own spans cover HTTP,
   * SQL and webhooks, and each instrumentation the layer loads costs cold-start time.
   */
  enableTracing(): void {
    (this.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };
    this.addToRolePolicy(new iam.PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] }));
    const adot = lambda.AdotLayerVersion.fromJavaScriptSdkLayerVersion(lambda.AdotLambdaLayerJavaScriptSdkVersion.LATEST);
    this.addLayers(lambda.LayerVersion.fromLayerVersionArn(this, 'AdotLayer', adot._bind(this).arn));
    this.addEnvironment('AWS_LAMBDA_EXEC_WRAPPER', lambda.AdotLambdaExecWrapper.REGULAR_HANDLER);
    this.addEnvironment('OTEL_NODE_ENABLED_INSTRUMENTATIONS', 'aws-lambda');
    this.addEnvironment(TRACING_ENV, 'on');
  }

  /** `secretsmanager:GetSecretValue` on this one secret, nothing else (no DescribeSecret, no wildcard). */
  grantSecretValue(secret: secretsmanager.ISecret): void {
    this.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
  }
}
