import { defineConfig } from 'vitest/config';

const FILES = [
  'engine/**/*.test.ts',
  'render/**/*.test.ts',
  'web/**/*.test.ts',
  'cli/**/*.test.ts',
  'test/**/*.test.ts',
  'graph/**/*.test.ts',
  'rest/**/*.test.ts',
  'service/**/*.test.ts',
  'store/**/*.test.ts',
  'infra/**/*.test.ts',
];
const EXCLUDED = ['node_modules/**', 'test/reliability/*.test.ts', 'test/browser/**'];

/**
 * Suites that read what only a fresh process has: the once-per-process cold-start metric and the metrics
 * registry (observability), V8's code-cache tag (compile-cache). They run isolated, each file in a fresh
 * module graph; every other file shares its worker's modules with the files before it (`isolate: false`),
 * which spares each file loading the app again (about 3 s) — `npm test` took a quarter of the time.
 */
const ISOLATED = ['test/observability/**/*.test.ts', 'test/tooling/compile-cache.test.ts'];

export default defineConfig({
  // One copy of graphql: a bare 'graphql' import under vitest can resolve to the ESM build while
  // Yoga/Pothos load the CJS one, and graphql refuses to mix instances.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    // The request log stays out of the test output; the observability tests read it through their own logger.
    // ARBITER_SCRYPT_N: the suite registers thousands of players; at production's 2^17 each would cost 128 MiB
    // and a few hundred ms. Only tests lower it (store/passwords.ts; test/api/password-cost.test.ts checks 2^17 stays the default).
    env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_SCRYPT_N: '16384' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: EXCLUDED, isolate: true } },
      { extends: true, test: { name: 'shared', include: FILES, exclude: [...EXCLUDED, ...ISOLATED], isolate: false } },
    ],
  },
});
