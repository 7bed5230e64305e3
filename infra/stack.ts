import { Annotations, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { SECRET_ENV } from '../functions/secrets.js';
import { ROBOT_QUEUE_ENV } from '../functions/robot-env.js';
import { Api, type ApiProps } from './constructs/api.js';
import { Database, type DatabaseProps } from './constructs/database.js';
import { ArbiterFunction } from './constructs/function.js';
import { Migration } from './constructs/migration.js';
import { Network, type NetworkProps } from './constructs/network.js';
import { ScheduledJob } from './constructs/scheduled.js';
import { Alarms, type AlarmsProps } from './constructs/alarms.js';
import { AppSecrets } from './constructs/secrets.js';
import { Dashboard } from './constructs/dashboard.js';
import { Robots } from './constructs/robots.js';
import { LiveStreams } from './constructs/streams.js';
import { Notifications } from './constructs/notifications.js';
import { STREAM_POLL_ENV, STREAM_URL_ENV } from '../functions/stream-env.js';

/** Each function's code: the `dist/<name>/` folders of `npm run build` (tests: inline stubs). */
export interface FunctionCode {
  readonly graphql: lambda.Code;
  readonly webhooks: lambda.Code;
  readonly migrate: lambda.Code;
  /** The deadline sweeper (functions/deadlines.ts); optional so a stack can be synthesized without it (then a warning says so). */
  readonly deadlines?: lambda.Code;
  /** Robot seats (functions/robots.ts); without it robot games wait forever (and a warning says so). */
  readonly robots?: lambda.Code;
  /** The JWT key's rotation function (functions/rotate-jwt-secret.ts); without it the key is not rotated (and a warning says so). */
  readonly rotateJwtSecret?: lambda.Code;
  /** The live event streams (functions/stream-entry.ts) behind a function URL; without it the API's streams answer 501 (and a warning says so). */
  readonly stream?: lambda.Code;
  /** The notifier (functions/notifications.ts), on a schedule; without it no e-mail or push is sent (and a warning says so). */
  readonly notifications?: lambda.Code;
  /** SES's bounces and complaints (functions/mail-feedback.ts), with a mail domain; without it they are not read. */
  readonly mailFeedback?: lambda.Code;
}

export interface ArbiterStackProps extends StackProps {
  readonly code: FunctionCode;
  readonly network?: NetworkProps;
  readonly database?: Omit<DatabaseProps, 'vpc' | 'databaseSubnets' | 'proxySubnets'>;
  readonly api?: Omit<ApiProps, 'code' | 'vpc' | 'subnets' | 'securityGroup' | 'environment'>;
  readonly alarms?: AlarmsProps;
  /** Trace every function with X-Ray through the ADOT layer (default true; docs/operating.md#traces). */
  readonly tracing?: boolean;
  /**
   * The address players reach the API at, when it is not the HTTP API's own URL (a custom domain): the
   * webhook sender links the game's pictures under it (ARBITER_PUBLIC_URL, docs/pictures.md).
   */
  readonly publicUrl?: string;
  /** The live streams' function: its cap on open streams and its poll (docs/deploying.md, "Live streams and notifications on AWS"). */
  readonly streams?: { readonly maxStreams?: number; readonly pollMs?: number };
  /** E-mail through SES from this domain (an identity is made for it) and the Web Push subject; no domain: no e-mail. */
  readonly notifications?: { readonly mailDomain?: string; readonly mailFrom?: string; readonly vapidSubject?: string };
}

/** Where the bundles keep the compiled lexicons (scripts/build.ts copies them; Lambda unpacks to /var/task). */
export const LAMBDA_LEXICON_DIR = '/var/task/lexicons';

/** Wiring only: each concern is a construct in infra/constructs/. */
export class ArbiterStack extends Stack {
  readonly network: Network;
  readonly database: Database;
  readonly secrets: AppSecrets;
  readonly api: Api;
  readonly migration: Migration;
  readonly webhookSender: ScheduledJob;
  readonly deadlineSweeper: ScheduledJob | undefined;
  readonly jwtRotator: ArbiterFunction | undefined;
  readonly robots: Robots | undefined;
  readonly streams: LiveStreams | undefined;
  readonly notifications: Notifications;
  readonly alarms: Alarms;
  readonly dashboard: Dashboard;
  /** Every function this stack defines (the assertion tests check each). */
  readonly functions: readonly ArbiterFunction[];

  constructor(scope: Construct, id: string, props: ArbiterStackProps) {
    super(scope, id, props);
    this.network = new Network(this, 'Network', props.network);
    const { vpc, functionSubnets: subnets, functionsSecurityGroup: securityGroup } = this.network;
    this.database = new Database(this, 'Database', {
      ...props.database,
      vpc,
      databaseSubnets: this.network.databaseSubnets,
      proxySubnets: subnets,
    });
    this.database.allowFrom(securityGroup, 'from the Arbiter functions');
    const placement = { vpc, subnets, securityGroup };
    this.jwtRotator = props.code.rotateJwtSecret
      ? new ArbiterFunction(this, 'JwtRotation', {
          code: props.code.rotateJwtSecret,
          description: 'Arbiter: rotates the JWT signing key (Secrets Manager rotation function)',
          vpc,
          vpcSubnets: subnets,
          securityGroup,
          memorySize: 256,
          timeout: Duration.seconds(30),
        })
      : undefined;
    if (!this.jwtRotator) {
      Annotations.of(this).addWarningV2(
        'arbiter:no-jwt-rotation',
        'No JWT rotation bundle (dist/rotate-jwt-secret): the JWT key is never rotated.',
      );
    }
    this.secrets = new AppSecrets(this, 'Secrets', this.jwtRotator ? { jwtRotation: this.jwtRotator } : {});
    this.alarms = new Alarms(this, 'Alarms', props.alarms);

    const dbEnv = this.database.connectionEnvironment;

    this.migration = new Migration(this, 'Migration', {
      ...placement,
      code: props.code.migrate,
      environment: dbEnv,
      executeAfter: [this.database],
    });

    this.api = new Api(this, 'Api', {
      ...props.api,
      ...placement,
      code: props.code.graphql,
      environment: {
        ...dbEnv,
        [SECRET_ENV.JWT_SECRET_ARN]: this.secrets.jwtSecret.secretArn,
        ARBITER_LEXICON_DIR: LAMBDA_LEXICON_DIR,
        // The migration trigger has already migrated; the API must not race it at cold start.
        ARBITER_MIGRATE_ON_START: '0',
      },
    });
    // The OAuth issuer (functions/oauth-server.ts) must not depend on which host name a request came by.
    this.api.handler.addEnvironment('ARBITER_PUBLIC_URL', props.publicUrl ?? this.api.httpApi.apiEndpoint);

    this.webhookSender = new ScheduledJob(this, 'WebhookSender', {
      ...placement,
      code: props.code.webhooks,
      description: 'Arbiter: webhook sender (drains the outbox)',
      // Deliveries link the game's pictures (/v1/games/{id}/board.png) under the API's public address.
      environment: { ...dbEnv, ARBITER_MIGRATE_ON_START: '0', ARBITER_PUBLIC_URL: props.publicUrl ?? this.api.httpApi.apiEndpoint },
    });

    this.deadlineSweeper = props.code.deadlines
      ? new ScheduledJob(this, 'DeadlineSweeper', {
          ...placement,
          code: props.code.deadlines,
          description: 'Arbiter: deadline sweeper (settles expired turn clocks)',
          // No lexicons: a timeout or an auto-pass judges no word.
          environment: { ...dbEnv, ARBITER_MIGRATE_ON_START: '0' },
        })
      : undefined;
    if (!this.deadlineSweeper) {
      Annotations.of(this).addWarningV2(
        'arbiter:no-sweeper',
        'No deadline sweeper bundle (dist/deadlines): the stack has no deadline sweeper.',
      );
    }

    this.robots = props.code.robots
      ? new Robots(this, 'Robots', {
          ...placement,
          code: props.code.robots,
          environment: { ...dbEnv, ARBITER_LEXICON_DIR: LAMBDA_LEXICON_DIR, ARBITER_MIGRATE_ON_START: '0' },
        })
      : undefined;
    if (this.robots) {
      // The API wakes the robot through its queue after a commit that hands it the move (functions/robot-queue.ts).
      this.api.handler.addEnvironment(ROBOT_QUEUE_ENV, this.robots.queue.queueUrl);
      this.robots.grantSend(this.api.handler);
      this.alarms.onDeadLetters('RobotsFailed', this.robots.deadLetterQueue, 'a robot move');
    } else {
      Annotations.of(this).addWarningV2('arbiter:no-robots', 'No robots bundle (dist/robots): games against a robot never get its moves.');
    }

    this.streams = this.liveStreams(props, placement, dbEnv);
    this.notifications = this.notifiers(props, placement, dbEnv);

    // New code serves traffic only after this deployment's migration succeeded.
    this.migration.runBefore(
      this.api,
      this.webhookSender,
      ...(this.deadlineSweeper ? [this.deadlineSweeper] : []),
      ...(this.robots ? [this.robots.handler] : []),
      ...(this.streams ? [this.streams.handler] : []),
      ...(this.notifications.notifier ? [this.notifications.notifier] : []),
    );

    this.alarms.onDeadLetters('WebhookSenderFailed', this.webhookSender.deadLetterQueue, 'the webhook sender');
    if (this.deadlineSweeper)
      this.alarms.onDeadLetters('DeadlineSweeperFailed', this.deadlineSweeper.deadLetterQueue, 'the deadline sweeper');
    this.alarms.onApi(this.api.httpApi);
    this.alarms.onFunction('ApiFunction', this.api.handler, 'the API function');
    this.alarms.onFunction('WebhookSenderFunction', this.webhookSender.handler, 'the webhook sender');
    this.alarms.onWebhookBacklog();
    this.alarms.onDatabase(this.database.cluster, this.database.maxCapacity);
    if (this.deadlineSweeper) {
      this.alarms.onFunction('DeadlineSweeperFunction', this.deadlineSweeper.handler, 'the deadline sweeper');
      this.alarms.onSweeperStopped(this.deadlineSweeper.handler);
    }

    this.functions = [
      this.api.handler,
      this.webhookSender.handler,
      ...(this.deadlineSweeper ? [this.deadlineSweeper.handler] : []),
      ...(this.robots ? [this.robots.handler] : []),
      ...(this.streams ? [this.streams.handler] : []),
      ...(this.notifications.notifier ? [this.notifications.notifier.handler] : []),
      ...(this.notifications.feedback?.handler ? [this.notifications.feedback.handler] : []),
      this.migration.handler,
      ...(this.jwtRotator ? [this.jwtRotator] : []),
    ];
    for (const fn of this.functions) if (fn !== this.jwtRotator) fn.grantSecretValue(this.database.secret);
    // Not the stream function: the ADOT wrapper is made for buffered handlers, not streamifyResponse.
    if (props.tracing ?? true)
      for (const fn of [this.api.handler, this.webhookSender.handler, this.deadlineSweeper?.handler, this.notifications.notifier?.handler])
        fn?.enableTracing();

    this.dashboard = new Dashboard(this, 'Dashboard', {
      api: this.api.httpApi,
      functions: [
        { name: 'api', fn: this.api.handler },
        { name: 'webhooks', fn: this.webhookSender.handler },
        ...(this.deadlineSweeper ? [{ name: 'deadlines', fn: this.deadlineSweeper.handler }] : []),
      ],
      cluster: this.database.cluster,
      maxCapacity: this.database.maxCapacity,
      deadLetterQueues: [
        { name: 'webhook sender', queue: this.webhookSender.deadLetterQueue },
        ...(this.deadlineSweeper ? [{ name: 'deadline sweeper', queue: this.deadlineSweeper.deadLetterQueue }] : []),
      ],
      alarms: this.alarms.all,
    });
    this.api.handler.grantSecretValue(this.secrets.jwtSecret);
  }

  /** The streams' function URL, and the API told where it is (its 501 names it). */
  private liveStreams(props: ArbiterStackProps, placement: Placement, dbEnv: Readonly<Record<string, string>>): LiveStreams | undefined {
    if (!props.code.stream) {
      Annotations.of(this).addWarningV2(
        'arbiter:no-streams',
        'No stream bundle (dist/stream): GET /v1/games/{id}/events answers 501 STREAMS_UNAVAILABLE.',
      );
      return undefined;
    }
    const streams = new LiveStreams(this, 'Streams', {
      ...placement,
      code: props.code.stream,
      environment: {
        ...dbEnv,
        [SECRET_ENV.JWT_SECRET_ARN]: this.secrets.jwtSecret.secretArn,
        ARBITER_MIGRATE_ON_START: '0',
        ...(props.streams?.pollMs === undefined ? {} : { [STREAM_POLL_ENV]: String(props.streams.pollMs) }),
      },
      ...(props.api?.corsOrigins ? { corsOrigins: props.api.corsOrigins } : {}),
      ...(props.streams?.maxStreams === undefined ? {} : { maxStreams: props.streams.maxStreams }),
    });
    // A stream checks the caller's token as the API does.
    streams.handler.grantSecretValue(this.secrets.jwtSecret);
    this.api.handler.addEnvironment(STREAM_URL_ENV, streams.url.url);
    this.alarms.onFunction('StreamFunction', streams.handler, 'the live streams');
    return streams;
  }

  /** The notification secrets and the SES identity, granted to the API (push and e-mail routes) and the notifier. */
  private notifiers(props: ArbiterStackProps, placement: Placement, dbEnv: Readonly<Record<string, string>>): Notifications {
    const n = new Notifications(this, 'Notifications', {
      ...placement,
      ...props.notifications,
      ...(props.code.notifications ? { code: props.code.notifications } : {}),
      ...(props.code.mailFeedback ? { feedbackCode: props.code.mailFeedback } : {}),
      environment: {
        ...dbEnv,
        ARBITER_MIGRATE_ON_START: '0',
        // Mails link the game under the public address and draw its board (the lexicons' tile values).
        ARBITER_PUBLIC_URL: props.publicUrl ?? this.api.httpApi.apiEndpoint,
        ARBITER_LEXICON_DIR: LAMBDA_LEXICON_DIR,
      },
    });
    n.grantTo(this.api.handler);
    if (n.notifier) {
      this.alarms.onDeadLetters('NotifierFailed', n.notifier.deadLetterQueue, 'the notifier');
      this.alarms.onFunction('NotifierFunction', n.notifier.handler, 'the notifier');
    } else {
      Annotations.of(this).addWarningV2('arbiter:no-notifier', 'No notifier bundle (dist/notifications): no e-mail or Web Push is sent.');
    }
    if (n.feedback?.handler && n.feedback.deadLetterQueue) {
      this.alarms.onDeadLetters('MailFeedbackFailed', n.feedback.deadLetterQueue, 'the SES feedback function');
      this.alarms.onFunction('MailFeedbackFunction', n.feedback.handler, 'the SES feedback function');
    }
    if (!props.notifications?.mailDomain)
      Annotations.of(this).addWarningV2('arbiter:no-mail', 'No mail domain (-c mailDomain=…): no e-mail is sent on AWS.');
    return n;
  }
}

interface Placement {
  readonly vpc: Network['vpc'];
  readonly subnets: Network['functionSubnets'];
  readonly securityGroup: Network['functionsSecurityGroup'];
}
