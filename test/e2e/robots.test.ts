/**
 * Robot seats and position analysis (issue 19) over HTTP, on PGlite and on Postgres: a robot seated by
 * createGame moves after the request that handed it the move (never inside it), through submitTurn
 * (its own seat, the same log); it challenges a phony and nothing else; a whole game against it ends;
 * analysis of a live game is refused (ANALYSIS_NOT_ALLOWED) except to its player with hints, at their
 * own turns; after the game anybody may; the sweep plays a robot move whose wake-up was lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame as createGameService } from '../../service/game-create.js';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limits.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { asGame, graphql, readGame, registerPlayer, submit, type GameView, type Player } from './client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from './fixture.js';

const ANALYZE = `query($input: AnalyzePositionInput!) { analyzePosition(input: $input) { __typename
  ... on PositionAnalysis { cgp moveCount playedKnown equityLost moves { rank kind notation score leave equity tilesPlayed } played { rank notation score equity } }
  ... on Error { code message } } }`;
const GAME_ANALYSIS = `query($id: ID!) { gameAnalysis(gameId: $id) { __typename
  ... on GameAnalysis { gameId totalEquityLost turns { version seat equityLost played { rank notation score equity } best { rank notation equity } } }
  ... on Error { code message } } }`;
const CGP_OF = `query($id: ID!) { game(id: $id) { ... on Game { cgp } } }`;

interface Analysis {
  __typename: string;
  code?: string;
  cgp: string;
  moveCount: number;
  playedKnown: boolean;
  equityLost: number | null;
  moves: { rank: number; kind: string; notation: string; score: number; leave: string; equity: number; tilesPlayed: number }[];
  played: { rank: number; notation: string; score: number; equity: number } | null;
}

const SOWPODS = LEXICONS.get('SOWPODS');

/** Two or three tiles of the rack (no blank) that spell no word: a phony to play. */
const phonyFrom = (rack: string): string | null => {
  const tiles = [...rack].filter((t) => t !== '?');
  if (!SOWPODS.ok) return null;
  for (let i = 0; i < tiles.length; i++)
    for (let j = 0; j < tiles.length; j++) {
      if (i === j) continue;
      const word = `${tiles[i]}${tiles[j]}`;
      if (!SOWPODS.value.has(word)) return word;
    }
  return null;
};

describe.each(STORE_TARGETS)('robot seats and analysis on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  beforeAll(async () => {
    api = await openSuite(target, 'e2e-robots-seed');
    [ann, ben] = await registerPlayers(api, 'ann', 'ben');
  });
  afterAll(() => closeSuite(api));

  const create = (p: Player, input: Record<string, unknown>) => createGameAs(api, p, input);
  const analyze = (p: Player, input: Record<string, unknown>) => graphql<Analysis>(api, 'analyzePosition', ANALYZE, { input }, p.token);
  const settle = () => api.app.robots!.idle();

  it('the robots query lists each robot a game may seat, to anyone (no token), and createGame seats it by that handle', async () => {
    const list = await graphql<{ handle: string; displayName: string; description: string }[]>(
      api,
      'robots',
      '{ robots { handle displayName description } }',
      {},
    );
    expect(list.map((r) => r.handle).sort()).toEqual(['robot:equity', 'robot:greedy']);
    for (const r of list) expect(r.description.length).toBeGreaterThan(10);
    const g = await create(ann, { opponent: list[0]!.handle });
    expect(g.seats[1]!.player!.handle).toBe(list[0]!.handle);
    await settle();
  });

  it('a robot moving first moves after createGame has answered, through its own seat and the same log', async () => {
    const g = await create(ann, { opponent: 'robot:greedy', firstSeat: 1 });
    // The answer is the game before the robot's move: it never moves inside the request.
    expect(g).toMatchObject({ whoseTurn: 1, history: [] });
    expect(g.seats[1]!.player!.handle).toBe('robot:greedy');
    await settle();
    const after = await readGame(api, ann, g.id);
    expect(after.whoseTurn).toBe(0);
    expect(after.history).toHaveLength(1);
    expect(after.history[0]).toMatchObject({ seat: 1, kind: 'play' });
    expect(after.history[0]!.score).toBeGreaterThan(0);
    // The robot's turn went through submitTurn: its idempotency record is under its own player.
    const robotId = g.seats[1]!.player!.id;
    expect(await api.app.services.db.prisma.idempotencyKey.count({ where: { scope: `player:${robotId}` } })).toBeGreaterThan(0);
  });

  it('the robot challenges a phony off the board, then plays', async () => {
    const g = await create(ann, { opponent: 'robot:equity' });
    const phony = phonyFrom(g.myRack!);
    expect(phony).not.toBeNull();
    const played = asGame(await submit(api, ann, g.id, g.version, { play: { move: `8H ${phony}` } }));
    expect(played.history.at(-1)).toMatchObject({ seat: 0, kind: 'play' });
    await settle();
    const after = await readGame(api, ann, g.id);
    const kinds = after.history.map((h) => `${h.seat}:${h.kind}`);
    expect(kinds).toContain('0:phony-withdrawn');
    expect(after.history.at(-1)).toMatchObject({ seat: 1, kind: 'play' });
    expect(after.whoseTurn).toBe(0);
  });

  it('the robot does not challenge a valid play', async () => {
    const g = await create(ann, { opponent: 'robot:greedy', allowHints: true });
    const hint = await analyze(ann, { gameId: g.id, top: 1 });
    const best = hint.moves[0]!;
    expect(best.kind).toBe('PLAY');
    asGame(await submit(api, ann, g.id, g.version, { play: { move: best.notation } }));
    await settle();
    const after = await readGame(api, ann, g.id);
    expect(after.history.map((h) => `${h.seat}:${h.kind}`)).toEqual(['0:play', '1:play']);
    expect(after.history[0]!.score).toBe(best.score);
  });

  it('a whole game against the robot, played from hints, ends; then anyone may analyse it', async () => {
    let g = await create(ann, { opponent: 'robot:equity', allowHints: true });
    for (let turn = 0; turn < 60 && g.status !== 'ended'; turn++) {
      await settle();
      g = await readGame(api, ann, g.id);
      if (g.status === 'ended') break;
      expect(g.whoseTurn).toBe(0);
      if (g.status === 'waiting-final') {
        g = asGame(await submit(api, ann, g.id, g.version, { pass: true }));
        continue;
      }
      const hint = await analyze(ann, { gameId: g.id, top: 3 });
      expect(hint.__typename).toBe('PositionAnalysis');
      const m = hint.moves.find((x) => x.kind === 'PLAY') ?? hint.moves[0]!;
      const action =
        m.kind === 'PLAY'
          ? { play: { move: m.notation } }
          : m.kind === 'PASS'
            ? { pass: true as const }
            : { exchange: { tiles: m.notation.slice(1) } };
      g = asGame(await submit(api, ann, g.id, g.version, action), `turn ${turn}`);
    }
    await settle();
    g = await readGame(api, ann, g.id);
    expect(g.status).toBe('ended');
    expect(g.result).not.toBeNull();

    // After the game: the other player (not seated) may analyse every turn.
    const whole = await graphql<{
      __typename: string;
      turns: {
        version: number;
        seat: number;
        equityLost: number | null;
        played: { rank: number; equity: number } | null;
        best: { rank: number; equity: number };
      }[];
      totalEquityLost: number[];
    }>(api, 'gameAnalysis', GAME_ANALYSIS, { id: g.id }, ben.token);
    expect(whole.__typename).toBe('GameAnalysis');
    expect(whole.turns.length).toBeGreaterThan(10);
    expect(new Set(whole.turns.map((t) => t.seat))).toEqual(new Set([0, 1]));
    for (const t of whole.turns) {
      expect(t.best.rank).toBe(1);
      if (!t.played) continue;
      expect(t.equityLost).toBeCloseTo(t.best.equity - t.played.equity, 6);
      expect(t.equityLost!).toBeGreaterThanOrEqual(0);
    }
    // The equity robot plays a move of the best equity at each of its turns (among equals, any: ties are drawn).
    for (const t of whole.turns.filter((x) => x.seat === 1)) expect(t.equityLost).toBeCloseTo(0, 9);
    // A position of the finished game, with the move made there and its rank.
    const first = await analyze(ben, { gameId: g.id, version: whole.turns[1]!.version, top: 5 });
    expect(first.playedKnown).toBe(true);
    expect(first.played).not.toBeNull();
  });

  it('a live game is refused to a spectator, to a player without hints and at the robot’s turn', async () => {
    const humans = await create(ann, { opponent: ben.handle });
    for (const p of [ann, ben]) {
      expect(await analyze(p, { gameId: humans.id })).toMatchObject({ __typename: 'RuleViolation', code: 'ANALYSIS_NOT_ALLOWED' });
      const whole = await graphql<{ code: string }>(api, 'gameAnalysis', GAME_ANALYSIS, { id: humans.id }, p.token);
      expect(whole.code).toBe('ANALYSIS_NOT_ALLOWED');
    }
    const noHints = await create(ann, { opponent: 'robot:greedy' });
    expect((await analyze(ann, { gameId: noHints.id })).code).toBe('ANALYSIS_NOT_ALLOWED');
    const hints = await create(ann, { opponent: 'robot:greedy', allowHints: true });
    expect((await analyze(ben, { gameId: hints.id })).code).toBe('ANALYSIS_NOT_ALLOWED');
    expect((await analyze(ann, { gameId: hints.id })).__typename).toBe('PositionAnalysis');
    asGame(await submit(api, ann, hints.id, hints.version, { pass: true }));
    // The version where the robot is to move shows the robot's rack: refused, even to its opponent.
    expect((await analyze(ann, { gameId: hints.id, version: hints.version + 1 })).code).toBe('ANALYSIS_NOT_ALLOWED');
    await settle();
  });

  it('the game’s cgp shows only the caller’s rack', async () => {
    const g = await create(ann, { opponent: 'robot:greedy' });
    const mine = (await graphql<{ cgp: string }>(api, 'game', CGP_OF, { id: g.id }, ann.token)).cgp;
    const theirs = (await graphql<{ cgp: string }>(api, 'game', CGP_OF, { id: g.id }, ben.token)).cgp;
    const [, minePart] = mine.split(' ');
    const [, theirsPart] = theirs.split(' ');
    expect(minePart).toBe(`${[...g.myRack!].join('')}/`);
    expect(theirsPart).toBe('/');
    await settle();
  });

  it('a CGP position: the opening bingo comes first, scored by the referee’s arithmetic', async () => {
    const r = await analyze(ann, { cgp: '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex SOWPODS;', top: 3 });
    expect(r.moveCount).toBeGreaterThan(100);
    // Seven one-point tiles across the centre's double word with one on a double letter: (7 + 1) × 2 + 50.
    expect(r.moves[0]).toMatchObject({ rank: 1, kind: 'PLAY', score: 66, tilesPlayed: 7, leave: '' });
    expect([...r.moves[0]!.notation.split(' ')[1]!].sort().join('')).toBe('AEINRST');
    expect(r.playedKnown).toBe(false);
    expect(await analyze(ann, { cgp: 'not a cgp' })).toMatchObject({ __typename: 'ValidationError' });
  });

  it('REST: a robot game is created at POST /v1/games; a live game’s analysis is 403 ANALYSIS_NOT_ALLOWED', async () => {
    const auth = { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' };
    const created = await api.fetch('/v1/games', { method: 'POST', headers: auth, body: JSON.stringify({ opponent: 'robot:equity' }) });
    expect(created.status).toBe(201);
    const game = (await created.json()) as GameView;
    expect(game.seats[1]!.player!.handle).toBe('robot:equity');
    const refused = await api.fetch(`/v1/games/${game.id}/analysis`, { headers: auth });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ANALYSIS_NOT_ALLOWED' });
    const cgp = await api.fetch('/v1/analyses', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ cgp: '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QI/ 0/0 0', top: 2 }),
    });
    expect(cgp.status, await cgp.clone().text()).toBe(200);
    expect(await cgp.json()).toMatchObject({
      moveCount: expect.any(Number),
      moves: [{ rank: 1, notation: expect.stringMatching(/QI/) }, { rank: 2 }],
    });
    await settle();
  });

  it('the sweep plays a robot move whose wake-up was lost', async () => {
    // Created through the service with no wake-up hook: only the sweep can find it.
    const deps = { db: api.app.services.db, lexicons: api.app.services.lexicons, now: api.app.services.now };
    const made = await createGameService(deps, ann.id, { opponent: 'robot:greedy', firstSeat: 1 });
    expect(made.ok).toBe(true);
    const id = made.ok ? made.value.id : '';
    await settle();
    expect((await readGame(api, ann, id)).history).toHaveLength(0);
    expect(await api.app.robots!.sweep()).toBeGreaterThanOrEqual(1);
    await settle();
    expect((await readGame(api, ann, id)).history).toMatchObject([{ seat: 1, kind: 'play' }]);
  });
});

describe('the analysis rate limit', () => {
  it('takes a token per analyzePosition and gameAnalysis: past the bucket, RATE_LIMITED (429 on REST)', async () => {
    const api = await openTestApi(STORE_TARGETS[0]!, {
      rateLimits: {
        ...DEFAULT_RATE_LIMITS,
        buckets: { ...DEFAULT_RATE_LIMITS.buckets, analysis: { player: { capacity: 2, periodSeconds: 3600 } } },
      },
    });
    try {
      const ann = await registerPlayer(api, 'ann');
      const input = { cgp: '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QI/ 0/0 0' };
      expect((await graphql<Analysis>(api, 'analyzePosition', ANALYZE, { input }, ann.token)).__typename).toBe('PositionAnalysis');
      expect((await graphql<Analysis>(api, 'analyzePosition', ANALYZE, { input }, ann.token)).__typename).toBe('PositionAnalysis');
      expect(await graphql<Analysis>(api, 'analyzePosition', ANALYZE, { input }, ann.token)).toMatchObject({
        __typename: 'RateLimitedError',
        code: 'RATE_LIMITED',
      });
      const rest = await api.fetch('/v1/analyses', {
        method: 'POST',
        headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      expect(rest.status).toBe(429);
      expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await api.close();
    }
  });
});
