import { Duration, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ArbiterFunction } from './function.js';

export interface ScheduledJobProps {
  readonly code: lambda.Code;
  readonly description: string;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment: Readonly<Record<string, string>>;
  /** Default: every minute. */
  readonly schedule?: events.Schedule;
  /** Default 55 s: a run should end before the next one starts (overlap is safe, just wasteful). */
  readonly timeout?: Duration;
  readonly memorySize?: number;
  /** Default none. 1 serialises runs, but needs 100 unreserved concurrency left in the account. */
  readonly reservedConcurrency?: number;
}

/**
 * A function run on an EventBridge schedule (the deadline sweeper, the webhook sender). A missed or
 * failed run is not retried: the next tick does the same work a minute later, and both jobs pick up
 * where the last one stopped. Events that could not be delivered, and runs that failed, land in a DLQ
 * so failures stay visible.
 */
export class ScheduledJob extends Construct {
  readonly handler: ArbiterFunction;
  readonly rule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ScheduledJobProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue (of the schedule target and of the async invocations); an alarm watches it (infra/constructs/alarms.ts).',
    });
    this.handler = new ArbiterFunction(this, 'Function', {
      code: props.code,
      description: props.description,
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(55),
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
    });
    // Asynchronous invocations: no Lambda-side retries (the next tick is the retry); failures go to the DLQ.
    this.handler.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: Duration.minutes(2),
      onFailure: new SqsDestination(this.deadLetterQueue),
    });
    this.rule = new events.Rule(this, 'Schedule', {
      description: `${props.description}: schedule`,
      schedule: props.schedule ?? events.Schedule.rate(Duration.minutes(1)),
      targets: [
        new targets.LambdaFunction(this.handler, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 2,
          maxEventAge: Duration.minutes(1),
        }),
      ],
    });
  }
}
