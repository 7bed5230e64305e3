import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the suites under test/browser/, which drive Debian's Chromium
 * (/usr/bin/chromium, or ARBITER_CHROMIUM) with playwright-core against the app on a local port.
 */
export default defineConfig({
  // One copy of graphql (see vitest.config.ts).
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/browser/**/*.test.ts'],
    exclude: ['node_modules/**'],
    // One browser, one server: the files run one after another.
    fileParallelism: false,
    // The lower password cost of the test suite (see vitest.config.ts).
    env: { ARBITER_SCRYPT_N: '16384' },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
