/**
 * The notifications of issue 31 in the stack: the notifier on a schedule like the webhook sender, e-mail
 * through an SES identity with `ses:SendEmail` on that identity alone, the Web Push key pair and the mail
 * links' key in Secrets Manager (ARNs in the environment, read grants to the API and the notifier only),
 * and what happens without a bundle or a mail domain.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, test } from 'vitest';
import { MAIL_ENV } from '../functions/mail-settings.js';
import { VAPID_ENV } from '../functions/vapid-keys.js';
import { FUNCTION_BUNDLES } from '../scripts/build.js';
import { NOTIFY_ENV } from './constructs/notifications.js';
import { ArbiterStack, type ArbiterStackProps } from './stack.js';

const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = {
  graphql: stub('graphql'),
  webhooks: stub('webhooks'),
  migrate: stub('migrate'),
  deadlines: stub('deadlines'),
  mailFeedback: stub('mail-feedback'),
};

type Statement = { Action: string | string[]; Resource: unknown };

const synth = (props: Partial<ArbiterStackProps> = {}, withNotifier = true) => {
  const stack = new ArbiterStack(new App(), 'Test', {
    code: { ...CODE, ...(withNotifier ? { notifications: stub('notifications') } : {}) },
    ...props,
  });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const id = (c: { node: { defaultChild?: unknown } } | CfnElement) =>
    stack.getLogicalId(('node' in c && c.node.defaultChild ? c.node.defaultChild : c) as CfnElement);
  const statements = (fn: lambda.Function): Statement[] => {
    const role = id(fn.role!);
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties['Roles'].some((x: { Ref: string }) => x.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument']['Statement'] as Statement[]);
  };
  const env = (fn: lambda.Function): Record<string, unknown> => resources[id(fn)]!.Properties['Environment']['Variables'];
  return { stack, template, resources, id, statements, env };
};

const actionsOf = (statements: Statement[]) => statements.flatMap((st) => [st.Action].flat());

describe('notifications in the stack', () => {
  const s = synth({ notifications: { mailDomain: 'arbiter.example.org' } });
  const n = s.stack.notifications;
  const notifier = n.notifier!;

  test('the variable names are the ones the code reads', () => {
    expect(NOTIFY_ENV).toEqual({
      MAIL: MAIL_ENV.MAIL,
      MAIL_FROM: MAIL_ENV.FROM,
      MAIL_SECRET_ARN: MAIL_ENV.SECRET_ARN,
      VAPID_SECRET_ARN: VAPID_ENV.SECRET_ARN,
      VAPID_SUBJECT: VAPID_ENV.SUBJECT,
      SES_CONFIGURATION_SET: MAIL_ENV.SES_CONFIGURATION_SET,
    });
  });

  test('the notifier runs the notifications bundle every minute, with a DLQ, no Lambda-side retries, an alarm', () => {
    expect(s.resources[s.id(notifier.handler)]!.Properties['Code']).toEqual({ ZipFile: "exports.handler = async () => 'notifications';" });
    const rule = s.resources[s.id(notifier.rule)]!.Properties;
    expect(rule['ScheduleExpression']).toBe('rate(1 minute)');
    expect(rule['Targets'][0]['Arn']).toEqual({ 'Fn::GetAtt': [s.id(notifier.handler), 'Arn'] });
    expect(rule['Targets'][0]['DeadLetterConfig']['Arn']).toEqual({ 'Fn::GetAtt': [s.id(notifier.deadLetterQueue), 'Arn'] });
    s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: s.id(notifier.handler) },
      MaximumRetryAttempts: 0,
    });
    expect(s.stack.alarms.all.map((a) => a.node.id)).toEqual(expect.arrayContaining(['NotifierFailed', 'NotifierFunctionErrors']));
    expect(s.stack.functions).toContain(notifier.handler);
    expect(FUNCTION_BUNDLES.find((b) => b.name === 'notifications')?.entry).toBe('functions/notifications.ts');
  });

  test('mail goes through SES from the domain identity: ARBITER_MAIL=ses and the From address', () => {
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'arbiter.example.org' });
    for (const fn of [notifier.handler, s.stack.api.handler])
      expect(s.env(fn)).toMatchObject({
        ARBITER_MAIL: 'ses',
        ARBITER_MAIL_FROM: 'notifications@arbiter.example.org',
        ARBITER_VAPID_SUBJECT: 'mailto:postmaster@arbiter.example.org',
        ARBITER_MIGRATE_ON_START: '0',
      });
    expect(JSON.stringify(s.template.findOutputs('MailDkim1'))).toContain('CNAME');
  });

  test('ses:SendEmail on that identity alone, for the notifier and the API only', () => {
    const sesStatements = (fn: lambda.Function) => s.statements(fn).filter((st) => actionsOf([st]).some((a) => a.startsWith('ses:')));
    for (const fn of [notifier.handler, s.stack.api.handler]) {
      const [st, ...more] = sesStatements(fn);
      expect(more).toEqual([]);
      expect(st!.Action).toBe('ses:SendEmail');
      const arn = JSON.stringify(st!.Resource);
      expect(arn).toContain(':identity/');
      expect(arn).toContain(s.id(n.identity!));
      expect(arn).not.toContain('*');
    }
    for (const fn of [s.stack.webhookSender.handler, s.stack.deadlineSweeper!.handler, s.stack.migration.handler])
      expect(sesStatements(fn)).toEqual([]);
  });

  test('the VAPID pair and the mail links’ key: ARNs in the environment, read by the notifier and the API only', () => {
    const vapid = s.id(n.vapidSecret);
    const mail = s.id(n.mailSecret);
    const reads = (fn: lambda.Function) =>
      s
        .statements(fn)
        .filter((st) => st.Action === 'secretsmanager:GetSecretValue')
        .map((st) => (st.Resource as { Ref: string }).Ref);
    for (const fn of [notifier.handler, s.stack.api.handler]) {
      expect(reads(fn)).toEqual(expect.arrayContaining([vapid, mail]));
      expect(s.env(fn)).toMatchObject({ ARBITER_VAPID_SECRET_ARN: { Ref: vapid }, ARBITER_MAIL_SECRET_ARN: { Ref: mail } });
    }
    for (const fn of [s.stack.webhookSender.handler, s.stack.deadlineSweeper!.handler, s.stack.migration.handler])
      expect(reads(fn)).not.toEqual(expect.arrayContaining([vapid]));
    // Generated, never in the template: the pair is put by the operator (docs/deploying.md).
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ SecretStringTemplate: '{}', GenerateStringKey: 'placeholder' }),
    });
  });

  test('SES bounces and complaints: a configuration set publishing them to an encrypted topic, the feedback function subscribed', () => {
    const feedback = n.feedback!;
    const fn = feedback.handler!;
    const set = s.id(feedback.configurationSet);
    s.template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    s.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: set },
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: s.id(feedback.topic) } },
      }),
    });
    // The identity's default set too, so that a mail which does not name it still reports.
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { ConfigurationSetAttributes: { ConfigurationSetName: { Ref: set } } });
    s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [s.id(feedback.key), 'Arn'] } });
    s.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    const key = s.resources[s.id(feedback.key)]!.Properties['KeyPolicy']['Statement'] as { Principal?: { Service?: string } }[];
    expect(key.some((st) => st.Principal?.Service === 'ses.amazonaws.com')).toBe(true);
    const topicPolicy = JSON.stringify(s.template.findResources('AWS::SNS::TopicPolicy'));
    expect(topicPolicy).toContain('aws:SecureTransport');
    expect(topicPolicy).toContain('ses.amazonaws.com');
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: s.id(feedback.topic) },
      Endpoint: { 'Fn::GetAtt': [s.id(fn), 'Arn'] },
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [s.id(feedback.deadLetterQueue!), 'Arn'] } },
    });
    expect(s.resources[s.id(fn)]!.Properties['Code']).toEqual({ ZipFile: "exports.handler = async () => 'mail-feedback';" });
    expect(s.stack.functions).toContain(fn);
    expect(s.env(fn)).toMatchObject({ ARBITER_MIGRATE_ON_START: '0' });
    expect(s.stack.alarms.all.map((a) => a.node.id)).toEqual(expect.arrayContaining(['MailFeedbackFailed', 'MailFeedbackFunctionErrors']));
    expect(FUNCTION_BUNDLES.find((b) => b.name === 'mail-feedback')?.entry).toBe('functions/mail-feedback.ts');
    // Every mail names the set, and sending through it is granted on its ARN beside the identity's.
    for (const sender of [notifier.handler, s.stack.api.handler]) {
      expect(s.env(sender)).toMatchObject({ ARBITER_SES_CONFIGURATION_SET: { Ref: set } });
      const grant = JSON.stringify(s.statements(sender).find((st) => st.Action === 'ses:SendEmail')!.Resource);
      expect(grant).toContain(':configuration-set/');
    }
  });

  test('without a mail domain: no identity, no SES permission, no ARBITER_MAIL, and a warning', () => {
    const m = synth();
    m.template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    m.template.resourceCountIs('AWS::SES::ConfigurationSet', 0);
    m.template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(m.stack.notifications.feedback).toBeUndefined();
    expect(actionsOf(m.statements(m.stack.api.handler)).filter((a) => a.startsWith('ses:'))).toEqual([]);
    expect(m.env(m.stack.notifications.notifier!.handler)['ARBITER_MAIL']).toBeUndefined();
    expect(Annotations.fromStack(m.stack).findWarning('*', Match.stringLikeRegexp('No mail domain'))).toHaveLength(1);
  });

  test('without the notifier bundle: no notifier and a warning, the API still holds the keys', () => {
    const m = synth({}, false);
    expect(m.stack.notifications.notifier).toBeUndefined();
    expect(Annotations.fromStack(m.stack).findWarning('*', Match.stringLikeRegexp('No notifier bundle'))).toHaveLength(1);
    expect(m.env(m.stack.api.handler)['ARBITER_VAPID_SECRET_ARN']).toBeDefined();
  });
});
