/**
 * The limit of `POST /oauth/token` (docs/apps.md#limits-of-the-token-endpoint), on PGlite and on Postgres:
 * per address and per app (the client_id of the form or of HTTP Basic), refused with 429, Retry-After and
 * an RFC 6749 error body, an address's refusal taking nothing from the app's bucket, and both buckets
 * refilling as the injected clock moves on. Small limits, so that a handful of requests reach them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limits.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from '../api/harness.js';

const LIMITS = {
  ...DEFAULT_RATE_LIMITS,
  buckets: {
    ...DEFAULT_RATE_LIMITS.buckets,
    oauthToken: { address: { capacity: 3, periodSeconds: 60 }, client: { capacity: 5, periodSeconds: 60 } },
  },
};

const clientId = () => `app_${randomBytes(16).toString('base64url')}`;

describe.each(STORE_TARGETS)('the token endpoint’s limit on $kind', (target) => {
  let api: TestApi;

  beforeAll(async () => {
    // One proxy in front: the address is the last X-Forwarded-For entry, so a test speaks from any address it likes.
    api = await openTestApi(target, { rateLimits: LIMITS, trustedProxies: 1 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const token = async (from: string, client: string, basic = false) => {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-real-refresh-token' });
    if (!basic) form.set('client_id', client);
    const res = await api.fetch('/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': from,
        ...(basic ? { authorization: `Basic ${Buffer.from(`${client}:appsec_whatever`).toString('base64')}` } : {}),
      },
      body: form.toString(),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
  };

  it('refuses an address past its limit, and an app past its own from any address; both recover as time passes', async () => {
    api.setNow(START);
    const x = clientId();
    const y = clientId();
    // Address A: three requests reach the server (an unknown client is oidc-provider's invalid_client), the fourth is refused.
    for (let i = 0; i < 3; i++) expect((await token('203.0.113.1', x)).status).not.toBe(429);
    const byAddress = await token('203.0.113.1', x);
    expect(byAddress.status).toBe(429);
    expect(byAddress.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/this address/) });
    expect(byAddress.headers.get('retry-after')).toBe('20'); // 3 a minute: one token every 20 s
    expect(byAddress.headers.get('cache-control')).toBe('no-store');
    expect(byAddress.headers.get('content-type')).toMatch(/^application\/json/);

    // App X has taken 3 (the refused fourth took nothing from it): two more from address B, then X is refused.
    for (let i = 0; i < 2; i++) expect((await token('203.0.113.2', x)).status).not.toBe(429);
    const byClient = await token('203.0.113.2', x);
    expect(byClient.status).toBe(429);
    expect(byClient.body['error']).toBe('temporarily_unavailable');
    expect(byClient.body['error_description']).toMatch(/this app/);
    expect(Number(byClient.headers.get('retry-after'))).toBeGreaterThan(0);
    // … also when it authenticates with HTTP Basic, from a fresh address; another app is not held back.
    expect((await token('203.0.113.3', x, true)).status).toBe(429);
    expect((await token('203.0.113.4', y)).status).not.toBe(429);

    // A minute later both buckets are full again.
    api.setNow(new Date(START.getTime() + 60_000));
    const again = await token('203.0.113.1', x);
    expect(again.status).not.toBe(429);
    expect(again.body['error']).toBe('invalid_client');
  });

  it('gives a malformed client_id no bucket of its own (the address still counts it)', async () => {
    api.setNow(new Date(START.getTime() + 3_600_000));
    for (let i = 0; i < 3; i++) expect((await token('198.51.100.9', `bogus-${i}`)).status).not.toBe(429);
    expect((await token('198.51.100.9', 'bogus-3')).status).toBe(429);
    const kinds = await api.app.services.db.prisma.rateLimitBucket.findMany({
      where: { action: 'oauthToken', subjectId: { startsWith: 'bogus' } },
    });
    expect(kinds).toEqual([]);
  });
});
