import type { SNSEvent } from 'aws-lambda';
import type { Db } from '../store/db.js';
import { handleSesNotification, type FeedbackOutcome } from '../service/mail-feedback.js';
import { containerDb } from './container-db.js';
import { observeRun, workerLog } from './observability/worker.js';

/**
 * The SES feedback Lambda (docs/notifications.md, "Bounces and complaints on AWS"): subscribed to the SNS
 * topic the stack's SES configuration set publishes Bounce and Complaint events to
 * (infra/constructs/notifications.ts). Each record's message goes to service/mail-feedback.ts, which
 * marks a permanently bouncing address `bounced` and turns e-mail off after a complaint.
 *
 * A message that is not SES's JSON is logged and dropped, not thrown: Lambda would retry it (twice, for
 * an SNS invocation) and it would fail the same way. A database error does throw, so that the retries
 * get another chance; the work is idempotent, so a retried record changes nothing twice.
 */

export interface MailFeedbackHandlerDeps {
  /** The database, opened once per container. */
  readonly getDb: () => Promise<Db>;
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

export const createMailFeedbackHandler =
  (deps: MailFeedbackHandlerDeps) =>
  (event: SNSEvent): Promise<FeedbackOutcome[]> =>
    observeRun('mail-feedback', async () => {
      const log = workerLog(deps.log);
      const records = Array.isArray(event?.Records) ? event.Records : [];
      if (records.length === 0) log('warn', { msg: 'mail.feedback', note: 'ignored: an event without SNS records' });
      const db = await deps.getDb();
      const outcomes: FeedbackOutcome[] = [];
      for (const record of records)
        outcomes.push(
          await handleSesNotification(db, record?.Sns?.Message, {
            ...(deps.now ? { now: deps.now } : {}),
            log: (level, line) => log(level, { ...line, snsMessageId: record?.Sns?.MessageId }),
          }),
        );
      return outcomes;
    });

/** The Lambda entry point (an SNS event). */
export const handler = createMailFeedbackHandler({ getDb: () => containerDb() });
