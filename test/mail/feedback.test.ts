/**
 * SES bounces and complaints (service/mail-feedback.ts through the Lambda of functions/mail-feedback.ts),
 * on each store target. The SNS messages are AWS's documented examples, with our players' addresses and
 * times of this run put in:
 * - the Bounce record of https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html
 *   (configuration-set event publishing, `eventType`);
 * - the complaint object of https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html#complaint-object
 *   and the identity-notification shape (`notificationType`) of
 *   https://docs.aws.amazon.com/ses/latest/dg/notification-examples.html.
 */
import type { SNSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailFeedbackHandler } from '../../functions/mail-feedback.js';
import { sesTransport } from '../../functions/mail-settings.js';
import { reachableAddress } from '../../service/mail-addresses.js';
import { handleSesNotification, parseSesNotification } from '../../service/mail-feedback.js';
import { notificationPreferences } from '../../service/notification-prefs.js';
import type { Db } from '../../store/db.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';

const MAIL = {
  timestamp: '2017-08-05T00:40:02.012Z',
  source: 'Sender Name <sender@example.com>',
  sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
  sendingAccountId: '123456789012',
  messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
  destination: ['recipient@example.com'],
  headersTruncated: false,
  tags: { 'ses:configuration-set': ['ConfigSet'] },
};

/** The documented Bounce record (event publishing), for `address`, at `at`. */
const bounceRecord = (address: string, at: string, bounceType = 'Permanent', bounceSubType = 'General') => ({
  eventType: 'Bounce',
  bounce: {
    bounceType,
    bounceSubType,
    bouncedRecipients: [{ emailAddress: address, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    timestamp: at,
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    reportingMTA: 'dsn; mta.example.com',
  },
  mail: { ...MAIL, destination: [address] },
});

/** A complaint as an identity notification (`notificationType`), with the documented complaint fields. */
const complaintNotification = (address: string, at: string) => ({
  notificationType: 'Complaint',
  complaint: {
    userAgent: 'AnyCompany Feedback Loop (V0.01)',
    complainedRecipients: [{ emailAddress: address }],
    complaintFeedbackType: 'abuse',
    arrivalDate: at,
    timestamp: at,
    feedbackId: '000001378603177f-18c07c78-fa81-4a58-9dd1-fedc3cb8f49a-000000',
  },
  mail: { ...MAIL, destination: [address] },
});

/** The SNS event Lambda receives for one published message. */
const snsEvent = (...messages: unknown[]): SNSEvent => ({
  Records: messages.map((m, i) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:mail-feedback:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55',
    Sns: {
      Type: 'Notification',
      MessageId: `95df01b4-ee98-5cb9-9903-4c221d41eb5e-${i}`,
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:mail-feedback',
      Subject: null as unknown as string,
      Message: typeof m === 'string' ? m : JSON.stringify(m),
      Timestamp: new Date().toISOString(),
      SignatureVersion: '1',
      Signature: 'EXAMPLE',
      SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-EXAMPLE.pem',
      UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
      MessageAttributes: {},
    },
  })),
});

const BEFORE = new Date('2026-01-01T00:00:00Z');

describe.each(STORE_TARGETS)('SES feedback on $kind', (target) => {
  let testDb: TestDb;
  let db: Db;
  const lines: string[] = [];
  const handler = createMailFeedbackHandler({ getDb: () => Promise.resolve(db), log: (l) => lines.push(l) });

  /** A player with a verified address, last changed before the notifications of the test. */
  const player = async (handle: string, address: string): Promise<string> => {
    const { id } = await db.prisma.player.create({ data: { handle, displayName: handle } });
    await db.prisma.playerEmail.create({
      data: { playerId: id, address, state: 'verified', nonce: handle, verifiedAt: BEFORE, createdAt: BEFORE, updatedAt: BEFORE },
    });
    return id;
  };
  const row = (playerId: string) => db.prisma.playerEmail.findUniqueOrThrow({ where: { playerId } });

  beforeAll(async () => {
    testDb = await openTestDb(target);
    db = testDb.db;
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('a Permanent bounce makes the address bounced and unreachable; a replay changes nothing', async () => {
    const ann = await player('ann', 'ann@example.org');
    const ben = await player('ben', 'ben@example.org');
    expect(await reachableAddress(db, ann)).toBe('ann@example.org');
    const at = new Date().toISOString();
    const [outcome] = await handler(snsEvent(bounceRecord('Ann@Example.org', at)));
    expect(outcome).toMatchObject({ kind: 'bounce', bounced: [ann], emailOff: [] });
    expect(await reachableAddress(db, ann)).toBeNull();
    const bounced = await row(ann);
    expect(bounced).toMatchObject({ state: 'bounced', bounceReason: 'SES Permanent/General: smtp; 550 5.1.1 user unknown' });
    expect(bounced.bouncedAt?.toISOString()).toBe(at);
    expect(await reachableAddress(db, ben)).toBe('ben@example.org');
    expect(lines.at(-1)).toContain('"msg":"mail.feedback"');
    expect(lines.at(-1)).not.toContain('ann@example.org'); // player ids in the log, not addresses

    const [again] = await handler(snsEvent(bounceRecord('ann@example.org', new Date().toISOString())));
    expect(again).toMatchObject({ kind: 'bounce', bounced: [] });
    expect(await row(ann)).toEqual(bounced);
  });

  it('a bounce older than the address (set again since) leaves it alone', async () => {
    const cay = await player('cay', 'cay@example.org');
    await handler(snsEvent(bounceRecord('cay@example.org', '2017-08-05T00:41:02.669Z')));
    expect(await reachableAddress(db, cay)).toBe('cay@example.org');
  });

  it('a complaint turns e-mail off for that player, once', async () => {
    const dee = await player('dee', 'dee@example.org');
    expect(Object.values((await notificationPreferences(db, dee)).channels).some((c) => c.includes('email'))).toBe(true);
    const [outcome] = await handler(snsEvent(complaintNotification('dee@example.org', new Date().toISOString())));
    expect(outcome).toMatchObject({ kind: 'complaint', emailOff: [dee], bounced: [] });
    expect(outcome!.note).toContain('e-mail turned off for 1 player');
    const prefs = await notificationPreferences(db, dee);
    expect(Object.values(prefs.channels).some((c) => c.includes('email'))).toBe(false);
    const stored = await db.prisma.notificationPreference.findUniqueOrThrow({ where: { playerId: dee } });

    const [again] = await handler(snsEvent(complaintNotification('dee@example.org', '2017-08-05T00:41:02.669Z')));
    expect(again).toMatchObject({ kind: 'complaint', emailOff: [] });
    expect(await db.prisma.notificationPreference.findUniqueOrThrow({ where: { playerId: dee } })).toEqual(stored);
    // The address itself stays verified: the player may turn e-mail on again.
    expect((await row(dee)).state).toBe('verified');
  });

  it('a Transient bounce changes nothing but a log line', async () => {
    const eve = await player('eve', 'eve@example.org');
    const before = await row(eve);
    const [outcome] = await handler(snsEvent(bounceRecord('eve@example.org', new Date().toISOString(), 'Transient', 'MailboxFull')));
    expect(outcome).toMatchObject({ kind: 'bounce', bounced: [], emailOff: [] });
    expect(outcome!.note).toContain('Transient');
    expect(await row(eve)).toEqual(before);
    expect(lines.at(-1)).toContain('Transient');
  });

  it('malformed or unknown messages are logged and ignored, never thrown', async () => {
    const fay = await player('fay', 'fay@example.org');
    const junk = [
      'not json {',
      'null',
      '[1,2]',
      { eventType: 'Delivery', delivery: {}, mail: MAIL },
      { eventType: 'Bounce' },
      { eventType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: 42 }, 'x', null] } },
      { notificationType: 'Complaint', complaint: { complainedRecipients: 'fay@example.org' } },
      { Type: 'SubscriptionConfirmation', Message: 'You have chosen to subscribe' },
    ];
    const outcomes = await handler(snsEvent(...junk));
    expect(outcomes.map((o) => o.kind)).toEqual(junk.map(() => 'ignored'));
    await expect(handler({} as SNSEvent)).resolves.toEqual([]);
    await expect(handleSesNotification(db, undefined, { log: () => undefined })).resolves.toMatchObject({ kind: 'ignored' });
    expect(await reachableAddress(db, fay)).toBe('fay@example.org');
    expect(lines.filter((l) => l.includes('ignored')).length).toBeGreaterThanOrEqual(junk.length);
  });
});

describe('parseSesNotification', () => {
  it('reads both shapes and the address out of a display name', () => {
    const at = '2017-08-05T00:41:02.669Z';
    expect(parseSesNotification(JSON.stringify(bounceRecord('"Jo" <jo@Example.ORG>', at)))).toMatchObject({
      kind: 'bounce',
      bounceType: 'Permanent',
      recipients: [{ address: 'jo@example.org' }],
      at: new Date(at),
    });
    expect(parseSesNotification(complaintNotification('jo@example.org', at))).toMatchObject({
      kind: 'complaint',
      recipients: ['jo@example.org'],
      feedbackType: 'abuse',
    });
  });
});

describe('the SES transport', () => {
  it('names the configuration set in every mail, so that SES publishes its bounces and complaints', async () => {
    const sent: Record<string, unknown>[] = [];
    const client = {
      config: { region: () => Promise.resolve('eu-west-1') },
      send: (command: { input: Record<string, unknown> }) => {
        sent.push(command.input);
        return Promise.resolve({ MessageId: 'EXAMPLE-000000' });
      },
    };
    const message = { from: 'arbiter@example.org', to: 'ann@example.org', subject: 'Hi', text: 'Hi' };
    await (await sesTransport('arbiter-mail', client)).sendMail(message);
    await (await sesTransport(undefined, client)).sendMail(message);
    expect(sent[0]).toMatchObject({ ConfigurationSetName: 'arbiter-mail', Destination: { ToAddresses: ['ann@example.org'] } });
    expect(sent[1]).not.toHaveProperty('ConfigurationSetName');
  });
});
