import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress, trustedProxiesFromEnv } from './client-address.js';

const request = (forwarded?: string) =>
  new Request('http://arbiter.test/graphql', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });

describe('addressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['not an address', null],
    ['', null],
  ])('%s → %s', (text, key) => {
    expect(addressKey(text)).toBe(key);
  });
});

describe('clientAddress', () => {
  it('takes the socket peer or the API Gateway source, and ignores X-Forwarded-For unless proxies are trusted', () => {
    expect(clientAddress({ request: request('1.1.1.1'), req: { socket: { remoteAddress: '::ffff:127.0.0.1' } } }, 0)).toBe('127.0.0.1');
    expect(clientAddress({ request: request('1.1.1.1'), event: { requestContext: { http: { sourceIp: '198.51.100.4' } } } }, 0)).toBe(
      '198.51.100.4',
    );
    expect(clientAddress({ request: request() }, 0)).toBeNull();
  });

  it('with trusted proxies, takes the entry that many places from the right (what the client wrote further left is ignored)', () => {
    const peer = { req: { socket: { remoteAddress: '10.0.0.2' } } };
    expect(clientAddress({ request: request('6.6.6.6, 198.51.100.9'), ...peer }, 1)).toBe('198.51.100.9');
    expect(clientAddress({ request: request('6.6.6.6, 198.51.100.9, 10.0.0.1'), ...peer }, 2)).toBe('198.51.100.9');
    expect(clientAddress({ request: request(), ...peer }, 1)).toBe('10.0.0.2');
  });

  it('reads ARBITER_TRUST_PROXY', () => {
    expect(trustedProxiesFromEnv({})).toBe(0);
    expect(trustedProxiesFromEnv({ ARBITER_TRUST_PROXY: '1' })).toBe(1);
    expect(() => trustedProxiesFromEnv({ ARBITER_TRUST_PROXY: 'yes' })).toThrow(/ARBITER_TRUST_PROXY/);
  });
});
