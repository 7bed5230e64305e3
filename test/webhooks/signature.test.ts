import { describe, expect, it } from 'vitest';
import { defaultBackoff } from '../../service/webhook-delivery.js';
import { parseWebhookOutboxPayload } from '../../service/webhook-events.js';
import { signPayload, verifySignature } from '../../service/webhook-signature.js';
import { validateEventKinds, validateWebhookUrl } from '../../service/webhook-subscriptions.js';

const SECRET = 'whsec_test';
const BODY = '{"id":"evt_1","kind":"your-turn"}';
const AT = new Date(1_700_000_000_000);
// printf '%s' '1700000000.{"id":"evt_1","kind":"your-turn"}' | openssl dgst -sha256 -hmac whsec_test
const OPENSSL_HMAC = '650e10364f2894a288c2a1a694276a1819ade6ca0a0b560afd34603d0026d83f';

describe('signPayload / verifySignature', () => {
  it('signs "t.body" with HMAC-SHA256 under the secret, Stripe style', () => {
    expect(signPayload(SECRET, AT, BODY)).toBe(`t=1700000000,v1=${OPENSSL_HMAC}`);
  });

  it('drops milliseconds from the timestamp', () => {
    expect(signPayload(SECRET, new Date(1_700_000_000_999), BODY)).toBe(`t=1700000000,v1=${OPENSSL_HMAC}`);
  });

  it.each([
    ['at the signing second', 0],
    ['300 s later (the edge of the tolerance)', 300_000],
    ['300 s earlier (receiver clock behind)', -300_000],
  ])('accepts a valid header %s', (_, offset) => {
    const result = verifySignature(SECRET, `t=1700000000,v1=${OPENSSL_HMAC}`, BODY, new Date(AT.getTime() + offset));
    expect(result).toEqual({ ok: true, value: { timestamp: AT } });
  });

  it('accepts when any of several v1 signatures matches (secret rotation)', () => {
    const header = `t=1700000000,v1=${'0'.repeat(64)},v1=${OPENSSL_HMAC}`;
    expect(verifySignature(SECRET, header, BODY, AT).ok).toBe(true);
  });

  it.each([
    ['a replay 301 s later', `t=1700000000,v1=${OPENSSL_HMAC}`, BODY, SECRET, 301_000, 'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE'],
    ['a timestamp 10 min in the future', `t=1700000600,v1=${OPENSSL_HMAC}`, BODY, SECRET, 0, 'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE'],
    ['a changed body', `t=1700000000,v1=${OPENSSL_HMAC}`, BODY.replace('evt_1', 'evt_2'), SECRET, 0, 'SIGNATURE_MISMATCH'],
    ['another secret', `t=1700000000,v1=${OPENSSL_HMAC}`, BODY, 'whsec_other', 0, 'SIGNATURE_MISMATCH'],
    ['a moved timestamp (t is signed)', `t=1700000001,v1=${OPENSSL_HMAC}`, BODY, SECRET, 0, 'SIGNATURE_MISMATCH'],
    ['no v1', 't=1700000000', BODY, SECRET, 0, 'SIGNATURE_MALFORMED'],
    ['no t', `v1=${OPENSSL_HMAC}`, BODY, SECRET, 0, 'SIGNATURE_MALFORMED'],
    ['a short v1', 't=1700000000,v1=abcd', BODY, SECRET, 0, 'SIGNATURE_MALFORMED'],
    ['an empty header', '', BODY, SECRET, 0, 'SIGNATURE_MALFORMED'],
  ])('rejects %s', (_, header, body, secret, offset, code) => {
    const result = verifySignature(secret, header, body, new Date(AT.getTime() + offset));
    expect(result.ok ? null : result.error.code).toBe(code);
    expect(result.ok ? null : result.error.details).toMatchObject({ field: 'Arbiter-Signature' });
  });

  it('honours a custom tolerance', () => {
    const header = `t=1700000000,v1=${OPENSSL_HMAC}`;
    expect(verifySignature(SECRET, header, BODY, new Date(AT.getTime() + 61_000), 60).ok).toBe(false);
    expect(verifySignature(SECRET, header, BODY, new Date(AT.getTime() + 60_000), 60).ok).toBe(true);
  });
});

describe('defaultBackoff', () => {
  const id = '6f1c2a4e-0000-4000-8000-000000000001';
  // Base delays 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h; jitter below a tenth of the base.
  it.each([
    [1, 30_000],
    [2, 120_000],
    [3, 600_000],
    [4, 3_600_000],
    [5, 10_800_000],
    [6, 21_600_000],
    [7, 43_200_000],
    [8, 43_200_000],
  ])('after failed attempt %i waits the base %i ms plus less than 10 %%', (n, base) => {
    const delay = defaultBackoff(n, id);
    expect(delay).toBeGreaterThanOrEqual(base);
    expect(delay).toBeLessThan(base * 1.1);
    expect(defaultBackoff(n, id)).toBe(delay); // reproducible
  });

  it('jitters differently for different deliveries', () => {
    const delays = new Set(
      Array.from({ length: 20 }, (_, i) => defaultBackoff(1, `6f1c2a4e-0000-4000-8000-${String(i).padStart(12, '0')}`)),
    );
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('validateWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/arbiter', 'https://hooks.example.com/arbiter'],
    ['https://hooks.example.com:8443/a?b=c', 'https://hooks.example.com:8443/a?b=c'],
  ])('accepts %s', (url, normalised) => {
    expect(validateWebhookUrl(url)).toEqual({ ok: true, value: normalised });
  });

  it.each(['http://127.0.0.1:9000/hook', 'http://localhost:3000/hook'])(
    'accepts %s only with the development setting (allowLocal)',
    (url) => {
      expect(validateWebhookUrl(url, true)).toEqual({ ok: true, value: url });
      expect(validateWebhookUrl(url)).toMatchObject({ ok: false, error: { code: 'WEBHOOK_URL_NOT_HTTPS' } });
    },
  );

  it.each([
    ['http://hooks.example.com/arbiter', 'WEBHOOK_URL_NOT_HTTPS'],
    ['http://127.0.0.2/hook', 'WEBHOOK_URL_NOT_HTTPS'],
    ['http://localhost.example.com/hook', 'WEBHOOK_URL_NOT_HTTPS'],
    ['ftp://hooks.example.com/', 'WEBHOOK_URL_NOT_HTTPS'],
    ['hooks.example.com/arbiter', 'WEBHOOK_URL_INVALID'],
    ['https://user:pw@hooks.example.com/', 'WEBHOOK_URL_INVALID'],
    [`https://example.com/${'a'.repeat(2048)}`, 'WEBHOOK_URL_INVALID'],
  ])('refuses %s with %s naming the url field', (url, code) => {
    const result = validateWebhookUrl(url);
    expect(result.ok ? null : [result.error.code, result.error.details?.['field']]).toEqual([code, 'url']);
  });
});

describe('validateEventKinds', () => {
  it('de-duplicates and orders the kinds', () => {
    expect(validateEventKinds(['game-ended', 'your-turn', 'game-ended'])).toEqual({ ok: true, value: ['your-turn', 'game-ended'] });
  });
  it.each([[[]], [['your-turn', 'turn-played']]])('refuses %j naming the kinds field', (kinds) => {
    const result = validateEventKinds(kinds);
    expect(result.ok ? null : [result.error.code, result.error.details?.['field']]).toEqual(['WEBHOOK_KINDS_INVALID', 'kinds']);
  });
});

describe('parseWebhookOutboxPayload', () => {
  const gameId = '11111111-2222-4333-8444-555555555555';
  it('accepts the contract and keeps extra fields', () => {
    const payload = { kind: 'your-turn', gameId, version: 3, seat: 1, deadlineAt: '2030-01-01T00:00:00.000Z' };
    expect(parseWebhookOutboxPayload({ kind: 'your-turn', gameId, payload })).toEqual({ ok: true, value: payload });
  });
  it.each([
    ['a non-object', 'game-ended', [], /JSON object/],
    ['a kind other than the row', 'game-ended', { kind: 'your-turn', gameId, version: 1 }, /payload.kind/],
    ['another game', 'game-ended', { kind: 'game-ended', gameId: '11111111-2222-4333-8444-000000000000', version: 1 }, /payload.gameId/],
    ['no version', 'game-ended', { kind: 'game-ended', gameId }, /payload.version/],
    ['your-turn without seat', 'your-turn', { kind: 'your-turn', gameId, version: 1 }, /payload.seat is required/],
    ['seat 2', 'your-turn', { kind: 'your-turn', gameId, version: 1, seat: 2 }, /payload.seat must be 0 or 1/],
    ['a bad playerId', 'your-turn', { kind: 'your-turn', gameId, version: 1, seat: 0, playerId: 'bob' }, /payload.playerId/],
  ])('refuses %s', (_, kind, payload, message) => {
    const result = parseWebhookOutboxPayload({ kind, gameId, payload });
    expect(result.ok ? null : result.error).toMatch(message);
  });
});
