/**
 * The known-log cache of the turn path (service/log-cache.ts, issue #17): the second command on a game
 * in the same process reads only the events after the version it knows, and every answer is the one a
 * full read of the log gives: the caller's view, the stored log, and a fresh process's view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  /** The app's database handle, with every open statement's "known version" parameter noted. */
  const watched = () => {
    const db = api.app.services.db;
    const known: number[] = [];
    const spy: Db = {
      ...db,
      statement: (name, sql, params) => {
        if (name === TURN_STATEMENTS.open) known.push(Number(params[4]));
        return db.statement(name, sql, params);
      },
    };
    return { deps: { ...api.app.services, db: spy }, known, spy };
  };

  const newGame = async (): Promise<{ id: string; version: number }> => {
    const g = (await api.gql(CREATE, { input: { opponent: 'cache-b' } }, a.token)).body.data!['createGame'];
    expect(g.__typename).toBe('Game');
    return g;
  };

  it('the next turn reads only the events after the known version, and answers as a full read does', async () => {
    const { deps, known, spy } = watched();
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
    expect(known[0]).toBe(0);
    expect(known.slice(1).every((v, i) => v > 0 && v > (known[i] ?? 0))).toBe(true);
    expect(knownLog(spy, game.id, version)?.version).toBe(version);
  });

  it('a known log of another game under the same id is noticed: the turn reads the whole log', async () => {
    const { deps, known, spy } = watched();
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
    rememberLog(spy, game.id, { ...k, createdAt: k.createdAt - 1 });
    const second = await submitTurn(deps, b.id, {
      gameId: game.id,
      expectedVersion: first.value.receipt.version,
      idempotencyKey: 'lc-x2',
      action: { kind: 'pass' },
    });
    expect(second.ok).toBe(true);
    // Known version first, then the whole log again.
    expect(known.slice(-2)).toEqual([first.value.receipt.version, 0]);
    if (second.ok) {
      const fresh = await getGame(api.app.services, b.id, game.id, { atVersion: second.value.receipt.version });
      expect(fresh.ok && fresh.value).toEqual(second.value.game);
    }
  });
});
