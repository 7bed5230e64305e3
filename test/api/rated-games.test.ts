/**
 * Rated games (issue 33, docs/rated-play.md) on PGlite and Postgres: `rated` at creation and its
 * refusals, both players rated in the transaction that ends the game with `rating-changed` in its log,
 * the numbers against Glicko-2 worked out apart from the code, casual and aborted games left alone, a
 * timeout rated, two games ending at once for one player both applied, the end as one commit statement
 * and its fallback to a transaction when a rating row changed since it was read, a ruling after the end
 * that recomputes the later ratings, and the logs replayed into the same projection.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATING_PARAMS } from '../../engine/rating/params.js';
import { rateGame, type GameScore } from '../../engine/rating/rated-games.js';
import type { ServiceDeps } from '../../service/context.js';
import { abortGame, resignGame, claimTimeout } from '../../service/lifecycle.js';
import { fileDispute } from '../../service/disputes.js';
import { createGame, setBagSeedSourceForTests, type NewGameInput } from '../../service/game-create.js';
import { getGame, type GameSnapshot } from '../../service/game-reads.js';
import type { RatingChanged } from '../../service/ratings.js';
import { submitTurn } from '../../service/turns.js';
import { registerLexicons } from '../../service/lexicons.js';
import { insertPlayer } from '../../store/players.js';
import type { Db } from '../../store/db.js';
import { TURN_STATEMENTS } from '../../store/turn-statements.js';
import { openTestDb, type TestDb } from '../store/targets.js';
import { expectRatingsReplayed } from './rated-replay.js';
import { LEXICONS, openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';
import { createRecordedGame } from '../../service/recorded-games.js';

interface Player {
  readonly id: string;
  readonly handle: string;
}
let seeds = 0;

const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

describe.each(STORE_TARGETS)('rated games on $kind', (target) => {
  let testDb: TestDb;
  let now = START;
  let services: ServiceDeps;
  let amy: Player;
  let bob: Player;
  let cat: Player;
  let dan: Player;
  const player = async (handle: string): Promise<Player> => {
    const p = await insertPlayer(testDb.db.prisma, { handle, displayName: handle, passwordHash: null });
    return { id: p!.id, handle };
  };
  beforeAll(async () => {
    // Bag seeds from a counter: the same racks on every run.
    setBagSeedSourceForTests(() => `rated-${target.kind}-${++seeds}`.padEnd(64, '0'));
    testDb = await openTestDb(target);
    await registerLexicons(testDb.db.prisma, LEXICONS);
    services = { db: testDb.db, lexicons: LEXICONS, now: () => now };
    [amy, bob, cat, dan] = [await player('r-amy'), await player('r-bob'), await player('r-cat'), await player('r-dan')];
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await testDb?.drop();
  });

  const deps = () => services;
  const prisma = () => testDb.db.prisma;
  const create = (a: Player, input: NewGameInput) => createGame(deps(), a.id, input);
  const rated = async (a: Player, b: Player, more: Partial<NewGameInput> = {}) =>
    value(await create(a, { opponent: b.handle, rated: true, ...more })).id;
  const readGame = async (p: Player, id: string): Promise<GameSnapshot> => value(await getGame(deps(), p.id, id));
  const act = async (p: Player, id: string, action: { kind: 'pass' }) => {
    const g = await readGame(p, id);
    value(await submitTurn(deps(), p.id, { gameId: id, expectedVersion: g.version, idempotencyKey: randomUUID(), action }));
  };
  const ratingOf = (p: Player, category = 'tournament/correspondence') =>
    prisma().playerRating.findUnique({ where: { playerId_category: { playerId: p.id, category } } });
  const ratingEvents = async (gameId: string) =>
    (await prisma().gameEvent.findMany({ where: { gameId, type: 'rating-changed' }, orderBy: { seq: 'asc' } })).map((e) => ({
      seq: e.seq,
      payload: e.payload as unknown as RatingChanged,
    }));

  const expectProjectionReplayed = () => expectRatingsReplayed(testDb.db);

  it('refuses a rated game against a robot or with overrides: typed errors naming the field, nothing written', async () => {
    const before = await prisma().game.count();
    const cases: [NewGameInput, string, string][] = [
      [{ opponent: 'robot:greedy' }, 'RATED_ROBOT', 'rated'],
      [{ opponent: bob.handle, overrides: { challenge: { points: 10 } } }, 'RATED_OVERRIDES', 'overrides'],
    ];
    for (const [input, code, field] of cases) {
      const r = await create(amy, { ...input, rated: true });
      expect(r.ok ? null : r.error, code).toMatchObject({ code, details: { field } });
    }
    expect(await prisma().game.count()).toBe(before);
    // An open seat may be rated; a casual game has no category.
    const open = value(await create(amy, { rated: true }));
    const row = await prisma().game.findUniqueOrThrow({ where: { id: open.id } });
    expect([row.rated, row.ratingCategory]).toEqual([true, 'tournament/correspondence']);
    const casual = await prisma().game.findUniqueOrThrow({ where: { id: value(await create(amy, { opponent: bob.handle })).id } });
    expect([casual.rated, casual.ratingCategory]).toEqual([false, null]);
  });

  it('a resignation rates both players in the ending transaction: Glicko-2 for two newcomers, the event in the log', async () => {
    const id = await rated(amy, bob);
    const row = await prisma().game.findUniqueOrThrow({ where: { id } });
    expect(row.ratingCategory).toBe('tournament/correspondence');
    const ended = value(await resignGame(deps(), bob.id, id));
    // resigned, game-ended, then rating-changed: the version counts the service event.
    const log = await prisma().gameEvent.findMany({ where: { gameId: id }, orderBy: { seq: 'asc' } });
    expect(log.map((e) => e.type).slice(-3)).toEqual(['resigned', 'game-ended', 'rating-changed']);
    expect(ended.version).toBe(log.length);
    expect((await prisma().game.findUniqueOrThrow({ where: { id } })).version).toBe(log.length);
    // Worked out from Glickman's steps 1–8 by hand (a separate script, not this code): two 1500/350/0.06
    // players, τ 0.5, one game: the winner 1662.3109 / 290.3190 / 0.0599997, the loser 1337.6891.
    const [winner, loser] = [await ratingOf(amy), await ratingOf(bob)];
    expect(winner).toMatchObject({ games: 1, provisional: true });
    expect(winner!.rating).toBeCloseTo(1662.3109, 3);
    expect(winner!.deviation).toBeCloseTo(290.319, 3);
    expect(winner!.volatility).toBeCloseTo(0.0599997, 6);
    expect(loser!.rating).toBeCloseTo(1337.6891, 3);
    expect(loser!.deviation).toBeCloseTo(290.319, 3);
    const e = (await ratingEvents(id))[0]!.payload;
    expect(e).toMatchObject({
      type: 'rating-changed',
      category: 'tournament/correspondence',
      reason: 'resigned',
      supersedes: null,
      params: { tau: 0.5, initial: { rating: 1500, rd: 350, vol: 0.06 }, ratingPeriodMs: RATING_PARAMS.ratingPeriodMs, provisionalRd: 110 },
      players: [
        { seat: 0, playerId: amy.id, score: 1, before: { rating: 1500, rd: 350, vol: 0.06 }, idlePeriods: 0, provisional: true },
        { seat: 1, playerId: bob.id, score: 0, before: { rating: 1500, rd: 350, vol: 0.06 } },
      ],
    });
    expect(e.players[0].after.rating).toBe(winner!.rating);
    const changes = await prisma().ratingChange.findMany({ where: { gameId: id } });
    expect(changes.map((c) => [c.playerId, c.score, c.gameSeq]).sort()).toEqual(
      [
        [amy.id, 1, log.length],
        [bob.id, 0, log.length],
      ].sort(),
    );
    // game-ended announces the change; the view of the ended game still reads (the service event is skipped).
    const outbox = await prisma().outboxMessage.findFirstOrThrow({ where: { gameId: id, kind: 'game-ended' } });
    expect(outbox.payload).toMatchObject({ rating: { category: 'tournament/correspondence', players: [{ seat: 0 }, { seat: 1 }] } });
    const view = await readGame(amy, id);
    expect([view.view!.status, view.version]).toEqual(['ended', log.length]);
    await expectProjectionReplayed();
  });

  it('a game played to its end rates on its final scores; a casual one and an aborted rated one change nothing', async () => {
    const id = await rated(cat, dan);
    for (let i = 0; i < 6; i++) await act(i % 2 === 0 ? cat : dan, id, { kind: 'pass' });
    const view = (await readGame(cat, id)).view!;
    expect(view.status).toBe('ended');
    const e = (await ratingEvents(id))[0]!.payload;
    const expected = view.result!.winner === null ? [0.5, 0.5] : view.result!.winner === 0 ? [1, 0] : [0, 1];
    expect([e.reason, e.players[0].score, e.players[1].score]).toEqual(['scoreless-turns', ...expected]);
    expect(e.gameScores).toEqual(view.scores);

    const snapshot = async () =>
      (await prisma().playerRating.findMany({ orderBy: [{ playerId: 'asc' }] })).map((r) => [r.playerId, r.rating, r.games]);
    const before = await snapshot();
    const changes = await prisma().ratingChange.count();
    const casual = value(await create(amy, { opponent: bob.handle })).id;
    value(await resignGame(deps(), amy.id, casual));
    const aborted = await rated(amy, bob);
    value(await abortGame(deps(), amy.id, aborted));
    expect(await snapshot()).toEqual(before);
    expect(await prisma().ratingChange.count()).toBe(changes);
    expect(await ratingEvents(casual)).toEqual([]);
    expect(await ratingEvents(aborted)).toEqual([]);
  });

  it('a timeout rates as a loss', async () => {
    const tc = { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0 } as NewGameInput['timeControl'];
    now = START;
    const id = await rated(amy, cat, { timeControl: tc });
    now = new Date(START.getTime() + 2 * 3600_000);
    const [a0, c0] = [await ratingOf(amy), await ratingOf(cat)];
    value(await claimTimeout(deps(), cat.id, id));
    const e = (await ratingEvents(id))[0]!.payload;
    expect(e).toMatchObject({ reason: 'timed-out', players: [{ score: 0 }, { score: 1 }] });
    expect((await ratingOf(amy))!.rating).toBeLessThan(a0!.rating);
    expect((await ratingOf(cat))!.rating).toBeGreaterThan(c0!.rating);
    expect(e.players[0].before.rating).toBe(a0!.rating);
    now = START;
  });

  it('two rated games ending at once for one player both apply, one after the other (no lost update)', async () => {
    const g1 = await rated(amy, bob);
    const g2 = await rated(amy, dan);
    const before = (await ratingOf(amy))!;
    const results = await Promise.all([resignGame(deps(), bob.id, g1), resignGame(deps(), dan.id, g2)]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const after = (await ratingOf(amy))!;
    expect(after.games).toBe(before.games + 2);
    const [c1, c2] = (await prisma().ratingChange.findMany({ where: { playerId: amy.id, gameId: { in: [g1, g2] } } })).sort(
      (x, y) => x.ratedAt.getTime() - y.ratedAt.getTime(),
    );
    // The second update started from the first's result, and is rated after it.
    expect(c1!.ratingBefore).toBe(before.rating);
    expect(c2!.ratingBefore).toBe(c1!.ratingAfter);
    expect(c2!.ratingAfter).toBe(after.rating);
    expect(c2!.ratedAt.getTime()).toBeGreaterThan(c1!.ratedAt.getTime());
    await expectProjectionReplayed();
  });

  it('an end is one commit statement; a rating row changed since it was read writes nothing there, and the transaction rates from the row as it is', async () => {
    const [gil, hal] = [await player('r-gil'), await player('r-hal')];
    // The database handle with the driver statements and transactions it is asked for, in order.
    const db = testDb.db;
    const sent: string[] = [];
    const spy: Db = {
      ...db,
      statement: (name, sql, params) => {
        sent.push(name);
        return db.statement(name, sql, params);
      },
      transaction: (fn) => {
        sent.push('transaction');
        return db.transaction(fn);
      },
    };
    const watched = { ...services, db: spy };
    const resignedBy = async (loser: Player) => {
      const id = value(await createGame(watched, gil.id, { opponent: hal.handle, rated: true })).id;
      sent.length = 0;
      value(await resignGame(watched, loser.id, id));
      return { id, sent: [...sent].filter((n) => n !== TURN_STATEMENTS.open), event: (await ratingEvents(id))[0]!.payload };
    };
    const { commitRated } = TURN_STATEMENTS;
    // Two unrated players: their rows are read (absent), then written by the commit statement itself.
    const first = await resignedBy(hal);
    expect(first.sent).toEqual(['arbiter_read_ratings', commitRated]);
    expect(first.event.players[0].before).toEqual({ rating: 1500, rd: 350, vol: 0.06 });
    // The rows this process wrote spare the next end its read.
    expect((await resignedBy(hal)).sent).toEqual([commitRated]);

    // Another process rates gil meanwhile (as far as this one knows): its remembered row is no longer the row.
    const where = { playerId_category: { playerId: gil.id, category: 'tournament/correspondence' } };
    await prisma().playerRating.update({ where, data: { rating: 1700.25, games: { increment: 1 } } });
    const [gilRow, halRow] = [await ratingOf(gil), await ratingOf(hal)];
    const forced = await resignedBy(gil);
    // The commit statement wrote nothing (hal's row, already written, rolled back with it); the transaction rated.
    expect(forced.sent).toEqual([commitRated, 'transaction']);
    const at = Date.parse(forced.event.ratedAt);
    const standing = (r: NonNullable<typeof gilRow>) => ({
      rating: { rating: r.rating, rd: r.deviation, vol: r.volatility },
      lastRatedAt: r.lastRatedAt.getTime(),
      games: r.games,
    });
    const expected = value(rateGame([standing(gilRow!), standing(halRow!)], [0, 1], at));
    expect(forced.event.players[0].before.rating).toBe(1700.25);
    const [gilAfter, halAfter] = [await ratingOf(gil), await ratingOf(hal)];
    expect(gilAfter!.rating).toBeCloseTo(expected[0].after.rating, 9);
    expect(halAfter!.rating).toBeCloseTo(expected[1].after.rating, 9);
    expect([gilAfter!.games, halAfter!.games]).toEqual([gilRow!.games + 1, halRow!.games + 1]);
    expect(await prisma().ratingChange.count({ where: { gameId: forced.id } })).toBe(2);
    const log = await prisma().gameEvent.findMany({ where: { gameId: forced.id }, orderBy: { seq: 'asc' } });
    expect(log.map((e) => e.type).slice(-1)).toEqual(['rating-changed']);
    expect((await prisma().game.findUniqueOrThrow({ where: { id: forced.id } })).version).toBe(log.length);
    // The refused rows are forgotten: the next end reads them again and commits in one statement.
    expect((await resignedBy(hal)).sent).toEqual(['arbiter_read_ratings', commitRated]);
  });

  it('a ruling that changes an ended game’s result recomputes it and the later ratings of everyone it reaches', async () => {
    // Game 1: eve v fay ends on scoreless turns; game 2 (later): fay beats gus.
    const [eve, fay, gus] = [await player('r-eve'), await player('r-fay'), await player('r-gus')];
    const g1 = await rated(eve, fay);
    for (let i = 0; i < 6; i++) await act(i % 2 === 0 ? eve : fay, g1, { kind: 'pass' });
    const ended = await readGame(eve, g1);
    const endedScores = ended.view!.scores;
    const g2 = await rated(fay, gus);
    value(await resignGame(deps(), gus.id, g2));
    const first = (await ratingEvents(g1))[0]!.payload;
    // The leader of game 1 is charged 10 minutes of overtime (−100): the result turns over.
    const leader = endedScores[0] >= endedScores[1] ? 0 : 1;
    const leaderPass = (await prisma().gameEvent.findMany({ where: { gameId: g1, type: 'pass' }, orderBy: { seq: 'asc' } })).find(
      (e) => (e.payload as { seat: number }).seat === leader,
    )!;
    const claimant = leader === 0 ? fay : eve;
    const ruled = await fileDispute(deps(), claimant.id, {
      gameId: g1,
      expectedVersion: ended.version,
      idempotencyKey: randomUUID(),
      kind: 'overtime',
      concerns: leaderPass.seq,
      player: null,
      facts: { secondsOver: 600 },
    });
    expect(ruled.ok, JSON.stringify(ruled)).toBe(true);
    const events = await ratingEvents(g1);
    expect(events).toHaveLength(2);
    const second = events[1]!.payload;
    expect(second.supersedes).toBe(events[0]!.seq);
    expect(second.ratedAt).toBe(first.ratedAt);
    expect(second.players[leader]!.score).toBe(0);
    expect(second.players[1 - leader]!.score).toBe(1);
    // Independently of the store: game 1 with its new scores, then game 2 from fay's new rating.
    const scores1: [GameScore, GameScore] = leader === 0 ? [0, 1] : [1, 0];
    const fresh = { rating: RATING_PARAMS.initial, lastRatedAt: null, games: 0 };
    const one = value(rateGame([fresh, fresh], scores1, Date.parse(first.ratedAt)));
    const g2Event = (await ratingEvents(g2))[0]!.payload;
    const fayAfter1 = { rating: one[1].after, lastRatedAt: Date.parse(first.ratedAt), games: 1 };
    const two = value(rateGame([fayAfter1, fresh], [1, 0], Date.parse(g2Event.ratedAt)));
    expect((await ratingOf(eve))!.rating).toBeCloseTo(one[0].after.rating, 9);
    expect((await ratingOf(fay))!.rating).toBeCloseTo(two[0].after.rating, 9);
    expect((await ratingOf(gus))!.rating).toBeCloseTo(two[1].after.rating, 9);
    const fayG2 = await prisma().ratingChange.findUniqueOrThrow({ where: { gameId_playerId: { gameId: g2, playerId: fay.id } } });
    expect(fayG2.ratingBefore).toBeCloseTo(one[1].after.rating, 9);
    // Game 2's log keeps the rating at the time; the projection is the recomputed one, and replays from the logs.
    expect(g2Event.players[0].before.rating).not.toBeCloseTo(one[1].after.rating, 3);
    await expectProjectionReplayed();
  });
});

describe.each(STORE_TARGETS)('rated at the edge on $kind', (target) => {
  let api: TestApi;
  let a: { id: string; token: string };
  beforeAll(async () => {
    api = await openTestApi(target);
    a = await api.register('edge-amy');
    await api.register('edge-bob');
  });
  afterAll(async () => api?.close());

  const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id } ... on Error { code message details } } }`;

  it('createGame takes rated; a robot opponent is RATED_ROBOT naming the field; a recorded game needs two accounts', async () => {
    const ok = (await api.gql(CREATE, { input: { opponent: 'edge-bob', rated: true } }, a.token)).body.data!['createGame'];
    expect(ok.__typename).toBe('Game');
    const row = await api.app.services.db.prisma.game.findUniqueOrThrow({ where: { id: ok.id } });
    expect(row.ratingCategory).toBe('tournament/correspondence');
    const robot = (await api.gql(CREATE, { input: { opponent: 'robot:greedy', rated: true } }, a.token)).body.data!['createGame'];
    expect(robot).toMatchObject({ __typename: 'RuleViolation', code: 'RATED_ROBOT', details: { field: 'rated' } });
    const res = await api.fetch('/v1/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${a.token}` },
      body: JSON.stringify({ opponent: 'edge-bob', rated: true, tileSet: 'FRENCH' }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'RATED_OVERRIDES', details: { field: 'overrides' } });
    const deps = api.app.services;
    const recorded = await createRecordedGame(deps, a.id, { players: [{ handle: 'edge-bob' }, { name: 'Walk-in' }], rated: true });
    expect(recorded.ok ? null : recorded.error).toMatchObject({ code: 'RATED_NO_ACCOUNT', details: { field: 'players' } });
    const both = await createRecordedGame(deps, a.id, { players: [{ handle: 'edge-bob' }, { handle: 'edge-amy' }], rated: true });
    const rec = await deps.db.prisma.game.findUniqueOrThrow({ where: { id: both.ok ? both.value.id : '' } });
    expect(rec.ratingCategory).toBe('tournament/recorded');
  });
});
