/**
 * Faults in the middle of a turn (issue 6). On Postgres the real thing: the turn's transaction is
 * held after its events are inserted (a test-only trigger in the test schema sleeps in
 * `pg_sleep`), found in pg_stat_activity by the app pool's application_name, and its backend is
 * killed with pg_terminate_backend from a separate admin connection. On every target also a
 * simulated loss: the app's `db.transaction` throws a connection error after the turn's writes,
 * before commit. Either way: a typed error (DATABASE_UNAVAILABLE, never a 500 or a stack), nothing
 * of the turn in the store, and the client's retry with the same idempotency key plays the turn once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBagSeedSourceForTests } from '../../../service/game-create.js';
import type { Db } from '../../../store/db.js';
import { TURN_STATEMENTS } from '../../../store/turn-statements.js';
import { asGame, CREATE_GAME, freshKey, graphql, registerPlayer, type GameOrError, type Player } from '../../e2e/client.js';
import { recorder } from '../summary.js';
import { eventCount, internalsIn, invariantViolations, openWorld, STORE_TARGETS, type StoreTarget, type World } from '../world.js';

const rec = recorder('faults');
afterAll(() => rec.flush());

/** A connection error as node-postgres reports a killed backend (SQLSTATE 57P01). */
const connectionLost = (): Error =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });

const withApplicationName = (target: StoreTarget, name: string): StoreTarget => {
  if (!target.url) return target;
  const url = new URL(target.url);
  url.searchParams.set('application_name', name);
  return { ...target, url: url.toString() };
};

const SUBMIT_PASS = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ... on Game { version } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('a turn interrupted before commit, on $kind', (target) => {
  const appName = `arbiter-reliability-${randomBytes(4).toString('hex')}`;
  let world: World;
  let ann: Player;
  let bob: Player;
  /** Set by a test: the next transaction that writes a turn fails just before commit. */
  let failNextCommit = false;
  let n = 0;

  // A turn commits in one statement (store/turn-statements.ts), or in a transaction when it has more to
  // write (a match's last game): the fault hits whichever comes first. The statement runs for real, in a
  // transaction of its own that the fault then ends before its commit.
  const injectingDb = (db: Db): Db => ({
    ...db,
    statement: async <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) => {
      if (!failNextCommit || name !== TURN_STATEMENTS.commit) return db.statement<R>(name, sql, params);
      failNextCommit = false;
      return db.withSession((s) =>
        s.transaction(async (t) => {
          const rows = await t.query<R>(sql, params);
          expect(rows).toEqual([{ committed: 1 }]);
          rec.add('faultsInjected');
          throw connectionLost();
        }),
      );
    },
    transaction: (fn) =>
      db.transaction(async (tx) => {
        const r = await fn(tx);
        if (failNextCommit) {
          failNextCommit = false;
          rec.add('faultsInjected');
          throw connectionLost();
        }
        return r;
      }),
  });

  beforeAll(async () => {
    world = await openWorld(withApplicationName(target, appName), { recorder: rec, wrapDb: injectingDb });
    setBagSeedSourceForTests(() => `reliability-faults-${++n}-0123456789abcdef`);
    [ann, bob] = [await registerPlayer(world.apis[0]!, 'ann'), await registerPlayer(world.apis[0]!, 'bob')];
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await world?.close();
  });

  const newGame = async () =>
    asGame(await graphql<GameOrError>(world.apis[0]!, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
  const pass = (gameId: string, expectedVersion: number, idempotencyKey: string) =>
    world.apis[0]!.gql(SUBMIT_PASS, { input: { gameId, expectedVersion, idempotencyKey, action: { pass: true } } }, ann.token);

  /** The failed attempt left nothing; the retry with the same key plays the turn exactly once. */
  const expectCleanFailureThenRetry = async (gameId: string, version: number, key: string, failed: Awaited<ReturnType<typeof pass>>) => {
    const text = JSON.stringify(failed.body);
    expect(failed.status).toBeLessThan(500);
    expect(internalsIn(text)).toBeNull();
    expect(failed.body.errors?.[0]?.extensions?.['code']).toBe('DATABASE_UNAVAILABLE');
    expect(failed.body.errors?.[0]?.message).toMatch(/Retry it/);
    const db = world.db;
    expect(await eventCount(db, gameId)).toBe(version);
    expect((await db.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).version).toBe(version);
    expect(await db.prisma.idempotencyKey.count({ where: { key } })).toBe(0);
    expect(await db.prisma.outboxMessage.count({ where: { gameId, eventSeq: { gt: version } } })).toBe(0);

    const retry = await pass(gameId, version, key);
    expect(retry.body.data?.['submitTurn']).toEqual({ __typename: 'Game', version: version + 1 });
    const again = await pass(gameId, version, key);
    expect(again.body.data?.['submitTurn']).toEqual({ __typename: 'Game', version: version + 1 });
    const events = await eventCount(db, gameId);
    rec.add('eventsLost', Math.max(0, version + 1 - events));
    expect(events).toBe(version + 1);
    expect(await invariantViolations(db)).toEqual([]);
  };

  it('the connection fails after the turn’s writes, before commit (simulated)', async () => {
    const g = await newGame();
    const key = freshKey();
    failNextCommit = true;
    const failed = await pass(g.id, g.version, key);
    expect(failNextCommit).toBe(false);
    await expectCleanFailureThenRetry(g.id, g.version, key, failed);
  });

  if (target.kind === 'postgres') {
    it('the backend is killed with pg_terminate_backend while the turn’s transaction is open', async () => {
      const g = await newGame();
      const schema = world.db.schema;
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      try {
        // Test-only, in this test's schema: hold every insert into game_events for 30 s (the kill ends it).
        await admin.query(
          `CREATE FUNCTION "${schema}".reliability_hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$`,
        );
        await admin.query(
          `CREATE TRIGGER reliability_hold AFTER INSERT ON "${schema}".game_events FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".reliability_hold()`,
        );
        const key = freshKey();
        const pending = pass(g.id, g.version, key);
        let pid: number | undefined;
        for (let i = 0; i < 200 && pid === undefined; i++) {
          await new Promise((r) => setTimeout(r, 25));
          const r = await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event = 'PgSleep'`,
            [appName],
          );
          pid = r.rows[0]?.pid;
        }
        expect(pid, 'the turn’s backend, sleeping after its events insert').toBeTypeOf('number');
        const killed = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
        expect(killed.rows[0]?.ok).toBe(true);
        rec.add('faultsInjected');
        await admin.query(`DROP TRIGGER reliability_hold ON "${schema}".game_events`);
        const failed = await pending;
        await expectCleanFailureThenRetry(g.id, g.version, key, failed);
      } finally {
        await admin.query(`DROP TRIGGER IF EXISTS reliability_hold ON "${schema}".game_events`).catch(() => undefined);
        await admin.end();
      }
    });
  }
});
