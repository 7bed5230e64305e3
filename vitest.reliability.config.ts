import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: every suite under test/reliability/ (the fast ones that `npm test` also
 * runs, and the heavy ones: more fuzz runs, the process-kill test), with the fuzzers scaled up.
 */
export default defineConfig({
  // One copy of graphql (see vitest.config.ts).
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/reliability/**/*.test.ts'],
    exclude: ['node_modules/**'],
    // ARBITER_SCRYPT_N: the lower password cost of the test suite (see vitest.config.ts).
    env: {
      ARBITER_RELIABILITY_SCALE: process.env['ARBITER_RELIABILITY_SCALE'] ?? '10',
      ARBITER_LOG_LEVEL: 'silent',
      ARBITER_SCRYPT_N: '16384',
    },
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
