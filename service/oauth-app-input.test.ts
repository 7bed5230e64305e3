import { describe, expect, it } from 'vitest';
import { grantedScopes } from './oauth-apps.js';
import { applicationTypeOf, checkAppName, checkIconUrl, checkRedirectUris } from './oauth-app-input.js';

describe('redirect URIs', () => {
  it.each([
    ['https://app.example/callback'],
    ['https://app.example:8443/cb?from=arbiter'],
    // RFC 8252 §7.3: a native app's loopback listener, by IP literal or by name.
    ['http://127.0.0.1:8080/callback'],
    ['http://[::1]/callback'],
    ['http://localhost:3000/callback'],
    // RFC 8252 §7.1: a private-use scheme, a reverse domain name, with a single slash.
    ['com.example.app:/oauth2redirect'],
    ['org.arbiter-fan.board+app:/cb'],
  ])('%s may be registered, exactly as written', (uri) => {
    expect(checkRedirectUris([uri])).toEqual({ ok: true, value: [uri] });
  });

  it.each([
    ['http://app.example/callback', 'NOT_HTTPS'],
    ['http://127.0.0.2/callback', 'NOT_HTTPS'],
    ['http://localhost.app.example/callback', 'NOT_HTTPS'],
    ['https://app.example/callback#done', 'FRAGMENT'],
    ['https://app.example/callback#', 'FRAGMENT'],
    ['https://*.app.example/callback', 'WILDCARD'],
    ['https://app.example/*', 'WILDCARD'],
    ['/callback', 'NOT_ABSOLUTE'],
    ['app.example/callback', 'NOT_ABSOLUTE'],
    ['https://user:pass@app.example/callback', 'CREDENTIALS'],
    ['https://localhost/callback', 'HTTPS_LOOPBACK'],
    ['https://127.0.0.1:8443/callback', 'HTTPS_LOOPBACK'],
    ['javascript:alert(1)', 'SCHEME_FORBIDDEN'],
    ['data:text/html,hi', 'SCHEME_FORBIDDEN'],
    ['file:///etc/passwd', 'SCHEME_FORBIDDEN'],
    ['myapp:/callback', 'SCHEME_NOT_PRIVATE_USE'],
    ['mailto:someone@app.example', 'SCHEME_NOT_PRIVATE_USE'],
    ['com.example.app://callback', 'PRIVATE_USE_FORM'],
    ['com.example.app:callback', 'PRIVATE_USE_FORM'],
    ['https://app.example/call back', 'WHITESPACE'],
    [`https://app.example/${'a'.repeat(2100)}`, 'TOO_LONG'],
  ])('%s is refused: %s, naming the URI and its place', (uri, reason) => {
    const r = checkRedirectUris(['https://fine.example/cb', uri]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('APP_REDIRECT_URI_INVALID');
    expect(r.error.details).toMatchObject({ field: 'redirectUris.1', reason });
    expect(r.error.message).toContain(uri.slice(0, 40));
  });

  it('refuses none, more than ten, and the same URI twice', () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`);
    for (const uris of [[], many]) {
      const r = checkRedirectUris(uris);
      expect(!r.ok && r.error.details).toMatchObject({ field: 'redirectUris', reason: 'COUNT', count: uris.length });
    }
    expect(checkRedirectUris(many.slice(0, 10)).ok).toBe(true);
    const twice = checkRedirectUris(['https://app.example/a', 'https://app.example/b', 'https://app.example/a']);
    expect(!twice.ok && twice.error.details).toMatchObject({ field: 'redirectUris.2', reason: 'DUPLICATE' });
  });

  it('is a native app when one URI is loopback http or its own scheme (oidc-provider then lets the loopback port vary)', () => {
    expect(applicationTypeOf(['https://app.example/cb'])).toBe('web');
    expect(applicationTypeOf(['https://app.example/cb', 'http://127.0.0.1/cb'])).toBe('native');
    expect(applicationTypeOf(['com.example.app:/cb'])).toBe('native');
  });
});

describe('name and icon', () => {
  it('trims a name and holds it to 1–80 characters', () => {
    expect(checkAppName('  Board Buddy ')).toEqual({ ok: true, value: 'Board Buddy' });
    expect(checkAppName('x'.repeat(80)).ok).toBe(true);
    for (const bad of ['', '   ', 'x'.repeat(81)]) {
      const r = checkAppName(bad);
      expect(!r.ok && r.error.code).toBe('APP_NAME_INVALID');
      expect(!r.ok && r.error.details?.['field']).toBe('name');
    }
  });

  it.each([
    ['http://app.example/icon.png', 'NOT_HTTPS'],
    ['icon.png', 'NOT_ABSOLUTE'],
    ['data:image/png;base64,AAAA', 'NOT_HTTPS'],
    ['https://u:p@app.example/icon.png', 'CREDENTIALS'],
  ])('refuses the icon %s: %s', (url, reason) => {
    const r = checkIconUrl(url);
    expect(!r.ok && r.error.details).toMatchObject({ field: 'iconUrl', reason });
    expect(checkIconUrl('https://app.example/icon.png').ok).toBe(true);
  });
});

describe('the scopes of a grant as oidc-provider stores it', () => {
  it('reads openid.scope and every resource, less what was rejected, in API_SCOPES order', () => {
    expect(
      grantedScopes({ openid: { scope: 'openid offline_access' }, resources: { 'https://arbiter.example/': 'games:play games:read' } }),
    ).toEqual(['games:read', 'games:play']);
    expect(grantedScopes({ openid: { scope: 'games:read webhooks:manage' } })).toEqual(['games:read', 'webhooks:manage']);
    expect(
      grantedScopes({
        resources: { 'https://arbiter.example/': 'games:read games:play' },
        rejected: { resources: { 'https://arbiter.example/': 'games:play' } },
      }),
    ).toEqual(['games:read']);
    expect(grantedScopes(null)).toEqual([]);
    expect(grantedScopes({ openid: { scope: 42 } })).toEqual([]);
  });
});
