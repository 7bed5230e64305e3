/**
 * Reads from the known log (service/game-reads.ts getGame and myGames over service/log-cache.ts, issue #17):
 * one statement that reads only the events after the version the process knows, and every snapshot
 * exactly what a full read of the whole log gives — the caller's rack only, spectators none — whether the
 * process committed the turns itself, another process did, or the id now names another game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadline } from '../../engine/game/clock.js';
import { isSeatView, getGame, myGames, snapshotOf, type GameSnapshot } from '../../service/game-reads.js';
import { engineEvents, fold } from '../../service/game-log.js';
import { knownLog, rememberLog, rememberRead } from '../../service/log-cache.js';
import { submitTurn, type TurnAction } from '../../service/turns.js';
import type { Db } from '../../store/db.js';
import { loadGame } from '../../store/games.js';
import { READ_GAMES_SQL, READ_STATEMENT } from '../../store/read-statements.js';
import { seatsOf } from '../../store/seats.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } ... on Error { code message } } }`;

type Known = { id: string; version: number; createdAt: string | null };

describe.each(STORE_TARGETS)('reads from the known log on $kind', (target) => {
  let api: TestApi;
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  let c: { id: string; token: string };
  beforeAll(async () => {
    api = await openTestApi(target);
    a = await api.register('reads-a');
    b = await api.register('reads-b');
    c = await api.register('reads-c');
  });
  afterAll(async () => api?.close());

  /** A database handle of its own (a known-log cache of its own: another process), noting each statement and its known prefixes. */
  const watched = () => {
    const db = api.app.services.db;
    const sent: string[] = [];
    const reads: Known[][] = [];
    // Prisma is not used by a read: any model it touches is noted.
    const prisma = new Proxy(db.prisma, {
      get: (t, p, r) => {
        if (typeof p === 'string' && !p.startsWith('_')) sent.push(`prisma.${p}`);
        return Reflect.get(t, p, r) as unknown;
      },
    });
    const spy: Db = {
      ...db,
      prisma,
      statement: (name, sql, params) => {
        sent.push(name);
        if (name === READ_STATEMENT) reads.push(JSON.parse(params[0] as string) as Known[]);
        return db.statement(name, sql, params);
      },
    };
    return { deps: { ...api.app.services, db: spy }, sent, reads, spy };
  };

  /** The game as a full read of its whole log shows it (what getGame did before the known log): Prisma, every event, folded from the start. */
  const fullRead = async (viewerId: string | null, gameId: string, atVersion?: number): Promise<GameSnapshot> => {
    const { prisma } = api.app.services.db;
    const loaded = await loadGame(prisma, gameId);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const { game, events } = loaded.value;
    const version = atVersion === undefined ? game.version : Math.min(atVersion, game.version);
    const stored = events.slice(0, version);
    const engine = engineEvents(stored);
    const state = engine.length ? fold(engine) : null;
    const at = version === game.version ? game.deadlineAt : state && deadline(state) ? new Date(deadline(state)!) : null;
    return snapshotOf(game, await seatsOf(prisma, gameId), stored, state, viewerId, version, at, api.app.services.now());
  };

  const newGame = async (opponent = 'reads-b'): Promise<{ id: string; version: number }> => {
    const g = (await api.gql(CREATE, { input: { opponent, overrides: { end: { scorelessTurns: null } } } }, a.token)).body.data![
      'createGame'
    ];
    expect(g.__typename).toBe('Game');
    return g;
  };

  /** Plays `turns` turns through `deps` (a's first an exchange: its tiles are private to a); answers the version reached. */
  const play = async (deps: ReturnType<typeof watched>['deps'], gameId: string, from: number, turns: number, tag: string) => {
    let version = from;
    let exchanged = false;
    for (let i = 0; i < turns; i++) {
      const row = await api.app.services.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, select: { turnSeat: true } });
      const player = row.turnSeat === 0 ? a : b;
      const view = (await fullRead(player.id, gameId)).view;
      const rack: readonly string[] | null = player === a && !exchanged && view && isSeatView(view) ? view.rack : null;
      const action: TurnAction = rack ? { kind: 'exchange', tiles: rack[0]! } : { kind: 'pass' };
      exchanged ||= rack !== null;
      const r = await submitTurn(deps, player.id, { gameId, expectedVersion: version, idempotencyKey: `${tag}-${i}`, action });
      expect(r.ok ? null : r.error).toBeNull();
      if (r.ok) version = r.value.receipt.version;
    }
    return version;
  };

  it('a read after this process’s turns sends the one read with the known version, and equals a fresh process’s read and a full read', async () => {
    const one = watched();
    const game = await newGame();
    const version = await play(one.deps, game.id, game.version, 5, 'r1');
    one.sent.length = 0;
    const read = await getGame(one.deps, a.id, game.id);
    expect(one.sent).toEqual([READ_STATEMENT]);
    expect(one.reads).toEqual([[{ id: game.id, version, createdAt: expect.any(String) }]]);
    // A fresh process reads the whole log (known version 0) and shows the same.
    const fresh = watched();
    const again = await getGame(fresh.deps, a.id, game.id);
    expect(fresh.reads).toEqual([[{ id: game.id, version: 0, createdAt: null }]]);
    expect(read.ok && again.ok).toBe(true);
    if (!read.ok || !again.ok) return;
    expect(read.value).toEqual(again.value);
    expect(read.value).toEqual(await fullRead(a.id, game.id));
    // The read left the turn's held row in place; the fresh process's read holds no row (no secret is read).
    expect(knownLog(one.spy, game.id, version)?.held).not.toBeNull();
    expect(knownLog(fresh.spy, game.id, version)).toMatchObject({ version, held: null });
    expect(READ_GAMES_SQL).not.toMatch(/game_secrets|bag_seed\b/);
    // A read that ends after a turn of this process committed further leaves the turn's entry as it is.
    const held = knownLog(one.spy, game.id, version)!;
    rememberRead(one.spy, game.id, {
      createdAt: held.createdAt,
      version: version - 1,
      stored: held.stored.slice(0, -1),
      state: held.state,
    });
    expect(knownLog(one.spy, game.id, version)).toMatchObject({ version, held: held.held });
  });

  it('the opponent’s and a spectator’s views are a full read’s: no rack but their own, none for a spectator', async () => {
    const one = watched();
    const game = await newGame();
    await play(one.deps, game.id, game.version, 3, 'r2');
    for (const viewer of [b.id, c.id, null]) {
      const read = await getGame(one.deps, viewer, game.id);
      expect(read.ok && read.value).toEqual(await fullRead(viewer, game.id));
    }
    const spectator = await getGame(one.deps, null, game.id);
    expect(spectator.ok && spectator.value.view && 'rack' in spectator.value.view).toBe(false);
    const opponent = await getGame(one.deps, b.id, game.id);
    const mine = await fullRead(a.id, game.id);
    if (opponent.ok && opponent.value.view && isSeatView(opponent.value.view) && mine.view && isSeatView(mine.view)) {
      expect(opponent.value.view.seat).toBe(1);
      expect(mine.view.seat).toBe(0);
    } else expect.unreachable('both seats see a seat view');
    // Each read after the first asks for nothing before the known version.
    expect(one.reads.slice(-2).map((r) => r[0]!.version)).toEqual([mine.version, mine.version]);
  });

  it('a read after another process committed sees the new turn, reading only the events after the version it knew', async () => {
    const one = watched();
    const two = watched();
    const game = await newGame();
    const v1 = await play(one.deps, game.id, game.version, 2, 'r3');
    const v2 = await play(two.deps, game.id, v1, 2, 'r3-other');
    const read = await getGame(one.deps, b.id, game.id);
    expect(one.reads.at(-1)).toEqual([{ id: game.id, version: v1, createdAt: expect.any(String) }]);
    expect(read.ok && read.value.version).toBe(v2);
    expect(read.ok && read.value).toEqual(await fullRead(b.id, game.id));
    // The process now knows v2, and no longer holds the row of v1 (the game moved on).
    expect(knownLog(one.spy, game.id, v2)).toMatchObject({ version: v2, held: null });
    // An earlier version (a replayed retry's answer) is a full read's at that version too.
    for (const at of [v1, v1 + 1, 1]) {
      const old = await getGame(one.deps, a.id, game.id, { atVersion: at });
      expect(old.ok && old.value).toEqual(await fullRead(a.id, game.id, at));
    }
  });

  it('a known log of another game under the same id (created at another moment) is not used: the whole log is read', async () => {
    const one = watched();
    const game = await newGame();
    const version = await play(one.deps, game.id, game.version, 3, 'r4');
    const k = knownLog(one.spy, game.id, version)!;
    // The first events of another game, as if the id had named it before: used, the read would show that game's racks.
    const before = await newGame();
    await getGame(one.deps, a.id, before.id);
    const prefix = knownLog(one.spy, before.id, before.version)!.stored.slice(0, 2);
    const other = { ...k, createdAt: k.createdAt - 1, version: 2, stored: prefix, state: fold(engineEvents(prefix)) };
    rememberLog(one.spy, game.id, { ...other, held: null });
    const read = await getGame(one.deps, a.id, game.id);
    expect(one.reads.at(-1)).toEqual([{ id: game.id, version: 2, createdAt: new Date(k.createdAt - 1).toISOString() }]);
    expect(read.ok && read.value).toEqual(await fullRead(a.id, game.id));
    expect(knownLog(one.spy, game.id, version)).toMatchObject({ createdAt: k.createdAt, version });
    // A known log past the game's version (a restored backup) is not used either.
    rememberLog(one.spy, game.id, { ...other, createdAt: k.createdAt, version: version + 5, held: null });
    const behind = await getGame(one.deps, b.id, game.id);
    expect(behind.ok && behind.value).toEqual(await fullRead(b.id, game.id));
  });

  it('myGames reads its page in one statement, each game past its known version, in the same order as a fresh process', async () => {
    const one = watched();
    const games = [await newGame(), await newGame(), await newGame('reads-c')];
    const versions = [
      await play(one.deps, games[0]!.id, games[0]!.version, 4, 'r5a'),
      await play(one.deps, games[1]!.id, games[1]!.version, 1, 'r5b'),
      games[2]!.version,
    ];
    one.sent.length = 0;
    one.reads.length = 0;
    const page = await myGames(one.deps, a.id, { first: 100 });
    // The list (store/seats.ts gamesOfPlayer, through Prisma), then the page's one read.
    expect(one.sent).toEqual(['prisma.seat', 'prisma.game', READ_STATEMENT]);
    const asked = new Map(one.reads[0]!.map((k) => [k.id, k.version]));
    expect([0, 1].map((i) => asked.get(games[i]!.id))).toEqual([versions[0], versions[1]]);
    expect(asked.get(games[2]!.id)).toBe(0);
    const fresh = watched();
    const again = await myGames(fresh.deps, a.id, { first: 100 });
    expect(page.ok && again.ok).toBe(true);
    if (!page.ok || !again.ok) return;
    expect(page.value).toEqual(again.value);
    for (const edge of page.value.edges) expect(edge.node).toEqual(await fullRead(a.id, edge.node.id));
    // Paging: the second page of two is the full list's, after the first page's cursor.
    const first = await myGames(one.deps, a.id, { first: 2 });
    const next = first.ok ? await myGames(one.deps, a.id, { first: 2, after: first.value.edges.at(-1)!.cursor }) : null;
    expect(first.ok && next?.ok && [...first.value.edges, ...next.value.edges].map((e) => e.node.id)).toEqual(
      page.value.edges.slice(0, 4).map((e) => e.node.id),
    );
  });
});
