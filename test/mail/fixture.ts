/**
 * The app with real e-mail: the settings of functions/mail-settings.ts pointed at the in-process SMTP
 * server of ./smtp.ts, on a fresh database of a store target, with a clock the test moves.
 */
import { randomUUID } from 'node:crypto';
import { createApp, type App } from '../../functions/app.js';
import { mailFromEnv } from '../../functions/mail-settings.js';
import type { MailDeps } from '../../service/mail-send.js';
import type { Notice, NotificationKind } from '../../service/notification-channels.js';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limits.js';
import { clientOver, LEXICONS, START, TEST_JWT, type TestApi } from '../api/harness.js';
import { openTestDb, type StoreTarget } from '../store/targets.js';
import { TEST_DESTINATIONS } from '../webhooks/fixture.js';
import type { TestSmtp } from './smtp.js';

export const BASE = 'http://arbiter.test';
export const MAIL_SECRET = 'mail-secret-for-tests-0123456789abcdef';

export interface MailApi extends TestApi {
  readonly mail: MailDeps;
}

export const openMailApi = async (target: StoreTarget, smtp: TestSmtp): Promise<MailApi> => {
  const testDb = await openTestDb(target);
  let now = START;
  const clock = () => now;
  const env = {
    ARBITER_SMTP_URL: smtp.url,
    ARBITER_MAIL_SECRET: MAIL_SECRET,
    ARBITER_PUBLIC_URL: BASE,
    ARBITER_MAIL_FROM: 'Arbiter <arbiter@arbiter.test>',
  };
  const mail = await mailFromEnv(env, { lexicons: LEXICONS, now: clock, log: () => undefined });
  if (!mail) throw new Error('no mail from the settings');
  const app: App = await createApp({
    db: testDb.db,
    lexicons: LEXICONS,
    jwt: TEST_JWT,
    now: clock,
    webhookDestinations: TEST_DESTINATIONS,
    rateLimits: DEFAULT_RATE_LIMITS,
    trustedProxies: 0,
    logError: () => undefined,
    robotSweepMs: 0,
    env: {},
    mail,
  });
  const fetch = (path: string, init: RequestInit = {}) => Promise.resolve(app.yoga.fetch(`${BASE}${path}`, init));
  return {
    app,
    mail,
    setNow: (d) => {
      now = d;
    },
    ...clientOver(fetch),
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
};

/** The path and query of an absolute link of a mail, for `api.fetch`. */
export const pathOf = (link: string): string => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

export const linkIn = (text: string, path: string): string => {
  const m = new RegExp(`${BASE.replace(/\./g, '\\.')}${path}\\?token=[^\\s<>"]+`).exec(text);
  if (!m) throw new Error(`no ${path} link in:\n${text}`);
  return m[0];
};

export const notice = (playerId: string, gameId: string | null, kind: NotificationKind, title: string): Notice => ({
  id: randomUUID(),
  playerId,
  kind,
  gameId,
  tournamentId: null,
  version: 3,
  title,
  body: `${title}: open the game to see the board.`,
  url: `${BASE}/play?game=${gameId ?? ''}`,
  at: START,
});

/** RFC 8058's one-click POST, as a mail program sends it. */
export const oneClick = (): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'List-Unsubscribe=One-Click',
});
