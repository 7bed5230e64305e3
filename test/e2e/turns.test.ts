/**
 * Writing a turn is one transaction (issue 4): racing clients, retries with an idempotency key,
 * acting only for one's own seat, open seats and joining, the game list, and the outbox rows a turn
 * writes — over HTTP (`yoga.fetch`), on PGlite and on Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  act,
  asGame,
  READ_ERROR_FIELDS,
  freshKey,
  GAME_FIELDS,
  graphql,
  JOIN_GAME,
  readGame,
  registerPlayer,
  submit,
  type ErrorResult,
  type GameOrError,
  type Player,
} from './client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from './fixture.js';

const MY_GAMES = `query($first: Int, $after: String) { myGames(first: $first, after: $after) { edges { cursor node { id isMyTurn status } } pageInfo { hasNextPage endCursor } } }`;

describe.each(STORE_TARGETS)('turns over HTTP on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  let c: Player;
  beforeAll(async () => {
    api = await openSuite(target, 'e2e-turns-seed');
    [a, b, c] = await registerPlayers(api, 'ann', 'ben', 'cat');
  });
  afterAll(() => closeSuite(api));

  const create = (creator: Player, input: Record<string, unknown>) => createGameAs(api, creator, input);
  const eventCount = (gameId: string) => api.app.services.db.prisma.gameEvent.count({ where: { gameId } });

  it('N concurrent submissions at the same version: exactly one turn is appended, the others are STALE_VERSION', async () => {
    const g = await create(a, { opponent: b.handle });
    const events = await eventCount(g.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(api, a, g.id, g.version, { pass: true })));
    const won = results.filter((r) => r.__typename === 'Game');
    const stale = results.filter((r) => r.__typename === 'StaleVersionError') as ErrorResult[];
    expect(won).toHaveLength(1);
    expect(stale).toHaveLength(5);
    for (const s of stale) expect(s).toMatchObject({ code: 'STALE_VERSION', expected: g.version, actual: g.version + 1 });
    expect(await eventCount(g.id)).toBe(events + 1);
    expect((await readGame(api, a, g.id)).version).toBe(g.version + 1);
  });

  it('a retry with the same idempotency key answers the first response again and appends nothing, even after the game moved on', async () => {
    const g = await create(a, { opponent: b.handle });
    const key = freshKey();
    const first = await submit(api, a, g.id, g.version, { pass: true }, key);
    expect(first).toMatchObject({ __typename: 'Game', version: g.version + 1, whoseTurn: 1 });
    const events = await eventCount(g.id);
    const again = await submit(api, a, g.id, g.version, { pass: true }, key);
    expect(again).toEqual(first);
    expect(await eventCount(g.id)).toBe(events);

    // The game moves on; the retry still answers what the first request got.
    await act(api, b, g.id, { pass: true });
    const later = await submit(api, a, g.id, g.version, { pass: true }, key);
    expect(later).toEqual(first);
    expect(await eventCount(g.id)).toBe(events + 1);

    // Concurrent copies of one request: one turn, the same answer for all.
    const now = await readGame(api, a, g.id);
    const key2 = freshKey();
    const copies = await Promise.all(Array.from({ length: 4 }, () => submit(api, a, g.id, now.version, { pass: true }, key2)));
    expect(copies[0]).toMatchObject({ __typename: 'Game', version: now.version + 1 });
    for (const copy of copies) expect(copy).toEqual(copies[0]);
    expect(await eventCount(g.id)).toBe(events + 2);

    // The same key for a different request is refused.
    const reused = await submit(api, b, g.id, now.version + 1, { pass: true }, key2);
    expect(reused.__typename).toBe('Game');
    const other = await submit(api, a, g.id, now.version + 2, { resign: true }, key2);
    expect(other).toMatchObject({ __typename: 'ConflictError', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('a player acts only for their own seat: a spectator is NOT_SEATED, the opponent out of turn NOT_YOUR_TURN', async () => {
    const g = await create(a, { opponent: b.handle });
    const spectator = (await submit(api, c, g.id, g.version, { pass: true })) as ErrorResult;
    expect(spectator).toMatchObject({ __typename: 'RuleViolation', code: 'NOT_SEATED' });
    const early = (await submit(api, b, g.id, g.version, { pass: true })) as ErrorResult;
    expect(early).toMatchObject({ __typename: 'RuleViolation', code: 'NOT_YOUR_TURN' });
    expect(early.message).toBe("It is ANN's turn.");
    const anonymous = await submit(api, { ...a, token: '' }, g.id, g.version, { pass: true });
    expect(anonymous).toMatchObject({ __typename: 'UnauthenticatedError', code: 'UNAUTHENTICATED' });
    expect(await readGame(api, a, g.id)).toMatchObject({ version: g.version });
  });

  it('a typed error for every kind of bad turn, never a server error', async () => {
    const g = await create(a, { opponent: b.handle });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ play: { move: 'not a move' } }, 'RuleViolation', 'BAD_MOVE'],
      [{ play: { move: '1A ZZZZZZZ' } }, 'RuleViolation', 'MISSES_CENTRE'],
      [{ play: { move: '8H ZZ' } }, 'RuleViolation', 'TILES_NOT_IN_RACK'],
      [{ exchange: { tiles: '!!' } }, 'RuleViolation', 'BAD_EXCHANGE'],
      [{ challenge: {} }, 'RuleViolation', 'NO_PLAY_TO_CHALLENGE'],
    ];
    for (const [action, type, code] of cases) {
      const r = (await submit(api, a, g.id, g.version, action as never)) as ErrorResult;
      expect(r, JSON.stringify(action)).toMatchObject({ __typename: type, code });
    }
    const stale = (await submit(api, a, g.id, g.version + 5, { pass: true })) as ErrorResult;
    expect(stale).toMatchObject({ __typename: 'StaleVersionError', expected: g.version + 5, actual: g.version });
    const missing = (await submit(api, a, '00000000-0000-4000-8000-000000000000', 1, { pass: true })) as ErrorResult;
    expect(missing).toMatchObject({ __typename: 'NotFoundError', code: 'GAME_NOT_FOUND' });
    const two = await api.gql(
      `mutation { submitTurn(input: { gameId: "${g.id}", expectedVersion: ${g.version}, idempotencyKey: "k", action: { pass: true, resign: true } }) { __typename } }`,
      {},
      a.token,
    );
    expect(two.body.errors?.[0]?.message).toMatch(/exactly one key/);
  });

  it('an open seat: the game waits, a second player joins and it starts; a third finds the seat taken', async () => {
    const open = await create(a, { ruleSet: 'WESPA', timeControl: { kind: 'correspondence', turnSeconds: 3600 } });
    expect(open).toMatchObject({
      status: 'open',
      version: 1,
      board: null,
      myRack: null,
      whoseTurn: null,
      seats: [
        { seat: 0, isMe: true },
        { seat: 1, player: null },
      ],
    });
    const early = (await submit(api, a, open.id, 1, { pass: true })) as ErrorResult;
    expect(early).toMatchObject({ code: 'GAME_NOT_STARTED' });

    const joined = asGame(await graphql<GameOrError>(api, 'joinGame', JOIN_GAME, { id: open.id }, b.token));
    expect(joined).toMatchObject({ status: 'playing', mySeat: 1, whoseTurn: 0, ruleSet: { id: 'WESPA' } });
    expect(joined.myRack).toHaveLength(7);
    // correspondence: the player to move has turnSeconds from the start.
    expect(joined.deadline).toBe('2026-11-21T13:00:00.000Z');
    const late = await graphql<ErrorResult>(api, 'joinGame', JOIN_GAME, { id: open.id }, c.token);
    expect(late).toMatchObject({ code: 'SEAT_TAKEN' });
    const g = await act(api, a, open.id, { pass: true });
    expect(g.whoseTurn).toBe(1);
  });

  it('myGames lists games awaiting my move first, in pages', async () => {
    const d = await registerPlayer(api, 'dan');
    const e = await registerPlayer(api, 'eve');
    const mine = await create(d, { opponent: e.handle }); // d to move
    const theirs = await create(e, { opponent: d.handle }); // e to move
    const also = await create(d, { opponent: e.handle, firstSeat: 1 }); // e to move
    const page1 = await graphql<{
      edges: { cursor: string; node: { id: string; isMyTurn: boolean } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string };
    }>(api, 'myGames', MY_GAMES, { first: 2 }, d.token);
    expect(page1.edges[0]!.node).toEqual({ id: mine.id, isMyTurn: true, status: 'playing' });
    expect(page1.edges[1]!.node.isMyTurn).toBe(false);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = await graphql<typeof page1>(api, 'myGames', MY_GAMES, { first: 2, after: page1.pageInfo.endCursor }, d.token);
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect([...page1.edges, ...page2.edges].map((x) => x.node.id).sort()).toEqual([mine.id, theirs.id, also.id].sort());
  });

  it('each turn writes its webhook announcements to the outbox in the same transaction', async () => {
    const g = await create(a, { opponent: b.handle });
    const created = await api.app.services.db.prisma.outboxMessage.findMany({ where: { gameId: g.id }, orderBy: { id: 'asc' } });
    expect(created.map((m) => [m.kind, m.payload])).toEqual([
      ['game-started', { kind: 'game-started', gameId: g.id, version: g.version, turn: 0 }],
      ['your-turn', { kind: 'your-turn', gameId: g.id, version: g.version, seat: 0, playerId: a.id }],
    ]);
    await act(api, a, g.id, { pass: true });
    const r = await act(api, b, g.id, { resign: true });
    const rows = await api.app.services.db.prisma.outboxMessage.findMany({ where: { gameId: g.id }, orderBy: { id: 'asc' } });
    expect(rows.map((m) => m.kind)).toEqual(['game-started', 'your-turn', 'your-turn', 'game-ended']);
    expect(rows[2]!.payload).toMatchObject({ seat: 1, playerId: b.id, version: g.version + 1 });
    expect(rows[3]!.payload).toMatchObject({ kind: 'game-ended', version: r.version, reason: 'resigned', winnerSeat: 0 });
    expect(rows[3]!.eventSeq).toBe(r.version);
  });

  it('GAME_FIELDS selects on a finished game without errors', async () => {
    const g = await create(a, { opponent: b.handle });
    await act(api, a, g.id, { resign: true });
    const r = await api.gql(
      `query($id: ID!) { game(id: $id) { __typename ...GameFields ${READ_ERROR_FIELDS} } } ${GAME_FIELDS}`,
      { id: g.id },
      c.token,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!['game']).toMatchObject({ mySeat: null, myRack: null, legalActions: [], result: { reason: 'resigned', loser: 0 } });
  });
});
