import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts', 'graph/**/*.test.ts', 'service/**/*.test.ts', 'store/**/*.test.ts', 'infra/**/*.test.ts'],
    exclude: ['node_modules/**', 'test/reliability/**'],
    testTimeout: 30_000,
  },
});
