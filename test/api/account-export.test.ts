/**
 * Exporting one's data (issue 32, service/account-export.ts): one JSON document with the account and every
 * game's GCG, as the player may see it: no secret or hash of theirs, and never the opponent's rack of a
 * game in progress (the oracle is the true state read from the store, as test/e2e/secrets.test.ts does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay } from '../../engine/game/apply.js';
import { isGameEventType, type GameEvent } from '../../engine/game/events.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { joinTiles } from '../../engine/tiles.js';
import {
  act,
  asGame,
  CREATE_GAME,
  findPlay,
  GAME_RECORD,
  graphql,
  readGame,
  registerPlayer,
  useFixedBagSeeds,
  type GameOrError,
  type Player,
} from '../e2e/client.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

const EXPORT = `query($page: Int) {
  accountExport(gamePage: $page) { __typename ... on AccountExport { filename document } ... on Error { code message details } }
}`;
const CREATE_KEY = `mutation { createApiKey(input: { name: "reader", apiScopes: [GAMES_READ] }) { __typename ... on NewApiKey { key } } }`;

interface ExportedGame {
  id: string;
  seat: number;
  status: string;
  gcg: string | null;
  complete: boolean;
}

describe.each(STORE_TARGETS)('exporting an account on $kind', (target) => {
  useFixedBagSeeds('account-export');
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let key: string;
  let finished: string;
  let running: string;

  beforeAll(async () => {
    api = await openTestApi(target);
    ann = await registerPlayer(api, 'annika');
    ben = await registerPlayer(api, 'bennet');
    key = (await api.gql(CREATE_KEY, {}, ann.token)).body.data!['createApiKey'].key as string;
    finished = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: 'bennet' } }, ann.token)).id;
    await act(api, ann, finished, { resign: true });
    running = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: 'bennet' } }, ann.token)).id;
    const first = await readGame(api, ann, running);
    const mover = first.isMyTurn ? ann : ben;
    await act(api, mover, running, { play: { move: findPlay(await readGame(api, mover, running), LEX, true)!.move } });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Both racks of a game, from the store. */
  const racksOf = async (gameId: string) => {
    const rows = await api.app.services.db.prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
    const state = replay(rows.filter((r) => isGameEventType(r.type)).map((r) => r.payload as unknown as GameEvent));
    if (!state.ok) throw new Error(state.error.message);
    return [state.value.racks[0].tiles, state.value.racks[1].tiles] as const;
  };

  it('gives the account, its settings and every game with the GCG the player may see', async () => {
    const r = await api.gql(EXPORT, {}, ann.token);
    const out = r.body.data!['accountExport'];
    expect(out.__typename).toBe('AccountExport');
    expect(out.filename).toBe('arbiter-annika-2026-11-21.json');
    const doc = out.document;
    expect(doc).toMatchObject({
      format: 'arbiter-account-export/1',
      account: { id: ann.id, handle: 'annika', displayName: 'ANNIKA', role: 'player' },
      email: null,
      games: { page: 1, pages: 1, total: 2 },
    });
    expect(doc.apiKeys).toHaveLength(1);
    expect(Object.keys(doc.apiKeys[0]).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
    const games = doc.games.items as ExportedGame[];
    expect(games.map((g) => g.id).sort()).toEqual([finished, running].sort());
    // Each GCG is exactly what gameRecord gives the player.
    for (const g of games) {
      const record = await graphql<{ gcg: string; complete: boolean }>(api, 'gameRecord', GAME_RECORD, { id: g.id }, ann.token);
      expect(g.gcg).toBe(record.gcg);
      expect(g.complete).toBe(record.complete);
    }
    expect(games.find((g) => g.id === finished)!.complete).toBe(true);
  });

  it('never holds a secret, a hash or the opponent’s rack of a game in progress', async () => {
    const doc = (await api.gql(EXPORT, {}, ann.token)).body.data!['accountExport'].document;
    const text = JSON.stringify(doc);
    const dbKey = await api.app.services.db.prisma.apiKey.findFirstOrThrow({ where: { ownerId: ann.id } });
    const me = await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { id: ann.id } });
    expect(text).not.toContain(dbKey.keyHash);
    // The secret is everything after arb_<prefix>_ (base64url, so it may hold '_' itself).
    expect(text).not.toContain(key.slice('arb_'.length + 12 + 1));
    expect(text).not.toContain(me.passwordHash!);
    expect(text).not.toMatch(/scrypt\$/);

    const annSeat = (await api.app.services.db.prisma.seat.findFirstOrThrow({ where: { gameId: running, playerId: ann.id } })).seat;
    const racks = await racksOf(running);
    const theirs = racks[1 - annSeat]!;
    const gcg = (doc.games.items as ExportedGame[]).find((g) => g.id === running)!.gcg!;
    expect(theirs.length).toBe(7);
    for (const form of [joinTiles(theirs), [...theirs].sort().join('')]) expect(gcg).not.toContain(form);
  });

  it('is a download over REST, for a password session only', async () => {
    const res = await api.fetch('/v1/me/export', { headers: { authorization: `Bearer ${ann.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="arbiter-annika-2026-11-21.json"');
    const doc = (await res.json()) as { account: { handle: string }; games: { items: ExportedGame[] } };
    expect(doc.account.handle).toBe('annika');
    expect(doc.games.items).toHaveLength(2);

    // An API key, even one that reads games, does not carry the whole account away.
    const byKey = await api.fetch('/v1/me/export', { headers: { authorization: `Bearer ${key}` } });
    expect(byKey.status).toBe(403);
    expect((await api.gql(EXPORT, {}, key)).body.data!['accountExport']).toMatchObject({ __typename: 'ForbiddenError' });
    const anonymous = await api.fetch('/v1/me/export');
    expect(anonymous.status).toBe(401);
  });

  it('pages the games and refuses a page that does not exist', async () => {
    const beyond = (await api.gql(EXPORT, { page: 2 }, ann.token)).body.data!['accountExport'];
    expect(beyond).toMatchObject({ __typename: 'RuleViolation', code: 'EXPORT_PAGE_INVALID', details: { field: 'gamePage', pages: 1 } });
    const res = await api.fetch('/v1/me/export?gamePage=0', { headers: { authorization: `Bearer ${ann.token}` } });
    expect(res.status).toBe(400);
  });
});
