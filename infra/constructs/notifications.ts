import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ArbiterFunction } from './function.js';
import { ScheduledJob } from './scheduled.js';

/**
 * The variables of functions/mail-settings.ts (MAIL_ENV) and functions/vapid-keys.ts (VAPID_ENV), named here
 * rather than imported: those modules load the mail transport and the store, which a synth does not need.
 * infra/notifications.test.ts checks that the names agree.
 */
export const NOTIFY_ENV = {
  MAIL: 'ARBITER_MAIL',
  MAIL_FROM: 'ARBITER_MAIL_FROM',
  MAIL_SECRET_ARN: 'ARBITER_MAIL_SECRET_ARN',
  VAPID_SECRET_ARN: 'ARBITER_VAPID_SECRET_ARN',
  VAPID_SUBJECT: 'ARBITER_VAPID_SUBJECT',
  SES_CONFIGURATION_SET: 'ARBITER_SES_CONFIGURATION_SET',
} as const;

export interface NotificationsProps {
  /** The notifier's bundle (functions/notifications.ts, dist/notifications); without it nothing is sent (and the stack warns). */
  readonly code?: lambda.Code;
  /**
   * The SES feedback function's bundle (functions/mail-feedback.ts, dist/mail-feedback): with a mail domain,
   * it reads the bounces and complaints SES publishes (docs/notifications.md, "Bounces and complaints on AWS").
   */
  readonly feedbackCode?: lambda.Code;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  /** The notifier's database environment (and what else the stack gives every job). */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The domain mail is sent from: an SES domain identity is made for it (publish the DKIM records it
   * outputs). Without it no e-mail is sent on AWS (players setting an address are told EMAIL_UNAVAILABLE).
   */
  readonly mailDomain?: string;
  /** The From address (default `notifications@<mailDomain>`); it must be on the domain. */
  readonly mailFrom?: string;
  /** Whom push services contact about our pushes (RFC 8292): default `mailto:postmaster@<mailDomain>` when there is one. */
  readonly vapidSubject?: string;
}

/**
 * What the notifications of issue 31 need on AWS (docs/notifications.md, docs/deploying.md): the Web Push
 * key pair and the key of the e-mail links, each in Secrets Manager (their ARNs, never their values, in
 * the environment, as for the JWT key), the SES identity mail is sent from, and the notifier, a scheduled
 * function like the webhook sender. {@link grantTo} gives a function (the API, the notifier) the
 * environment and exactly the permissions these take.
 */
export class Notifications extends Construct {
  /** `{"publicKey", "privateKey"}` (functions/vapid-keys.ts); an operator puts the pair once (docs/deploying.md). */
  readonly vapidSecret: secretsmanager.Secret;
  /** The key that signs the e-mails' verification and unsubscribe links (functions/mail-settings.ts). */
  readonly mailSecret: secretsmanager.Secret;
  readonly identity: ses.EmailIdentity | undefined;
  /** With a mail domain: the configuration set every mail names, its Bounce and Complaint events on a topic. */
  readonly feedback: MailFeedback | undefined;
  readonly notifier: ScheduledJob | undefined;
  /** The variables every function that notifies (or serves the push and e-mail routes) gets. */
  readonly environment: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    // CloudFormation cannot make a P-256 key pair: a placeholder the key check refuses until the pair is put.
    this.vapidSecret = new secretsmanager.Secret(this, 'VapidKeys', {
      description: 'Arbiter: Web Push VAPID key pair, JSON {"publicKey","privateKey"} (ARBITER_VAPID_SECRET_ARN)',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder', excludePunctuation: true },
    });
    Validations.of(this.vapidSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A new VAPID key pair invalidates every browser push subscription made with the old one (RFC 8292): the pair is replaced by hand, on purpose, with a new value put in the secret (docs/deploying.md).',
    });
    this.mailSecret = new secretsmanager.Secret(this, 'MailLinkKey', {
      description: 'Arbiter: HMAC key of the e-mail verification and unsubscribe links (ARBITER_MAIL_SECRET_ARN)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.mailSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'An unsubscribe link must keep working for as long as the mail that carries it is read (months): a scheduled rotation would break the links already sent. Replace it by hand if it leaks.',
    });
    new CfnOutput(scope, 'VapidSecretArn', {
      value: this.vapidSecret.secretArn,
      description: 'Put the Web Push key pair here once: JSON {"publicKey","privateKey"} (docs/deploying.md)',
    });
    this.feedback = props.mailDomain ? new MailFeedback(this, 'MailFeedback', props) : undefined;
    // The identity's default configuration set too: a mail sent without naming it still reports its bounces.
    this.identity = props.mailDomain
      ? new ses.EmailIdentity(this, 'MailIdentity', {
          identity: ses.Identity.domain(props.mailDomain),
          configurationSet: this.feedback!.configurationSet,
        })
      : undefined;
    if (this.identity)
      this.identity.dkimRecords.forEach((r, i) => {
        new CfnOutput(scope, `MailDkim${i + 1}`, { value: `${r.name} CNAME ${r.value}`, description: 'Publish in DNS: SES DKIM' });
      });
    const subject = props.vapidSubject ?? (props.mailDomain ? `mailto:postmaster@${props.mailDomain}` : undefined);
    this.environment = {
      [NOTIFY_ENV.VAPID_SECRET_ARN]: this.vapidSecret.secretArn,
      [NOTIFY_ENV.MAIL_SECRET_ARN]: this.mailSecret.secretArn,
      ...(subject ? { [NOTIFY_ENV.VAPID_SUBJECT]: subject } : {}),
      ...(props.mailDomain
        ? { [NOTIFY_ENV.MAIL]: 'ses', [NOTIFY_ENV.MAIL_FROM]: props.mailFrom ?? `notifications@${props.mailDomain}` }
        : {}),
      ...(this.feedback ? { [NOTIFY_ENV.SES_CONFIGURATION_SET]: this.feedback.configurationSet.configurationSetName } : {}),
    };
    this.notifier = props.code
      ? new ScheduledJob(this, 'Notifier', {
          vpc: props.vpc,
          subnets: props.subnets,
          securityGroup: props.securityGroup,
          code: props.code,
          description: 'Arbiter: notifier (sends the due e-mails and Web Pushes)',
          environment: { ...props.environment, ...this.environment },
        })
      : undefined;
    if (this.notifier) this.grantTo(this.notifier.handler, { environment: false });
  }

  /**
   * Gives `fn` the notification settings (unless `environment: false`), `GetSecretValue` on the two secrets,
   * and `ses:SendEmail` on the sending identity and its configuration set alone (SES v2 checks both when
   * a mail names the set).
   */
  grantTo(fn: ArbiterFunction, options: { readonly environment?: boolean } = {}): void {
    if (options.environment !== false) for (const [name, value] of Object.entries(this.environment)) fn.addEnvironment(name, value);
    fn.grantSecretValue(this.vapidSecret);
    fn.grantSecretValue(this.mailSecret);
    if (this.identity)
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [this.identity.emailIdentityArn, ...(this.feedback ? [this.feedback.configurationSetArn] : [])],
        }),
      );
  }
}

/**
 * SES's bounces and complaints (issue 31: a bouncing address is never mailed): a configuration set whose
 * Bounce and Complaint events go to an SNS topic, and the function that reads them
 * (functions/mail-feedback.ts) subscribed to it, when its bundle is given. The topic is encrypted with a
 * key of ours: the AWS-managed SNS key cannot be granted to SES, which must encrypt what it publishes.
 */
export class MailFeedback extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  /** `arn:…:ses:<region>:<account>:configuration-set/<name>`, for the `ses:SendEmail` grant. */
  readonly configurationSetArn: string;
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  readonly handler: ArbiterFunction | undefined;
  /** Events the function failed on after Lambda's retries, and those SNS could not hand it. */
  readonly deadLetterQueue: sqs.Queue | undefined;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'TopicKey', {
      description: 'Arbiter: encrypts the SES bounce and complaint topic',
      enableKeyRotation: true,
    });
    // SES publishes into the encrypted topic: it needs the key, for this account's configuration sets only.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.key.stack.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Arbiter: SES bounces and complaints',
      masterKey: this.key,
      enforceSSL: true,
    });
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', { reputationMetrics: true });
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: ses.EventDestination.snsTopic(this.topic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    this.configurationSetArn = this.configurationSet.stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    if (!props.feedbackCode) return;
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the SES feedback function (its failed invocations and undeliverable SNS messages).',
    });
    this.handler = new ArbiterFunction(this, 'Function', {
      code: props.feedbackCode,
      description: 'Arbiter: SES feedback (marks bouncing addresses, turns e-mail off after a complaint)',
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      memorySize: 512,
      timeout: Duration.seconds(30),
    });
    // Lambda retries a failed SNS invocation twice (the work is idempotent); what still fails is kept.
    this.handler.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });
    this.topic.addSubscription(new subscriptions.LambdaSubscription(this.handler, { deadLetterQueue: this.deadLetterQueue }));
  }
}
