/**
 * The browser pages (issue 20): /play, GraphiQL at /graphql and the API docs at /rest/docs are served
 * with every script, style and worker from this server, under a Content-Security-Policy of 'self'.
 * Each page is crawled: every file it names is fetched from the app itself, and no page names another
 * host. (test/browser/ proves the same in a real browser with every outside request blocked.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../functions/app.js';
import { devStaticFiles } from '../../functions/dev-assets.js';
import { CONTENT_SECURITY_POLICY, TOOLS_CONTENT_SECURITY_POLICY } from '../../graph/pages.js';
import { LEXICONS, openTestApi, STORE_TARGETS, TEST_JWT, type TestApi } from './harness.js';

describe('the browser pages are served from this server', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!, { app: { graphiql: true, staticFiles: devStaticFiles() } });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** The page, its CSP, and every file its `src`/`href` attributes name, fetched. */
  const crawl = async (path: string, accept = 'text/html') => {
    const res = await api.fetch(path, { headers: { accept } });
    expect(res.status, path).toBe(200);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    const files = await Promise.all(refs.map(async (ref) => ({ ref, res: await api.fetch(ref) })));
    return { res, html, refs, files };
  };

  test.each([
    ['/play', CONTENT_SECURITY_POLICY, ['/play/app.js', '/play/app.css', '/favicon.svg']],
    ['/rest/docs', TOOLS_CONTENT_SECURITY_POLICY, ['/rest/docs/swagger-ui-bundle.js', '/rest/docs/swagger-ui.css', '/rest/docs/start.js']],
    [
      '/graphql',
      TOOLS_CONTENT_SECURITY_POLICY,
      ['/graphiql/graphiql.js', '/graphiql/graphiql.css', '/graphiql/env.js', '/graphiql/start.js'],
    ],
  ])('%s: its own files only, under a same-origin CSP', async (path, csp, expected) => {
    const { res, html, refs, files } = await crawl(path);
    expect(res.headers.get('content-security-policy')).toBe(csp);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const ref of expected) expect(refs).toContain(ref);
    for (const ref of refs) expect(ref, 'a path of this server').toMatch(/^\/[a-z]/);
    expect(html).not.toMatch(/unpkg|jsdelivr|githubusercontent|cdn\./i);
    expect(html, 'no inline script').not.toMatch(/<script(?![^>]*type="application\/json")[^>]*>[^<]/);
    for (const f of files) {
      expect(f.res.status, f.ref).toBe(200);
      expect(f.res.headers.get('content-type'), f.ref).toMatch(/^(text\/javascript|text\/css|image\/svg\+xml)/);
    }
  });

  test('the policies allow only this origin to be contacted', () => {
    for (const csp of [CONTENT_SECURITY_POLICY, TOOLS_CONTENT_SECURITY_POLICY]) {
      for (const directive of ['default-src', 'script-src', 'connect-src', 'worker-src']) expect(csp).toContain(`${directive} 'self'`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:|\*|'unsafe-eval'/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toContain('data:');
  });

  test('GraphiQL’s editor workers are files of this server too', async () => {
    const env = await (await api.fetch('/graphiql/env.js')).text();
    const workers = [...env.matchAll(/'(\/graphiql\/[\w.]+\.worker\.js)'/g)].map((m) => m[1]!);
    expect(workers).toHaveLength(3);
    for (const w of workers) expect((await api.fetch(w)).status).toBe(200);
  });

  test('the play page bundle is built from web/ and talks to /graphql only', async () => {
    const js = await (await api.fetch('/play/app.js')).text();
    expect(js).toContain('/graphql');
    expect(js).toContain('checkPlay');
    expect(js).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  test('an app without the files answers 404 for them, not an error', async () => {
    // The same database, no files: as the API Lambda would be if the build had not written them.
    const bare = await createApp({ db: api.app.services.db, lexicons: LEXICONS, jwt: TEST_JWT, registerLexicons: false });
    expect((await bare.yoga.fetch('http://arbiter.test/play')).status).toBe(200);
    expect((await bare.yoga.fetch('http://arbiter.test/play/app.js')).status).toBe(404);
  });
});
