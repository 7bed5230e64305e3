import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmsProps {
  /** Who is told (an e-mail subscription; confirm the first message). Without it, alarms show in the console only. */
  readonly email?: string;
}

/**
 * Where the stack's alarms go: an SNS topic, encrypted with its own key (CloudWatch cannot publish to a
 * topic under the AWS-managed SNS key), TLS only. One alarm per dead-letter queue: any message in it
 * means a scheduled run failed or could not be delivered.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: AlarmsProps = {}) {
    super(scope, id);
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

  /** Alarms as soon as `queue` holds a message. */
  onDeadLetters(id: string, queue: sqs.IQueue, what: string): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: `Arbiter: ${what} failed: a message is waiting in its dead-letter queue`,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new actions.SnsAction(this.topic));
    return alarm;
  }
}
