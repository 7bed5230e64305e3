import { CfnOutput, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { ArbiterFunction } from './function.js';
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
} as const;

export interface NotificationsProps {
  /** The notifier's bundle (functions/notifications.ts, dist/notifications); without it nothing is sent (and the stack warns). */
  readonly code?: lambda.Code;
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
    this.identity = props.mailDomain
      ? new ses.EmailIdentity(this, 'MailIdentity', { identity: ses.Identity.domain(props.mailDomain) })
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
   * and `ses:SendEmail` on the sending identity alone.
   */
  grantTo(fn: ArbiterFunction, options: { readonly environment?: boolean } = {}): void {
    if (options.environment !== false) for (const [name, value] of Object.entries(this.environment)) fn.addEnvironment(name, value);
    fn.grantSecretValue(this.vapidSecret);
    fn.grantSecretValue(this.mailSecret);
    if (this.identity)
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: [this.identity.emailIdentityArn] }));
  }
}
