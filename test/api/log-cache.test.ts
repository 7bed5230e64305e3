/**
 * The known-log cache of the turn path (service/log-cache.ts, issue #17): the next command on a game the
 * process just committed sends only its commit statement (or, behind, reads only the events after the
 * version it knows), and every answer is the one a full read of the log gives: the caller's view, the
 * stored log, a fresh process's view, and the errors of a turn that lost a race or reused a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame } from '../../service/game-create.js';
import { getGame } from '../../service/game-reads.js';
import { knownLog, rememberLog } from '../../service/log-cache.js';
import { submitTurn } from '../../service/turns.js';
import type { Db } from '../../store/db.js';
import { TURN_STATEMENTS } from '../../store/turn-statements.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('the known-log cache on $kind', (target) => {
  let api: TestApi;
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  beforeAll(async () => {
    api = await openTestApi(target);
    a = await api.register('cache-a');
    b = await api.register('cache-b');
  });
  afterAll(async () => api?.close());

  /**
   * The app's database handle, with every open statement's "known version" parameter noted, and the
   * names of the turn statements in the order sent. Each call is a handle of its own, with a known-log
   * cache of its own: two of them stand for two processes on one database.
   */
  const watched = () => {
    const db = api.app.services.db;
    const known: number[] = [];
    const sent: string[] = [];
    const spy: Db = {
      ...db,
      statement: (name, sql, params) => {
        if (name === TURN_STATEMENTS.open) known.push(Number(params[4]));
        sent.push(name);
        return db.statement(name, sql, params);
      },
    };
    return { deps: { ...api.app.services, db: spy }, known, sent, spy };
  };

  const pass = (deps: ReturnType<typeof watched>['deps'], player: { id: string }, gameId: string, expectedVersion: number, key: string) =>
    submitTurn(deps, player.id, { gameId, expectedVersion, idempotencyKey: key, action: { kind: 'pass' } });

  const newGame = async (): Promise<{ id: string; version: number }> => {
    const g = (await api.gql(CREATE, { input: { opponent: 'cache-b' } }, a.token)).body.data!['createGame'];
    expect(g.__typename).toBe('Game');
    return g;
  };

  it('the next turns on a game this process committed send only their commit, and answer as a full read does', async () => {
    const { deps, known, sent, spy } = watched();
    const game = await newGame();
    let version = game.version;
    const players = [a, b];
    for (let i = 0; i < 4; i++) {
      const r = await submitTurn(deps, players[i % 2]!.id, {
        gameId: game.id,
        expectedVersion: version,
        idempotencyKey: `lc-${i}`,
        action: { kind: 'pass' },
      });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      // The answer made from the known log equals a fresh read of the whole log at that version.
      const fresh = await getGame(api.app.services, players[i % 2]!.id, game.id, { atVersion: r.value.receipt.version });
      expect(fresh.ok && r.value.game).toBeTruthy();
      if (fresh.ok) expect(r.value.game).toEqual(fresh.value);
      version = r.value.receipt.version;
    }
    // The first turn reads the whole log; the next three, on the game as this process committed it, send only their commit.
    expect(known).toEqual([0]);
    const { open, commit } = TURN_STATEMENTS;
    expect(sent).toEqual([open, commit, commit, commit, commit]);
    expect(knownLog(spy, game.id, version)?.version).toBe(version);
  });

  it('a game this process created is held: its first turn sends only the commit, and answers as a full read does', async () => {
    const { deps, sent, spy } = watched();
    const created = await createGame(deps, a.id, { opponent: 'cache-b' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const { id, version } = created.value;
    expect(knownLog(spy, id, version)?.held?.row.version).toBe(version);
    sent.length = 0;
    const first = await pass(deps, a, id, version, 'lc-c1');
    expect(first.ok).toBe(true);
    expect(sent).toEqual([TURN_STATEMENTS.commit]);
    if (!first.ok) return;
    const fresh = await getGame(api.app.services, a.id, id, { atVersion: first.value.receipt.version });
    expect(fresh.ok && fresh.value).toEqual(first.value.game);
    // Another handle (process) that only read the game holds no row: it never loads the bag seed.
    const other = watched();
    const read = await getGame(other.deps, b.id, id);
    expect(read.ok).toBe(true);
    expect(knownLog(other.spy, id, first.value.receipt.version)).toMatchObject({ held: null });
  });

  it('a turn behind another process’s commit is STALE_VERSION with the version now, and the retry of that commit replays it', async () => {
    const one = watched();
    const two = watched();
    const game = await newGame();
    const first = await pass(one.deps, a, game.id, game.version, 'lc-p1');
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const v1 = first.value.receipt.version;
    // The other process plays b's turn: the first one still holds the game at v1.
    const other = await pass(two.deps, b, game.id, v1, 'lc-p2');
    expect(other.ok).toBe(true);
    if (!other.ok) return;
    const v2 = other.value.receipt.version;
    one.sent.length = 0;
    // b asks the first process for a turn at v1 with a new key: its commit does not match, the read says why.
    const stale = await pass(one.deps, b, game.id, v1, 'lc-p3');
    expect(stale.ok ? null : stale.error).toMatchObject({ code: 'STALE_VERSION', details: { expected: v1, actual: v2 } });
    // b's retry of the turn the other process committed, sent to the first: the same answer, nothing appended.
    const retry = await pass(one.deps, b, game.id, v1, 'lc-p2');
    expect(retry.ok && retry.value).toMatchObject({ replayed: true, receipt: other.value.receipt });
    const log = await api.app.services.db.prisma.gameEvent.count({ where: { gameId: game.id } });
    expect(log).toBe(v2);
    // The held game's commit, the read that explains it; then (the service checks a stale turn again the long way, and the
    // process no longer holds the game) reads only.
    const { open, commit } = TURN_STATEMENTS;
    expect(one.sent).toEqual([commit, open, open, open]);
    expect(knownLog(one.spy, game.id, v2)).toMatchObject({ version: v1, held: null });
  });

  it('a key already used elsewhere is IDEMPOTENCY_KEY_REUSED on a held game too, and nothing is written', async () => {
    const { deps } = watched();
    const g1 = await newGame();
    const g2 = await newGame();
    const a1 = await pass(deps, a, g1.id, g1.version, 'lc-k0');
    const a2 = await pass(deps, a, g2.id, g2.version, 'lc-k1');
    expect(a1.ok && a2.ok).toBe(true);
    if (!a1.ok || !a2.ok) return;
    // b's key from game 1, on game 2 (held by this process at its version): the commit's key insert fails, the read tells why.
    const b1 = await pass(deps, b, g1.id, a1.value.receipt.version, 'lc-k2');
    expect(b1.ok).toBe(true);
    const reused = await pass(deps, b, g2.id, a2.value.receipt.version, 'lc-k2');
    expect(reused.ok ? null : reused.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const row = await api.app.services.db.prisma.game.findUnique({ where: { id: g2.id }, select: { version: true } });
    expect(row?.version).toBe(a2.value.receipt.version);
  });

  it('a known log of another game under the same id is noticed: the turn reads the whole log', async () => {
    const { deps, known, sent, spy } = watched();
    const game = await newGame();
    const first = await submitTurn(deps, a.id, {
      gameId: game.id,
      expectedVersion: game.version,
      idempotencyKey: 'lc-x1',
      action: { kind: 'pass' },
    });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const k = knownLog(spy, game.id, first.value.receipt.version)!;
    // As if the process held another game created a millisecond earlier under this id: its commit must not match.
    const earlier = new Date(k.createdAt - 1);
    const held = k.held!;
    rememberLog(spy, game.id, { ...k, createdAt: earlier.getTime(), held: { ...held, row: { ...held.row, createdAt: earlier } } });
    const second = await submitTurn(deps, b.id, {
      gameId: game.id,
      expectedVersion: first.value.receipt.version,
      idempotencyKey: 'lc-x2',
      action: { kind: 'pass' },
    });
    expect(second.ok).toBe(true);
    // Known version first, then the whole log again.
    expect(known.slice(-2)).toEqual([first.value.receipt.version, 0]);
    const { open, commit } = TURN_STATEMENTS;
    expect(sent.slice(2)).toEqual([commit, open, open, commit]);
    if (second.ok) {
      const fresh = await getGame(api.app.services, b.id, game.id, { atVersion: second.value.receipt.version });
      expect(fresh.ok && fresh.value).toEqual(second.value.game);
    }
  });
});
