/**
 * Rated play as clients see it (issue 33, docs/rated-play.md, docs/matches.md "Rated matches") over HTTP,
 * on PGlite and Postgres: `Game.rated` / `ratingCategory` on rated and casual games (GraphQL and REST), each
 * seat's `ratingChange` once a rated game ends (the answer of the ending turn included, a spectator too),
 * a rated match whose games are each rated as their own game and whose ratings are what a pure replay of
 * the logs gives, and the refusals of a rated match with nothing written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATING_PARAMS } from '../../engine/rating/params.js';
import { rateGame } from '../../engine/rating/rated-games.js';
import type { RatingChanged } from '../../service/ratings.js';
import { fileDispute } from '../../service/disputes.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { expectRatingsReplayed } from './rated-replay.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

interface Account {
  readonly id: string;
  readonly token: string;
  readonly handle: string;
}

interface SeatChange {
  category: string;
  score: number;
  ratingBefore: number;
  ratingAfter: number;
  deviationBefore: number;
  deviationAfter: number;
  provisional: boolean;
  ratedAt: string;
}

interface GameView {
  __typename: 'Game';
  id: string;
  version: number;
  state: string;
  rated: boolean;
  ratingCategory: string | null;
  seats: { seat: number; player: { handle: string } | null; ratingChange: SeatChange | null }[];
}

const GAME_FIELDS = `fragment G on Game {
  id version state rated ratingCategory
  seats { seat player { handle } ratingChange { category score ratingBefore ratingAfter deviationBefore deviationAfter provisional ratedAt } }
}`;
const ERR = `... on Error { code message details }`;
const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ...G ${ERR} } } ${GAME_FIELDS}`;
const GAME = `query($id: ID!) { game(id: $id) { __typename ...G ${ERR} } } ${GAME_FIELDS}`;
const SUBMIT = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ...G ${ERR} } } ${GAME_FIELDS}`;
const CREATE_MATCH = `mutation($input: CreateMatchInput!) { createMatch(input: $input) {
  __typename ${ERR}
  ... on Match { id rated state games { index game { ...G } } result { tie winnerSeat gameWinners } }
} } ${GAME_FIELDS}`;
const MATCH = `query($id: ID!) { match(id: $id) { __typename ${ERR}
  ... on Match { id rated state combinedScores games { index game { ...G } } result { tie winnerSeat gameWinners } }
} } ${GAME_FIELDS}`;

let seeds = 0;

describe.each(STORE_TARGETS)('rated games and matches as clients see them on $kind', (target) => {
  let api: TestApi;
  let amy: Account;
  let bob: Account;
  let cat: Account;

  const gql = async (query: string, variables: Record<string, unknown>, who: Account) => {
    const r = await api.gql(query, variables, who.token);
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    return Object.values(r.body.data!)[0] as Record<string, any>;
  };
  const game = async (id: string, who: Account): Promise<GameView> => (await gql(GAME, { id }, who)) as GameView;
  const rest = (path: string, who: Account, method = 'GET', body?: unknown) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const resign = async (id: string, who: Account): Promise<GameView> => {
    const g = await game(id, who);
    const r = await gql(
      SUBMIT,
      { input: { gameId: id, expectedVersion: g.version, idempotencyKey: randomUUID(), action: { resign: true } } },
      who,
    );
    expect(r['__typename'], JSON.stringify(r)).toBe('Game');
    return r as GameView;
  };
  const prisma = () => api.app.services.db.prisma;

  const expectProjectionReplayed = () => expectRatingsReplayed(api.app.services.db);

  beforeAll(async () => {
    setBagSeedSourceForTests(() => `rated-views-${target.kind}-${++seeds}`.padEnd(64, '0'));
    api = await openTestApi(target);
    const account = async (handle: string): Promise<Account> => ({ ...(await api.register(handle)), handle });
    [amy, bob, cat] = [await account('rv-amy'), await account('rv-bob'), await account('rv-cat')];
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await api?.close();
  });

  it('shows rated and ratingCategory, and each seat’s rating change once a rated game ends (GraphQL and REST)', async () => {
    const made = (await gql(CREATE_GAME, { input: { opponent: bob.handle, rated: true } }, amy)) as GameView;
    expect([made.rated, made.ratingCategory]).toEqual([true, 'tournament/correspondence']);
    expect(made.seats.map((s) => s.ratingChange)).toEqual([null, null]);
    const casual = (await gql(CREATE_GAME, { input: { opponent: bob.handle } }, amy)) as GameView;
    expect([casual.rated, casual.ratingCategory]).toEqual([false, null]);

    // REST shows the same leaves, and the seats' ratingChange (null while the game is on).
    const restRated = (await (await rest(`/games/${made.id}`, amy)).json()) as GameView;
    expect([restRated.rated, restRated.ratingCategory]).toEqual([true, 'tournament/correspondence']);
    expect(restRated.seats.map((s) => s.ratingChange)).toEqual([null, null]);
    const restCasual = (await (await rest(`/games/${casual.id}`, amy)).json()) as GameView;
    expect([restCasual.rated, restCasual.ratingCategory]).toEqual([false, null]);

    // The ending turn's own answer shows the change its commit wrote.
    const ended = await resign(made.id, bob);
    expect(ended.state).toBe('ENDED');
    const [a, b] = ended.seats.map((s) => s.ratingChange!);
    expect(a).toMatchObject({
      category: 'tournament/correspondence',
      score: 1,
      ratingBefore: 1500,
      deviationBefore: 350,
      provisional: true,
    });
    expect(b).toMatchObject({
      category: 'tournament/correspondence',
      score: 0,
      ratingBefore: 1500,
      deviationBefore: 350,
      provisional: true,
    });
    expect(a!.ratingAfter).toBeGreaterThan(1500);
    expect(b!.ratingAfter).toBeLessThan(1500);
    // The numbers are the game's rating_changes rows and the players' ratings now.
    const rows = await prisma().ratingChange.findMany({
      where: { gameId: made.id },
      select: { playerId: true, score: true, ratingBefore: true, ratingAfter: true, deviationAfter: true, ratedAt: true },
    });
    for (const [seat, change] of [a!, b!].entries()) {
      const row = rows.find((r) => r.playerId === (seat === 0 ? amy.id : bob.id))!;
      expect([change.ratingBefore, change.ratingAfter, change.deviationAfter, change.score]).toEqual([
        row.ratingBefore,
        row.ratingAfter,
        row.deviationAfter,
        row.score,
      ]);
      expect(Date.parse(change.ratedAt)).toBe(row.ratedAt.getTime());
    }
    // Read again by a spectator, and over REST: the same, public.
    expect((await game(made.id, cat)).seats.map((s) => s.ratingChange)).toEqual([a, b]);
    const restEnded = (await (await rest(`/games/${made.id}`, cat)).json()) as GameView;
    expect(restEnded.seats.map((s) => s.ratingChange?.ratingAfter)).toEqual([a!.ratingAfter, b!.ratingAfter]);
    // A casual game ends with no change.
    const casualEnded = await resign(casual.id, bob);
    expect(casualEnded.seats.map((s) => s.ratingChange)).toEqual([null, null]);
    expect((await game(casual.id, amy)).seats.map((s) => s.ratingChange)).toEqual([null, null]);
    await expectProjectionReplayed();
  });

  it('after a ruling that turns the result over, the seats show the ruling’s change (the latest rating-changed)', async () => {
    const made = (await gql(CREATE_GAME, { input: { opponent: cat.handle, rated: true } }, bob)) as GameView;
    for (let i = 0; i < 6; i++) {
      const who = i % 2 === 0 ? bob : cat;
      const g = await game(made.id, who);
      const r = await gql(
        SUBMIT,
        { input: { gameId: made.id, expectedVersion: g.version, idempotencyKey: randomUUID(), action: { pass: true } } },
        who,
      );
      expect(r['__typename'], JSON.stringify(r)).toBe('Game');
    }
    const ended = await game(made.id, bob);
    expect(ended.state).toBe('ENDED');
    const scores = ended.seats.map((s) => s.ratingChange!.score);
    // The leader (seat 0 on a tie) is charged 10 minutes of overtime (−100): the other seat wins now.
    const leader = scores[1] === 1 ? 1 : 0;
    const pass = (await prisma().gameEvent.findMany({ where: { gameId: made.id, type: 'pass' }, orderBy: { seq: 'asc' } })).find(
      (e) => (e.payload as { seat: number }).seat === leader,
    )!;
    const ruled = await fileDispute(api.app.services, leader === 0 ? cat.id : bob.id, {
      gameId: made.id,
      expectedVersion: ended.version,
      idempotencyKey: randomUUID(),
      kind: 'overtime',
      concerns: pass.seq,
      player: null,
      facts: { secondsOver: 600 },
    });
    expect(ruled.ok, JSON.stringify(ruled)).toBe(true);
    const events = await prisma().gameEvent.findMany({ where: { gameId: made.id, type: 'rating-changed' }, orderBy: { seq: 'asc' } });
    expect(events).toHaveLength(2);
    const latest = events[1]!.payload as unknown as RatingChanged;
    const shown = await game(made.id, amy);
    expect(shown.seats.map((s) => s.ratingChange?.score)).toEqual(leader === 0 ? [0, 1] : [1, 0]);
    expect(shown.seats.map((s) => s.ratingChange?.score)).not.toEqual(scores);
    expect(shown.seats.map((s) => s.ratingChange?.ratingAfter)).toEqual(latest.players.map((p) => p.after.rating));
    expect(shown.seats[0]!.ratingChange!.ratedAt).toBe(latest.ratedAt);
    await expectProjectionReplayed();
  });

  it('a rated match rates each of its games as its own game, and the ratings are the logs’ replay', async () => {
    const created = await gql(CREATE_MATCH, { input: { opponent: bob.handle, rated: true } }, amy);
    expect(created['__typename'], JSON.stringify(created)).toBe('Match');
    expect(created['rated']).toBe(true);
    const games = (created['games'] as { index: number; game: GameView }[]).map((g) => g.game);
    expect(games.map((g) => [g.rated, g.ratingCategory])).toEqual([
      [true, 'match/correspondence'],
      [true, 'match/correspondence'],
    ]);
    const before = await prisma().playerRating.findMany({ where: { category: 'match/correspondence' } });
    expect(before).toEqual([]);

    // Game 1: Bob resigns. Rated at once, as its own game, although the match is still on.
    const first = await resign(games[0]!.id, bob);
    expect(first.seats.map((s) => s.ratingChange?.score)).toEqual([1, 0]);
    const afterFirst = await gql(MATCH, { id: created['id'] }, amy);
    expect(afterFirst['state']).toBe('PLAYING');
    expect((await prisma().playerRating.findMany({ where: { category: 'match/correspondence' } })).map((r) => r.games)).toEqual([1, 1]);

    // Game 2: Amy resigns. Its change starts from game 1's ratings.
    const second = await resign(games[1]!.id, amy);
    const [amy2, bob2] = second.seats.map((s) => s.ratingChange!);
    expect([amy2!.score, bob2!.score]).toEqual([0, 1]);
    expect(amy2!.ratingBefore).toBe(first.seats[0]!.ratingChange!.ratingAfter);
    expect(bob2!.ratingBefore).toBe(first.seats[1]!.ratingChange!.ratingAfter);

    const match = await gql(MATCH, { id: created['id'] }, cat);
    expect(match['state']).toBe('ENDED');
    expect(match['result']).toMatchObject({ gameWinners: [0, 1] });
    // Each game's log holds its own rating-changed; no other is written for the match.
    for (const g of games) expect(await prisma().gameEvent.count({ where: { gameId: g.id, type: 'rating-changed' } })).toBe(1);
    const ratings = await prisma().playerRating.findMany({ where: { category: 'match/correspondence' }, orderBy: { playerId: 'asc' } });
    expect(ratings.map((r) => r.games)).toEqual([2, 2]);
    expect(ratings.find((r) => r.playerId === amy.id)!.rating).toBeCloseTo(amy2!.ratingAfter, 9);
    expect(ratings.find((r) => r.playerId === bob.id)!.rating).toBeCloseTo(bob2!.ratingAfter, 9);
    // Worked out apart from the store: game 1 for two newcomers to the category, then game 2 from there.
    const at1 = Date.parse(first.seats[0]!.ratingChange!.ratedAt);
    const fresh = { rating: RATING_PARAMS.initial, lastRatedAt: null, games: 0 };
    const one = rateGame([fresh, fresh], [1, 0], at1);
    if (!one.ok) throw new Error(one.error.message);
    const two = rateGame(
      [
        { rating: one.value[0].after, lastRatedAt: at1, games: 1 },
        { rating: one.value[1].after, lastRatedAt: at1, games: 1 },
      ],
      [0, 1],
      Date.parse(amy2!.ratedAt),
    );
    if (!two.ok) throw new Error(two.error.message);
    expect(amy2!.ratingAfter).toBeCloseTo(two.value[0].after.rating, 9);
    expect(bob2!.ratingAfter).toBeCloseTo(two.value[1].after.rating, 9);
    await expectProjectionReplayed();
  });

  it('an open rated match: the joiner plays rated games; REST takes rated too', async () => {
    const res = await rest('/matches', amy, 'POST', { rated: true });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string; rated: boolean; state: string };
    expect([made.rated, made.state]).toEqual([true, 'OPEN']);
    const joined = await gql(
      `mutation($id: ID!) { joinMatch(matchId: $id) { __typename ... on Match { rated state } ${ERR} } }`,
      { id: made.id },
      cat,
    );
    expect(joined).toMatchObject({ __typename: 'Match', rated: true, state: 'PLAYING' });
    const rows = await prisma().game.findMany({ where: { matchId: made.id } });
    expect(rows.map((g) => [g.rated, g.ratingCategory])).toEqual([
      [true, 'match/correspondence'],
      [true, 'match/correspondence'],
    ]);
  });

  it('refuses a rated match against a robot or with overrides: typed errors naming the field, nothing written', async () => {
    const counts = async () => [await prisma().match.count(), await prisma().game.count()];
    const before = await counts();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ opponent: 'robot:greedy' }, 'RATED_ROBOT', 'rated'],
      [{ opponent: bob.handle, preset: 'NSA_2008', overrides: { match: { games: 2 } } }, 'RATED_OVERRIDES', 'overrides'],
      [{ opponent: bob.handle, overrides: { challenge: { points: 10 } } }, 'RATED_OVERRIDES', 'overrides'],
    ];
    for (const [input, code, field] of cases) {
      const r = await gql(CREATE_MATCH, { input: { ...input, rated: true } }, amy);
      expect(r, code).toMatchObject({ __typename: 'RuleViolation', code, details: { field } });
      // REST answers the same refusal as a problem.
      const res = await rest('/matches', amy, 'POST', { ...input, rated: true });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    expect(await counts()).toEqual(before);
    // The same matches casual are fine.
    const casual = await gql(
      CREATE_MATCH,
      { input: { opponent: bob.handle, preset: 'NSA_2008', overrides: { match: { games: 2 } } } },
      amy,
    );
    expect(casual).toMatchObject({ __typename: 'Match', rated: false });
  });
});
