import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { err, ok } from '../../engine/result.js';
import type { Db } from '../../store/db.js';
import { appendEvents, createGame, loadGame, runTurn, type Decide, type NewGame } from '../../store/games.js';
import { registerLexicon } from '../../store/lexicons.js';
import { openTestDb, STORE_TARGETS, type TestDb } from './targets.js';

const LEXICON = { name: 'TEST', contentHash: 'sha256:0000', wordCount: 3 };

const newGame = (over: Partial<NewGame> = {}): NewGame => ({
  ruleSetId: 'NSA_2008',
  lexicon: LEXICON,
  status: 'active',
  turnSeat: 0,
  deadlineAt: null,
  bagSeedCommitment: 'commit-abc',
  bagSeed: 'seed-abc',
  seats: [null, null],
  ...over,
});

const START = [{ type: 'GameCreated', payload: { rules: 'NSA_2008' } }];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A decide that appends one event named `type` and answers with the version it saw. */
const playOne =
  (type: string): Decide<{ sawVersion: number }, never> =>
  (game) =>
    ok({ events: [{ type, payload: { n: game.version } }], response: { sawVersion: game.version } });

describe.each(STORE_TARGETS)('game log on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await openTestDb(target);
    db = t.db;
    await db.transaction((tx) => registerLexicon(tx, LEXICON));
  });
  afterAll(async () => {
    await t?.drop();
  });

  const startGame = async (over: Partial<NewGame> = {}) => db.transaction((tx) => createGame(tx, newGame(over), START));
  const counts = async (gameId: string) => {
    const [events, idem, outbox, game] = await Promise.all([
      db.prisma.gameEvent.count({ where: { gameId } }),
      db.prisma.idempotencyKey.count(),
      db.prisma.outboxMessage.count({ where: { gameId } }),
      db.prisma.game.findUniqueOrThrow({ where: { id: gameId } }),
    ]);
    return { events, idem, outbox, version: game.version, updatedAt: game.updatedAt.toISOString() };
  };

  it('creates a game with its seats, secret and first events, and loads it without the secret', async () => {
    const player = await db.prisma.player.create({ data: { handle: `p${Date.now()}`, displayName: 'Ada' } });
    const deadline = new Date('2030-01-02T03:04:05.678Z');
    const game = await startGame({ seats: [player.id, null], deadlineAt: deadline });
    expect(game.version).toBe(1);

    const loaded = await loadGame(db.prisma, game.id);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.game).toMatchObject({
      id: game.id,
      version: 1,
      status: 'active',
      turnSeat: 0,
      lexiconName: 'TEST',
      deadlineAt: deadline,
    });
    expect(loaded.value.game).not.toHaveProperty('bagSeed');
    expect(JSON.stringify(loaded.value)).not.toContain('seed-abc');
    expect(loaded.value.seats.map((s) => [s.seat, s.playerId])).toEqual([
      [0, player.id],
      [1, null],
    ]);
    expect(loaded.value.events.map((e) => [e.seq, e.type, e.payload])).toEqual([[1, 'GameCreated', { rules: 'NSA_2008' }]]);
    expect(await db.prisma.gameSecret.findUniqueOrThrow({ where: { gameId: game.id } })).toMatchObject({ bagSeed: 'seed-abc' });
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])('answers GAME_NOT_FOUND for %s', async (id) => {
    const loaded = await loadGame(db.prisma, id);
    expect(loaded.ok ? null : loaded.error.code).toBe('GAME_NOT_FOUND');
    const turn = await runTurn(db, id, 0, null, playOne('X'));
    expect(turn.ok ? null : turn.error.code).toBe('GAME_NOT_FOUND');
  });

  it('appends events at expectedVersion + 1 …, updates the game and passes decide the log and the secret', async () => {
    const game = await startGame();
    const seen: unknown[] = [];
    const result = await runTurn(db, game.id, 1, null, (g, events, secrets) => {
      seen.push(
        g.version,
        events.map((e) => e.seq),
        secrets.bagSeed,
      );
      return ok({
        events: [
          { type: 'TilesPlaced', payload: { word: 'CAT' } },
          { type: 'TilesDrawn', payload: { count: 3 } },
        ],
        response: { score: 10 },
        game: { turnSeat: 1, deadlineAt: new Date('2031-01-01T00:00:00.000Z') },
        outbox: [
          { kind: 'turn.played', payload: { word: 'CAT' }, eventIndex: 0 },
          { kind: 'tiles.drawn', payload: {} },
        ],
      });
    });
    expect(seen).toEqual([1, [1], 'seed-abc']);
    if (!result.ok || result.value.replayed) throw new Error('expected a committed turn');
    expect(result.value.version).toBe(3);
    expect(result.value.response).toEqual({ score: 10 });
    expect(result.value.events.map((e) => [e.seq, e.type])).toEqual([
      [2, 'TilesPlaced'],
      [3, 'TilesDrawn'],
    ]);
    const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(row).toMatchObject({ version: 3, turnSeat: 1, deadlineAt: new Date('2031-01-01T00:00:00.000Z') });
    const outbox = await db.prisma.outboxMessage.findMany({ where: { gameId: game.id }, orderBy: { id: 'asc' } });
    expect(outbox.map((m) => [m.kind, m.eventSeq, m.attempts, m.deliveredAt])).toEqual([
      ['turn.played', 2, 0, null],
      ['tiles.drawn', 3, 0, null],
    ]);
  });

  it('lets exactly one of two concurrent turns at the same version win; the other gets STALE_VERSION', async () => {
    const game = await startGame();
    const slow =
      (type: string): Decide<{ sawVersion: number }, never> =>
      async (g) => {
        await sleep(30); // keep the first transaction open while the second arrives
        return ok({ events: [{ type, payload: {} }], response: { sawVersion: g.version } });
      };
    const results = await Promise.all([runTurn(db, game.id, 1, null, slow('A')), runTurn(db, game.id, 1, null, slow('B'))]);
    const winners = results.filter((r) => r.ok);
    const losers = results.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0]).toMatchObject({ code: 'STALE_VERSION', details: { expected: 1, actual: 2 } });
    const loaded = await loadGame(db.prisma, game.id);
    expect(loaded.ok && loaded.value.events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('serialises many concurrent turns without deadlock: one wins', async () => {
    const game = await startGame();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => runTurn(db, game.id, 1, null, playOne(`T${i}`))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error.code === 'STALE_VERSION')).toHaveLength(5);
    expect((await counts(game.id)).version).toBe(2);
  });

  it('answers an idempotent retry with the original response and appends nothing', async () => {
    const game = await startGame();
    const idem = { scope: 'player-1', key: `k-${game.id}`, requestHash: 'req-1' };
    const first = await runTurn(db, game.id, 1, idem, playOne('A'));
    expect(first).toMatchObject({ ok: true, value: { replayed: false, response: { sawVersion: 1 }, version: 2 } });
    const before = await counts(game.id);

    let called = false;
    const retry = await runTurn(db, game.id, 1, idem, (g) => {
      called = true;
      return playOne('B')(g, [], { bagSeed: '' }, []);
    });
    expect(retry).toEqual({ ok: true, value: { replayed: true, response: { sawVersion: 1 } } });
    expect(called).toBe(false);
    expect(await counts(game.id)).toEqual(before);
  });

  it('replays for the loser when the same request races itself', async () => {
    const game = await startGame();
    const idem = { scope: 'player-1', key: `race-${game.id}`, requestHash: 'req-1' };
    const slow: Decide<{ sawVersion: number }, never> = async (g) => {
      await sleep(30);
      return ok({ events: [{ type: 'A', payload: {} }], response: { sawVersion: g.version } });
    };
    const results = await Promise.all([runTurn(db, game.id, 1, idem, slow), runTurn(db, game.id, 1, idem, slow)]);
    expect(results.map((r) => r.ok && r.value.replayed).sort()).toEqual([false, true]);
    expect(results.map((r) => r.ok && r.value.response)).toEqual([{ sawVersion: 1 }, { sawVersion: 1 }]);
    expect((await counts(game.id)).events).toBe(2);
  });

  it('refuses a reused idempotency key with a different request and writes nothing', async () => {
    const game = await startGame();
    const idem = { scope: 'player-1', key: `reuse-${game.id}`, requestHash: 'req-1' };
    await runTurn(db, game.id, 1, idem, playOne('A'));
    const before = await counts(game.id);
    const reused = await runTurn(db, game.id, 2, { ...idem, requestHash: 'req-2' }, playOne('B'));
    expect(reused).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_KEY_REUSED', details: { scope: 'player-1', key: idem.key } } });
    expect(await counts(game.id)).toEqual(before);
  });

  it("returns decide's error and writes nothing", async () => {
    const game = await startGame();
    const before = await counts(game.id);
    const idem = { scope: 'player-1', key: `refused-${game.id}`, requestHash: 'req-1' };
    const refusal = { code: 'NOT_YOUR_TURN', message: 'Seat 1 is not to move.' };
    const result = await runTurn(db, game.id, 1, idem, () => err(refusal));
    expect(result).toEqual({ ok: false, error: refusal });
    expect(await counts(game.id)).toEqual(before);
  });

  it('leaves no partial rows when the transaction fails after writing events', async () => {
    const game = await startGame();
    const before = await counts(game.id);
    const idem = { scope: 'player-1', key: `boom-${game.id}`, requestHash: 'req-1' };
    // The outbox message points past the written events: the store throws after inserting them.
    const broken = runTurn(db, game.id, 1, idem, () =>
      ok({ events: [{ type: 'A', payload: {} }], response: null, outbox: [{ kind: 'x', payload: {}, eventIndex: 5 }] }),
    );
    await expect(broken).rejects.toThrow(/points at event 5/);
    const thrown = runTurn(db, game.id, 1, idem, () => {
      throw new Error('engine bug');
    });
    await expect(thrown).rejects.toThrow('engine bug');
    expect(await counts(game.id)).toEqual(before);
    // The game is still usable at the same version.
    expect((await runTurn(db, game.id, 1, idem, playOne('A'))).ok).toBe(true);
  });

  it('appendEvents stores decided events with an idempotent response', async () => {
    const game = await startGame();
    const idem = { scope: 'player-2', key: `append-${game.id}`, requestHash: 'h' };
    const events = [{ type: 'Passed', payload: { seat: 0 } }];
    const first = await appendEvents(db, game.id, 1, events, { idempotency: idem, response: { ok: true }, game: { turnSeat: 1 } });
    expect(first).toMatchObject({ ok: true, value: { replayed: false, version: 2 } });
    const again = await appendEvents(db, game.id, 1, events, { idempotency: idem, response: { ok: true } });
    expect(again).toEqual({ ok: true, value: { replayed: true, response: { ok: true } } });
    const stale = await appendEvents(db, game.id, 1, events);
    expect(stale).toMatchObject({ ok: false, error: { code: 'STALE_VERSION', details: { expected: 1, actual: 2 } } });
  });

  it('rejects UPDATE, DELETE and TRUNCATE of game_events in the database itself', async () => {
    const game = await startGame();
    const tryRaw = (sql: string) => db.withSession((s) => s.query(sql, sql.includes('$1') ? [game.id] : []));
    await expect(tryRaw(`UPDATE game_events SET type = 'Forged' WHERE game_id = $1`)).rejects.toThrow(/append-only: UPDATE/);
    await expect(tryRaw(`DELETE FROM game_events WHERE game_id = $1`)).rejects.toThrow(/append-only: DELETE/);
    await expect(tryRaw(`TRUNCATE game_events CASCADE`)).rejects.toThrow(/append-only: TRUNCATE/);
    await expect(db.prisma.gameEvent.deleteMany({ where: { gameId: game.id } })).rejects.toThrow(/append-only/);
    const loaded = await loadGame(db.prisma, game.id);
    expect(loaded.ok && loaded.value.events.map((e) => e.type)).toEqual(['GameCreated']);
  });

  it('refuses a seat other than 0 or 1 and a duplicate seat', async () => {
    const game = await startGame();
    await expect(db.prisma.seat.create({ data: { gameId: game.id, seat: 2 } })).rejects.toThrow();
    await expect(db.prisma.seat.create({ data: { gameId: game.id, seat: 0 } })).rejects.toThrow();
  });

  it('round-trips a row of every other table through the Prisma client', async () => {
    const player = await db.prisma.player.create({
      data: { handle: `h-${Date.now()}`, displayName: 'Grace', passwordHash: 'scrypt$N=16384,r=8,p=1$c2FsdA==$aGFzaA==' },
    });
    const key = await db.prisma.apiKey.create({
      data: {
        ownerId: player.id,
        name: 'bot',
        prefix: `arb_${player.id.slice(0, 8)}`,
        keyHash: 'ab'.repeat(32),
        scopes: ['games:read', 'games:play'],
      },
    });
    expect(await db.prisma.apiKey.findUniqueOrThrow({ where: { prefix: key.prefix } })).toMatchObject({
      scopes: ['games:read', 'games:play'],
      lastUsedAt: null,
      revokedAt: null,
    });
    const noScopes = await db.prisma.apiKey.create({ data: { ownerId: player.id, name: 'empty', prefix: `e_${player.id}`, keyHash: 'x' } });
    expect(noScopes.scopes).toEqual([]);
    await db.prisma.idempotencyKey.create({ data: { scope: player.id, key: 'k', requestHash: 'r', response: { a: [1, 'two', null] } } });
    expect((await db.prisma.idempotencyKey.findUniqueOrThrow({ where: { scope_key: { scope: player.id, key: 'k' } } })).response).toEqual({
      a: [1, 'two', null],
    });
    const lexicon = await db.prisma.lexicon.findUniqueOrThrow({
      where: { name_contentHash: { name: LEXICON.name, contentHash: LEXICON.contentHash } },
    });
    expect(lexicon.wordCount).toBe(3);
    const mine = await db.prisma.seat.findMany({ where: { playerId: player.id }, include: { game: true } });
    expect(mine).toEqual([]);
  });
});
