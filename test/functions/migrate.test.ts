import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createMigrateHandler } from '../../functions/migrate.js';
import { createDb, type CreateDbOptions } from '../../store/db.js';
import { MigrationError, readMigrations } from '../../store/migrate.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The handler's `open`, redirected to a PGlite directory (dataDir wins over the URL in createDb). */
const onPglite = (dataDir: string) => (options: CreateDbOptions) => createDb({ ...options, dataDir });

describe('functions/migrate', () => {
  test('applies every migration once, then nothing (idempotent)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-migrate-'));
    dirs.push(dir);
    const names = (await readMigrations()).map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    const lines: string[] = [];
    const handler = createMigrateHandler({
      resolveUrl: async () => 'postgresql://unused/x',
      open: onPglite(dir),
      log: (l) => lines.push(l),
    });
    const first = await handler();
    expect(first.applied).toEqual(names);
    expect(first.attempts).toBe(1);
    const second = await handler();
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(names);
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: 'migrate.done', applied: [], alreadyApplied: names });
  }, 60_000);

  test('retries a connection failure, then succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-migrate-'));
    dirs.push(dir);
    let calls = 0;
    const sleeps: number[] = [];
    const handler = createMigrateHandler({
      resolveUrl: async () => 'postgresql://unused/x',
      open: async (o) => {
        if (++calls < 3) throw new Error('connect ECONNREFUSED 10.0.0.1:5432');
        return onPglite(dir)(o);
      },
      delayMs: 10,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      log: () => {},
    });
    const report = await handler();
    expect(report.attempts).toBe(3);
    expect(sleeps).toEqual([10, 20]);
  }, 60_000);

  test.each([
    ['a migration error is not retried', new MigrationError('MIGRATION_FAILED', 'Migration x failed: boom'), 5, 1],
    ['a connection error is retried until attempts run out', new Error('connect ETIMEDOUT'), 3, 3],
  ])('%s', async (_name, error, attempts, expectedCalls) => {
    let calls = 0;
    const handler = createMigrateHandler({
      resolveUrl: async () => 'postgresql://unused/x',
      open: async () => {
        calls++;
        throw error;
      },
      attempts,
      sleep: async () => {},
      log: () => {},
    });
    await expect(handler()).rejects.toBe(error);
    expect(calls).toBe(expectedCalls);
  });
});
