/**
 * `Db.statement` (store/db.ts): one named statement on the driver, beside Prisma — named prepared
 * statements on Postgres (node-postgres) and on PGlite (store/pglite-statements.ts). Both databases must
 * answer alike: typed rows, errors with their SQLSTATE, and a statement usable again after an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.js';
import { openTestDb, STORE_TARGETS, type TestDb } from './targets.js';

const INSERT = `INSERT INTO statement_probe (id, n, doc, at) VALUES ($1::int, $2::int, $3::jsonb, $4::timestamptz)
  RETURNING id, n, doc, at, doc->>'word' AS word`;

describe.each(STORE_TARGETS)('Db.statement on $kind', (target) => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await openTestDb(target);
    db = t.db;
    await db.withSession((s) => s.exec('CREATE TABLE statement_probe (id int PRIMARY KEY, n int, doc jsonb NOT NULL, at timestamptz)'));
  });
  afterAll(async () => t?.drop());

  it('answers typed rows, the same name again with other parameters, and nulls', async () => {
    const first = await db.statement<{ id: number; n: number; doc: unknown; at: unknown; word: string }>('probe_insert', INSERT, [
      1,
      7,
      JSON.stringify({ word: 'QI' }),
      '2026-11-27T10:00:00.000Z',
    ]);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ id: 1, n: 7, word: 'QI' });
    const doc = first[0]!.doc;
    expect(typeof doc === 'string' ? JSON.parse(doc) : doc).toEqual({ word: 'QI' });
    expect(new Date(first[0]!.at as string).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    const second = await db.statement<{ id: number; n: number | null; at: unknown }>('probe_insert', INSERT, [
      2,
      null,
      '{"word":"ZA"}',
      null,
    ]);
    expect(second[0]).toMatchObject({ id: 2, n: null, at: null });
  });

  it('fails with the SQLSTATE of the error, writes nothing, and the statement works again after it', async () => {
    const dup = db.statement('probe_insert', INSERT, [1, 8, '{}', null]);
    await expect(dup).rejects.toMatchObject({ code: '23505' });
    const rows = await db.statement<{ n: number }>('probe_count', 'SELECT count(*)::int AS n FROM statement_probe WHERE id = $1::int', [1]);
    expect(rows).toEqual([{ n: 1 }]);
    const again = await db.statement<{ id: number }>('probe_insert', INSERT, [3, 9, '{}', null]);
    expect(again).toEqual([expect.objectContaining({ id: 3 })]);
  });

  it('lets the event loop turn while statements queue, so new connections and requests are not starved', async () => {
    let done = 0;
    const all = Array.from({ length: 20 }, () =>
      db.statement('probe_count', 'SELECT count(*)::int AS n FROM statement_probe WHERE id = $1::int', [1]).then(() => done++),
    );
    const doneWhenTheLoopTurned = await new Promise<number>((resolve) => setImmediate(() => resolve(done)));
    await Promise.all(all);
    expect(done).toBe(20);
    expect(doneWhenTheLoopTurned).toBeLessThan(20);
  });

  it('a statement without result columns answers no rows and still writes', async () => {
    const sql = 'UPDATE statement_probe SET n = $2::int WHERE id = $1::int';
    await db.statement('probe_insert', INSERT, [300, 1, '{}', null]);
    expect(await db.statement('probe_set_n', sql, [300, 42])).toEqual([]);
    expect(await db.statement('probe_set_n', sql, [300, 43])).toEqual([]);
    const [row] = await db.withSession((s) => s.query<{ n: number }>('SELECT n FROM statement_probe WHERE id = 300'));
    expect(row?.n).toBe(43);
  });

  it('refuses one name for two texts', async () => {
    await expect(db.statement('probe_count', 'SELECT 1 AS n', [])).rejects.toThrow(/probe_count/);
  });
});

/** What only PGlite can show: its one session holds the prepared statements, and its queue orders them with transactions. */
describe('Db.statement on PGlite', () => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await openTestDb({ kind: 'pglite' });
    db = t.db;
    await db.withSession((s) => s.exec('CREATE TABLE statement_probe (id int PRIMARY KEY, n int, doc jsonb NOT NULL, at timestamptz)'));
  });
  afterAll(async () => t?.drop());

  const count = (id: number) =>
    db.statement<{ n: number }>('probe_count', 'SELECT count(*)::int AS n FROM statement_probe WHERE id = $1::int', [id]);

  it('a statement that comes alone runs at once, without waiting for a turn of the event loop', async () => {
    await count(1); // prepared
    await new Promise<void>((resolve) => setTimeout(resolve, 5)); // the loop has turned since
    let loopTurned = false;
    setImmediate(() => (loopTurned = true));
    expect(await count(1)).toEqual([{ n: 0 }]);
    expect(loopTurned).toBe(false);
  });

  it('each name is prepared once in its one session', async () => {
    for (let i = 10; i < 15; i++) await db.statement('probe_insert', INSERT, [i, i, '{}', null]);
    expect(await count(12)).toEqual([{ n: 1 }]);
    const prepared = await db.prisma.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM pg_prepared_statements WHERE name LIKE 'probe_%' ORDER BY name`,
    );
    expect(prepared.map((p) => p.name)).toEqual(['probe_count', 'probe_insert']);
  });

  it('a statement waits for an open transaction instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const tx = db.transaction(async (client) => {
      await client.$executeRawUnsafe(`INSERT INTO statement_probe (id, doc) VALUES (100, '{}')`);
      entered();
      await held;
      throw new Error('roll back');
    });
    await inside;
    const counted = count(100);
    release();
    await expect(tx).rejects.toThrow('roll back');
    // Had it run inside the transaction it would have seen the row that was rolled back.
    expect(await counted).toEqual([{ n: 0 }]);
  });
});
