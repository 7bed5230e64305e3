/**
 * A pooled Postgres connection killed while idle (what a restart or a failover does) before the process
 * ever made its Prisma client: the process lives on and the next statement opens a new connection. Without
 * a listener on the pool, its 'error' event would end the process (it once did: found by the stream
 * reliability test, test/reliability/stream-db-kill.test.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../store/db.js';
import { STORE_TARGETS } from './targets.js';

const POSTGRES = STORE_TARGETS.filter((t) => t.kind === 'postgres' && t.unreachable === undefined && t.url);

describe.each(POSTGRES)('the pool on $kind', (target) => {
  it('survives an idle connection killed before Prisma is made, and opens another', async () => {
    const appName = `arbiter_pool_${randomBytes(5).toString('hex')}`;
    const url = new URL(target.url!);
    url.searchParams.set('application_name', appName);
    const db = await createDb({ databaseUrl: url.toString(), migrate: false });
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    try {
      expect(await db.statement('pool_errors_probe', 'SELECT 1 AS x', [])).toEqual([{ x: 1 }]);
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
      expect(killed.rowCount).toBe(1);
      // The pool hears the connection die; give it the moment it takes.
      await new Promise((r) => setTimeout(r, 300));
      expect(await db.statement('pool_errors_probe_2', 'SELECT 2 AS x', [])).toEqual([{ x: 2 }]);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
