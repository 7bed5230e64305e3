import { describe, expect, it } from 'vitest';
import { problemResponse, problemType, statusFor, titleOf } from './problem.js';
import { compilePath } from './route.js';
import { noneMatch, parseIfMatch, RequestProblem } from './request.js';

describe('statusFor: the HTTP status of an Arbiter code, by meaning', () => {
  it.each([
    ['VALIDATION', 400],
    ['BAD_USER_INPUT', 400],
    ['CURSOR_INVALID', 400],
    ['GRAPHQL_VALIDATION_FAILED', 400],
    ['UNAUTHENTICATED', 401],
    ['FORBIDDEN', 403],
    ['NOT_SEATED', 403],
    ['GAME_NOT_FOUND', 404],
    ['WEBHOOK_SUBSCRIPTION_NOT_FOUND', 404],
    ['HANDLE_TAKEN', 409],
    ['NOT_YOUR_TURN', 409],
    ['STALE_VERSION', 409],
    ['TILES_NOT_IN_RACK', 422],
    ['LEXICON_NOT_FOUND', 422],
    ['UNKNOWN_PRESET', 422],
    ['PRECONDITION_REQUIRED', 428],
    ['RATE_LIMITED', 429],
    ['INTERNAL_SERVER_ERROR', 500],
    ['DATABASE_UNAVAILABLE', 503],
  ])('%s → %i', (code, status) => {
    expect(statusFor(code)).toBe(status);
  });

  it('a stale version is 412 when the client sent If-Match, and a route may call a code "not found"', () => {
    expect(statusFor('STALE_VERSION', { ifMatch: true })).toBe(412);
    expect(statusFor('UNKNOWN_PRESET', { ifMatch: false, notFound: ['UNKNOWN_PRESET'] })).toBe(404);
  });
});

describe('problemResponse', () => {
  it('is RFC 9457 problem+json with the GraphQL error members as extensions', async () => {
    const res = problemResponse(
      422,
      { code: 'MISSES_CENTRE', message: 'Cover H8.', citation: { source: 'seed-003', rule: 'rule 3' } },
      '/v1/x',
    );
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({
      type: problemType('MISSES_CENTRE'),
      title: 'Misses centre',
      status: 422,
      detail: 'Cover H8.',
      instance: '/v1/x',
      code: 'MISSES_CENTRE',
      message: 'Cover H8.',
      details: null,
      citation: { source: 'seed-003', rule: 'rule 3' },
    });
  });

  it('429 carries Retry-After from retryAfterSeconds (in details or on the error), rounded up', () => {
    expect(
      problemResponse(429, { code: 'RATE_LIMITED', message: 'Slow down.', details: { retryAfterSeconds: 6.2 } }, '/').headers.get(
        'retry-after',
      ),
    ).toBe('7');
    expect(
      problemResponse(429, { code: 'RATE_LIMITED', message: 'Slow down.', retryAfterSeconds: 30 }, '/').headers.get('retry-after'),
    ).toBe('30');
    expect(problemResponse(429, { code: 'RATE_LIMITED', message: 'Slow down.' }, '/').headers.get('retry-after')).toBe('1');
  });

  it('401 says how to authenticate', () => {
    expect(problemResponse(401, { code: 'UNAUTHENTICATED', message: 'Sign in.' }, '/').headers.get('www-authenticate')).toBe(
      'Bearer realm="arbiter"',
    );
  });

  it('titles read as words', () => {
    expect(titleOf('IDEMPOTENCY_KEY_REUSED')).toBe('Idempotency key reused');
  });
});

describe('ETags and paths', () => {
  it('If-Match takes a quoted version (or a bare one); * is no version; a weak or odd tag is refused', () => {
    expect(parseIfMatch('"12"')).toBe(12);
    expect(parseIfMatch(' 7 ')).toBe(7);
    expect(parseIfMatch('*')).toBeNull();
    expect(() => parseIfMatch('W/"12"')).toThrow(RequestProblem);
    expect(() => parseIfMatch('"abc"')).toThrow(/quoted version/);
  });

  it('If-None-Match compares weakly and takes lists and *', () => {
    expect(noneMatch('"3"', '"3"')).toBe(true);
    expect(noneMatch('W/"3"', '"3"')).toBe(true);
    expect(noneMatch('"1", "3"', '"3"')).toBe(true);
    expect(noneMatch('*', '"3"')).toBe(true);
    expect(noneMatch('"2"', '"3"')).toBe(false);
    expect(noneMatch(null, '"3"')).toBe(false);
  });

  it('path templates match their parameters, decoded, and nothing more', () => {
    const match = compilePath('/games/{id}/turns');
    expect(match('/games/g%201/turns')).toEqual({ id: 'g 1' });
    expect(match('/games/g1/turns/')).toEqual({ id: 'g1' });
    expect(match('/games/g1')).toBeNull();
    expect(match('/games/a/b/turns')).toBeNull();
    expect(match('/games/%E0%A4%A/turns')).toBeNull();
  });
});
