import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ArbiterFunction, DEFAULT_LOG_RETENTION } from './function.js';
import { HEALTH_PATH, READY_PATH } from '../../functions/observability/paths.js';

export interface ApiProps {
  readonly code: lambda.Code;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment: Readonly<Record<string, string>>;
  /** Default 1024 MB: Lambda CPU grows with memory, and start-up (schema, lexicons) is CPU-bound. */
  readonly memorySize?: number;
  /** Default 10 s (the HTTP API integration gives up at 30 s). */
  readonly timeout?: Duration;
  /** Caps the API's concurrency, which caps its share of proxy connections (default: none, account pool). */
  readonly reservedConcurrency?: number;
  /** Warm containers kept on a `live` alias, billed while idle (default: none). */
  readonly provisionedConcurrency?: number;
  /** Origins allowed by CORS (default `*`: the API uses bearer tokens, not cookies). */
  readonly corsOrigins?: readonly string[];
  /** Stage-wide throttling, requests per second (default 50 steady, 100 burst). */
  readonly rateLimit?: number;
  readonly burstLimit?: number;
}

/**
 * The GraphQL/REST function behind an HTTP API (payload v2): every route goes to it (`$default`, a
 * catch-all), so /graphql, /v1/… (rest/) with its OpenAPI document, and the deprecated /rest/… are
 * served by the same Yoga instance as `npm start`.
 */
export class Api extends Construct {
  readonly handler: ArbiterFunction;
  /** What the HTTP API invokes: the function, or its `live` alias under provisioned concurrency. */
  readonly target: lambda.IFunction;
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.handler = new ArbiterFunction(this, 'Graphql', {
      code: props.code,
      description: 'Arbiter GraphQL and REST API (API Gateway HTTP API v2)',
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
    });
    this.target = props.provisionedConcurrency
      ? new lambda.Alias(this, 'Live', {
          aliasName: 'live',
          version: this.handler.currentVersion,
          provisionedConcurrentExecutions: props.provisionedConcurrency,
        })
      : this.handler;
    const integration = new HttpLambdaIntegration('Graphql', this.target, { payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0 });
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Arbiter API',
      createDefaultStage: false,
      defaultIntegration: integration,
      corsPreflight: {
        allowOrigins: [...(props.corsOrigins ?? ['*'])],
        // /v1 (rest/) answers PATCH and DELETE too, and reads the conditional and idempotency headers.
        allowMethods: [
          apigw.CorsHttpMethod.GET,
          apigw.CorsHttpMethod.POST,
          apigw.CorsHttpMethod.PATCH,
          apigw.CorsHttpMethod.DELETE,
          apigw.CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: ['content-type', 'authorization', 'if-match', 'if-none-match', 'idempotency-key'],
        exposeHeaders: ['etag', 'location', 'link', 'retry-after', 'deprecation', 'sunset'],
        maxAge: Duration.days(1),
      },
    });
    // The probes (functions/observability/health.ts) by name, so that they show as routes of their own
    // in the console and the access log, and stay answered if the catch-all ever changes.
    this.httpApi.addRoutes({ path: HEALTH_PATH, methods: [apigw.HttpMethod.GET], integration });
    this.httpApi.addRoutes({ path: READY_PATH, methods: [apigw.HttpMethod.GET], integration });
    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization is the application’s, on every request: open fields (rules, word checks, registration, login) answer anyone, and every other field checks the bearer token or API key and its scopes (graph/auth.ts, graph/builder.ts). A gateway authorizer could not express that per field.',
    });
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: DEFAULT_LOG_RETENTION });
    this.stage = this.httpApi.addStage('Stage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit ?? 50, burstLimit: props.burstLimit ?? 100 },
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(accessLogs) },
    });
    new CfnOutput(scope, 'ApiUrl', { value: this.httpApi.apiEndpoint, description: 'Arbiter API base URL (GraphQL at /graphql)' });
    // The same function serves the play page (graph/pages.ts; its files are in the bundle's static/ folder).
    new CfnOutput(scope, 'PlayUrl', { value: `${this.httpApi.apiEndpoint}/play`, description: 'The play page' });
  }
}
