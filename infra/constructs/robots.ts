import { Duration, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ArbiterFunction } from './function.js';

export interface RobotsProps {
  readonly code: lambda.Code;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment: Readonly<Record<string, string>>;
  /** How often the sweep looks for robot moves whose message was lost (default every minute). */
  readonly sweep?: events.Schedule;
}

/** Receives before a message goes to the dead-letter queue. */
export const ROBOT_MAX_RECEIVES = 3;

/**
 * Robot seats (issue 19): the queue the API writes to after a commit that hands a robot the move, its
 * dead-letter queue, the function that plays the moves (one game per message; a failed game is retried
 * alone, `reportBatchItemFailures`), and a schedule on the same function that sweeps for robot moves
 * whose message never arrived. `grantSend` lets the API function write to the queue.
 */
export class Robots extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly handler: ArbiterFunction;
  readonly sweep: events.Rule;

  constructor(scope: Construct, id: string, props: RobotsProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the robot queue; an alarm watches it (infra/constructs/alarms.ts).',
    });
    const timeout = Duration.seconds(30);
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // A robot move is worth little after a few minutes: the sweep replays anything older.
      retentionPeriod: Duration.hours(1),
      // At least six times the function's timeout, as Lambda's event source mapping asks.
      visibilityTimeout: Duration.seconds(timeout.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: ROBOT_MAX_RECEIVES },
    });
    this.handler = new ArbiterFunction(this, 'Function', {
      code: props.code,
      description: 'Arbiter: robot seats (plays robot moves from the queue, sweeps for missed ones)',
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      // Move generation is CPU-bound: more memory is more CPU.
      memorySize: 1024,
      timeout,
    });
    this.handler.addEventSource(new SqsEventSource(this.queue, { batchSize: 5, reportBatchItemFailures: true }));
    this.sweep = new events.Rule(this, 'Sweep', {
      description: 'Arbiter: robot seats: sweep',
      schedule: props.sweep ?? events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.handler, { retryAttempts: 0 })],
    });
  }

  /** Lets `grantee` (the API function) put robot wake-ups on the queue. */
  grantSend(grantee: iam.IGrantable): void {
    this.queue.grantSendMessages(grantee);
  }
}
