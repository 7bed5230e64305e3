import { CfnOutput, Duration } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ArbiterFunction } from './function.js';

export interface LiveStreamsProps {
  /** The bundle of functions/stream-entry.ts (dist/stream). */
  readonly code: lambda.Code;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment: Readonly<Record<string, string>>;
  /** Origins allowed by CORS (default `*`: the streams take bearer tokens, not cookies). */
  readonly corsOrigins?: readonly string[];
  /**
   * The most streams open at once across the deployment (reserved concurrency: one open stream holds one
   * container). Default none: the account's pool, shared with every other function.
   */
  readonly maxStreams?: number;
  /** Default 512 MB: a stream is mostly waiting; the app's build at cold start wants some CPU. */
  readonly memorySize?: number;
}

/**
 * The live event streams on AWS (issue 31; docs/deploying.md, "Live streams and notifications on AWS"):
 * functions/stream-entry.ts behind a Lambda function URL in RESPONSE_STREAM mode, so the SSE/NDJSON code
 * of rest/events.ts runs as it does under `npm start`, and the GraphQL subscriptions (graphql-sse on
 * `/graphql`) through the same Yoga. The URL's auth type is NONE because the
 * application authenticates every stream (the bearer token or API key of `GET /v1/games/{id}`), and the
 * function answers nothing but the stream routes and subscriptions; SigV4 (AWS_IAM) would need a signing proxy in front
 * and would take the Authorization header the token travels in.
 */
export class LiveStreams extends Construct {
  readonly handler: ArbiterFunction;
  readonly url: lambda.FunctionUrl;

  constructor(scope: Construct, id: string, props: LiveStreamsProps) {
    super(scope, id);
    this.handler = new ArbiterFunction(this, 'Function', {
      code: props.code,
      description: 'Arbiter: live event streams (SSE/NDJSON, Lambda response streaming behind a function URL)',
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      memorySize: props.memorySize ?? 512,
      // Lambda's ceiling; the handler ends each stream a margin before it with a retry hint.
      timeout: Duration.minutes(15),
      ...(props.maxStreams === undefined ? {} : { reservedConcurrentExecutions: props.maxStreams }),
    });
    this.url = this.handler.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
      cors: {
        allowedOrigins: [...(props.corsOrigins ?? ['*'])],
        // POST: the graphql-sse client sends a subscription as a JSON body (content-type).
        allowedMethods: [lambda.HttpMethod.GET, lambda.HttpMethod.POST],
        // EventSource resumes with Last-Event-ID; fetch-based clients send the token.
        allowedHeaders: ['authorization', 'accept', 'last-event-id', 'content-type'],
        maxAge: Duration.days(1),
      },
    });
    new CfnOutput(scope, 'StreamUrl', {
      value: this.url.url,
      description:
        'Live event streams: GET <StreamUrl>v1/games/{id}/events and <StreamUrl>v1/me/events; GraphQL subscriptions at <StreamUrl>graphql',
    });
  }
}
