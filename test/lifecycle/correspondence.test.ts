/**
 * Correspondence games over HTTP (`yoga.fetch`), on PGlite and on Postgres, with the app's clock moved
 * by the test (`api.setNow`): a whole game drawing on a time bank, a timeout claimed by the opponent, a
 * paused game, abort and resign, and the inbox order of myGames. Every expected time is worked out by
 * hand from the time control (turn time + bank, pauses frozen) and checked in the view, in the stored
 * log (`at` stamps) and in the outbox rows the turns wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEXICONS, START, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, findPlay, graphql, readGame, type Player, useFixedBagSeeds } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite } from '../e2e/fixture.js';
import { botPlayer } from './fixture.js';

useFixedBagSeeds('correspondence');

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (ms: number): Date => new Date(START.getTime() + ms);
const iso = (ms: number): string => at(ms).toISOString();

const CLOCK = `fragment Clock on Game {
  id version status deadline paused whoseTurn scores
  timeControl { kind turnSeconds bankSeconds maxPauses maxPauseSeconds bankRemaining turnStartedAt turnTimeEndsAt }
  pause { active since until requestedBy requestedSeconds used left secondsLeft }
  result { reason winner loser }
}`;
const ERR = `... on Error { code message details }`;
const GAME_CLOCK = `query($id: ID!) { game(id: $id) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const CLAIM = `mutation($id: ID!, $v: Int) { claimTimeout(gameId: $id, expectedVersion: $v) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const REQUEST_PAUSE = `mutation($id: ID!, $s: Int!) { requestPause(gameId: $id, seconds: $s) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const RESPOND = `mutation($id: ID!, $accept: Boolean!) { respondToPause(gameId: $id, accept: $accept) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const RESUME = `mutation($id: ID!) { resume(gameId: $id) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const ABORT = `mutation($id: ID!) { abortGame(gameId: $id) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const MY_GAMES = `query { myGames(first: 20) { edges { node { id status isMyTurn deadline } } } }`;

interface Clocked {
  __typename: string;
  id: string;
  version: number;
  status: string;
  deadline: string | null;
  paused: boolean;
  whoseTurn: number | null;
  scores: number[];
  timeControl: {
    kind: string;
    turnSeconds: number | null;
    bankSeconds: number | null;
    maxPauses: number | null;
    maxPauseSeconds: number | null;
    bankRemaining: number[] | null;
    turnStartedAt: string | null;
    turnTimeEndsAt: string | null;
  };
  pause: {
    active: boolean;
    since: string | null;
    until: string | null;
    requestedBy: number | null;
    requestedSeconds: number | null;
    used: number;
    left: number;
    secondsLeft: number;
  } | null;
  result: { reason: string; winner: number | null; loser: number | null } | null;
  code?: string;
  details?: Record<string, unknown>;
}

describe.each(STORE_TARGETS)('correspondence games on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  beforeAll(async () => {
    api = await openSuite(target, `lifecycle-seed-${target.kind}`);
    [a, b] = [await botPlayer(api, 'amy'), await botPlayer(api, 'bob')];
  });
  afterAll(() => closeSuite(api));

  const prisma = () => api.app.services.db.prisma;
  const create = (creator: Player, input: Record<string, unknown>) => createGameAs(api, creator, input);
  const clock = async (p: Player, id: string): Promise<Clocked> => graphql<Clocked>(api, 'game', GAME_CLOCK, { id }, p.token);
  const call = (field: string, doc: string, p: Player, vars: Record<string, unknown>) => graphql<Clocked>(api, field, doc, vars, p.token);
  const events = async (gameId: string) =>
    (await prisma().gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } })).map((e) => ({
      type: e.type,
      at: (e.payload as { at?: string }).at ?? null,
    }));
  const outbox = async (gameId: string) =>
    (await prisma().outboxMessage.findMany({ where: { gameId }, orderBy: { id: 'asc' } })).map((m) => m.payload as Record<string, unknown>);
  const pass = (p: Player, id: string) => act(api, p, id, { pass: true });

  it('a whole game with a 1-hour turn and a 2-hour bank: overage comes out of the mover’s bank, deadlines follow', async () => {
    api.setNow(at(0));
    const g = await create(a, { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 7200 } });
    // Amy to move from 12:00: 1 h of turn time, then her 2 h bank → 15:00.
    expect(await clock(a, g.id)).toMatchObject({
      deadline: iso(3 * HOUR),
      paused: false,
      timeControl: {
        kind: 'correspondence',
        turnSeconds: 3600,
        bankSeconds: 7200,
        maxPauses: 2,
        maxPauseSeconds: 1_209_600,
        bankRemaining: [7200, 7200],
        turnStartedAt: iso(0),
        turnTimeEndsAt: iso(HOUR),
      },
    });

    // 12:30 Amy plays (inside her hour): Bob's turn from 12:30 → 12:30 + 1 h + 2 h = 15:30.
    api.setNow(at(30 * MIN));
    const view = await readGame(api, a, g.id);
    const lex = LEXICONS.get(view.lexicon.name);
    if (!lex.ok) throw new Error(lex.error.message);
    const play = findPlay(view, lex.value, true);
    expect(play).not.toBeNull();
    await act(api, a, g.id, { play: { move: play!.move } });
    expect(await clock(b, g.id)).toMatchObject({
      deadline: iso(3 * HOUR + 30 * MIN),
      timeControl: { bankRemaining: [7200, 7200], turnStartedAt: iso(30 * MIN) },
    });

    // 14:00, 1 h 30 into Bob's turn: his bank has been running for 30 min: 7200 − 1800 = 5400 (the deadline does not move).
    api.setNow(at(2 * HOUR));
    expect(await clock(a, g.id)).toMatchObject({ deadline: iso(3 * HOUR + 30 * MIN), timeControl: { bankRemaining: [7200, 5400] } });
    await pass(b, g.id);
    // Amy's turn from 14:00 with her full bank: 14:00 + 3 h = 17:00.
    expect(await clock(a, g.id)).toMatchObject({ deadline: iso(5 * HOUR), timeControl: { bankRemaining: [7200, 5400] } });

    // 15:30 Amy passes after 1 h 30: 1800 s off her bank → 5400; Bob to move from 15:30: 1 h + 5400 s = 18:00.
    api.setNow(at(3 * HOUR + 30 * MIN));
    await pass(a, g.id);
    expect(await clock(b, g.id)).toMatchObject({ deadline: iso(6 * HOUR), timeControl: { bankRemaining: [5400, 5400] } });

    // Four quick passes, 10 minutes apart: each deadline is the pass + 1 h + 1 h 30; the sixth scoreless turn ends the game.
    const quick: [Player, number, string | null][] = [
      [b, 3 * HOUR + 40 * MIN, iso(6 * HOUR + 10 * MIN)],
      [a, 3 * HOUR + 50 * MIN, iso(6 * HOUR + 20 * MIN)],
      [b, 4 * HOUR, iso(6 * HOUR + 30 * MIN)],
      [a, 4 * HOUR + 10 * MIN, null],
    ];
    for (const [p, when, deadline] of quick) {
      api.setNow(at(when));
      await pass(p, g.id);
      expect((await clock(a, g.id)).deadline).toBe(deadline);
    }
    const end = await clock(a, g.id);
    expect(end).toMatchObject({
      status: 'ended',
      result: { reason: 'scoreless-turns' },
      timeControl: { bankRemaining: [5400, 5400], turnStartedAt: null },
    });

    // The log: every turn stamped with the clock's time; the row no longer has a deadline.
    const turns = (await events(g.id)).filter((e) => e.type === 'play' || e.type === 'pass');
    expect(turns).toEqual([
      { type: 'play', at: iso(30 * MIN) },
      ...[2 * HOUR, 3.5 * HOUR, 3 * HOUR + 40 * MIN, 3 * HOUR + 50 * MIN, 4 * HOUR, 4 * HOUR + 10 * MIN].map((t) => ({
        type: 'pass',
        at: iso(t),
      })),
    ]);
    expect(await prisma().game.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({
      status: 'ended',
      deadlineAt: null,
      turnSeat: null,
    });
    // The outbox: the game-started, each your-turn carries the mover's deadline, then the game-ended.
    const rows = await outbox(g.id);
    expect(rows.map((r) => [r['kind'], r['seat'] ?? null, r['deadlineAt'] ?? null])).toEqual([
      ['game-started', null, null],
      ['your-turn', 0, iso(3 * HOUR)],
      ['your-turn', 1, iso(3 * HOUR + 30 * MIN)],
      ['your-turn', 0, iso(5 * HOUR)],
      ['your-turn', 1, iso(6 * HOUR)],
      ['your-turn', 0, iso(6 * HOUR + 10 * MIN)],
      ['your-turn', 1, iso(6 * HOUR + 20 * MIN)],
      ['your-turn', 0, iso(6 * HOUR + 30 * MIN)],
      ['game-ended', null, null],
    ]);
    expect(rows[8]).toMatchObject({ reason: 'scoreless-turns' });
  });

  it('a timeout claimed by the opponent: refused before the deadline with NOT_OVERDUE, a loss after it', async () => {
    api.setNow(at(0));
    const g = await create(a, { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 600 } });
    // Amy's deadline: 12:00 + 1 h + 600 s = 13:10.
    api.setNow(at(HOUR + 10 * MIN - 1000));
    const early = await call('claimTimeout', CLAIM, b, { id: g.id });
    expect(early).toMatchObject({ __typename: 'RuleViolation', code: 'NOT_OVERDUE', details: { deadline: iso(HOUR + 10 * MIN), seat: 0 } });
    expect(await call('claimTimeout', CLAIM, a, { id: g.id })).toMatchObject({ code: 'OWN_TURN' });
    expect(await call('claimTimeout', CLAIM, b, { id: g.id, v: g.version - 1 })).toMatchObject({
      __typename: 'StaleVersionError',
      code: 'STALE_VERSION',
    });

    api.setNow(at(HOUR + 10 * MIN));
    const ended = await call('claimTimeout', CLAIM, b, { id: g.id, v: g.version });
    expect(ended).toMatchObject({
      __typename: 'Game',
      status: 'ended',
      version: g.version + 2,
      deadline: null,
      result: { reason: 'timed-out', winner: 1, loser: 0 },
      timeControl: { bankRemaining: [0, 600] },
    });
    expect((await events(g.id)).slice(-2)).toEqual([
      { type: 'timed-out', at: iso(HOUR + 10 * MIN) },
      { type: 'game-ended', at: iso(HOUR + 10 * MIN) },
    ]);
    const rows = await outbox(g.id);
    expect(rows.map((r) => r['kind'])).toEqual(['game-started', 'your-turn', 'game-ended']);
    expect(rows[2]).toEqual({
      kind: 'game-ended',
      gameId: g.id,
      version: g.version + 2,
      reason: 'timed-out',
      winnerSeat: 1,
      loserSeat: 0,
      scores: [0, 0],
    });
    expect(await prisma().game.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ status: 'ended', deadlineAt: null });
    expect(await call('claimTimeout', CLAIM, b, { id: g.id })).toMatchObject({ code: 'GAME_OVER' });
  });

  it('a paused game: the deadline is frozen, the limits hold, resume restarts the clock', async () => {
    api.setNow(at(0));
    const g = await create(a, {
      opponent: b.handle,
      timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauses: 1, maxPauseSeconds: 2 * 86_400 },
    });
    expect((await clock(a, g.id)).deadline).toBe(iso(HOUR));

    api.setNow(at(5 * MIN));
    expect(await call('requestPause', REQUEST_PAUSE, a, { id: g.id, s: 3 * 86_400 })).toMatchObject({
      code: 'PAUSE_LIMIT_REACHED',
      details: { max: 2 * 86_400 },
    });
    api.setNow(at(10 * MIN));
    const asked = await call('requestPause', REQUEST_PAUSE, a, { id: g.id, s: 86_400 });
    expect(asked).toMatchObject({
      paused: false,
      deadline: iso(HOUR),
      pause: { active: false, requestedBy: 0, requestedSeconds: 86_400, used: 0, left: 1 },
    });
    expect(await call('respondToPause', RESPOND, a, { id: g.id, accept: true })).toMatchObject({ code: 'OWN_PAUSE_REQUEST' });

    // Bob accepts at 12:20: the clock stops for up to a day; Amy's 40 minutes left wait: 13:00 + 24 h.
    api.setNow(at(20 * MIN));
    const paused = await call('respondToPause', RESPOND, b, { id: g.id, accept: true });
    expect(paused).toMatchObject({
      paused: true,
      deadline: iso(DAY + HOUR),
      pause: { active: true, since: iso(20 * MIN), until: iso(DAY + 20 * MIN), requestedBy: null, used: 1, left: 0, secondsLeft: 86_400 },
    });

    // Twelve hours later nothing has moved: same deadline, nothing to claim, no second pause.
    api.setNow(at(12 * HOUR + 20 * MIN));
    expect(await clock(b, g.id)).toMatchObject({ paused: true, deadline: iso(DAY + HOUR), timeControl: { bankRemaining: [0, 0] } });
    expect(await call('claimTimeout', CLAIM, b, { id: g.id })).toMatchObject({
      code: 'NOT_OVERDUE',
      details: { deadline: iso(DAY + HOUR) },
    });
    expect(await call('requestPause', REQUEST_PAUSE, a, { id: g.id, s: 3600 })).toMatchObject({ code: 'ALREADY_PAUSED' });

    // Bob resumes: 12 h were paused, so Amy has until 13:00 + 12 h; 2 days − 12 h of pause time are left, but no pause.
    const resumed = await call('resume', RESUME, b, { id: g.id });
    expect(resumed).toMatchObject({
      paused: false,
      deadline: iso(13 * HOUR),
      pause: { active: false, used: 1, left: 0, secondsLeft: 2 * 86_400 - 12 * 3600 },
    });
    expect(await call('requestPause', REQUEST_PAUSE, a, { id: g.id, s: 3600 })).toMatchObject({ code: 'PAUSE_LIMIT_REACHED' });
    expect(await call('resume', RESUME, a, { id: g.id })).toMatchObject({ code: 'NOT_PAUSED' });

    api.setNow(at(13 * HOUR));
    expect(await call('claimTimeout', CLAIM, b, { id: g.id })).toMatchObject({
      status: 'ended',
      result: { reason: 'timed-out', loser: 0 },
    });

    // The log records the pause as events; the outbox tells the mover when the clock stops and starts again.
    expect((await events(g.id)).filter((e) => e.type.startsWith('pause') || e.type === 'resumed')).toEqual([
      { type: 'pause-requested', at: iso(10 * MIN) },
      { type: 'pause-accepted', at: iso(20 * MIN) },
      { type: 'resumed', at: iso(12 * HOUR + 20 * MIN) },
    ]);
    const rows = await outbox(g.id);
    expect(rows.map((r) => [r['kind'], r['paused'] ?? null, r['deadlineAt'] ?? null, r['pausedUntil'] ?? null])).toEqual([
      ['game-started', null, null, null],
      ['your-turn', null, iso(HOUR), null],
      ['your-turn', true, iso(DAY + HOUR), iso(DAY + 20 * MIN)],
      ['your-turn', false, iso(13 * HOUR), null],
      ['game-ended', null, null, null],
    ]);
  });

  it('abort before the first turn ends the game with no winner; after it, ABORT_TOO_LATE; resign works on either turn', async () => {
    api.setNow(at(0));
    const g = await create(a, { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0 } });
    // Bob, not on turn, aborts.
    const aborted = await call('abortGame', ABORT, b, { id: g.id });
    expect(aborted).toMatchObject({ status: 'ended', deadline: null, result: { reason: 'aborted', winner: null, loser: null } });
    expect((await events(g.id)).slice(-2).map((e) => e.type)).toEqual(['aborted', 'game-ended']);
    expect((await outbox(g.id)).at(-1)).toMatchObject({ kind: 'game-ended', reason: 'aborted', winnerSeat: null, loserSeat: null });

    const h = await create(a, { opponent: b.handle });
    await pass(a, h.id);
    expect(await call('abortGame', ABORT, a, { id: h.id })).toMatchObject({ __typename: 'RuleViolation', code: 'ABORT_TOO_LATE' });
    // Bob is to move; Amy resigns anyway.
    const resigned = await act(api, a, h.id, { resign: true });
    expect(resigned.result).toMatchObject({ reason: 'resigned', loser: 0, winner: 1 });
  });

  it('time controls are validated, naming the field', async () => {
    const bad = await graphql<{ code: string; details: { field: string } }>(
      api,
      'createGame',
      `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ${ERR} } }`,
      { input: { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 1800 } } },
      a.token,
    );
    expect(bad).toMatchObject({ code: 'TIME_CONTROL_INVALID', details: { field: 'timeControl.turnSeconds', min: 3600, max: 1_209_600 } });
    const bank = await graphql<{ code: string; details: { field: string } }>(
      api,
      'createGame',
      `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ${ERR} } }`,
      { input: { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 31 * 86_400 } } },
      a.token,
    );
    expect(bank).toMatchObject({ code: 'TIME_CONTROL_INVALID', details: { field: 'timeControl.bankSeconds', max: 2_592_000 } });
  });

  it('myGames is an inbox: my move first by deadline (untimed last), then the opponent’s, then open seats, then finished games', async () => {
    api.setNow(at(0));
    const d = await botPlayer(api, 'dee');
    const e = await botPlayer(api, 'eli');
    const tc = (turnSeconds: number) => ({ kind: 'correspondence', turnSeconds, bankSeconds: 0 });
    const untimedMine = await create(d, { opponent: e.handle });
    const weekMine = await create(d, { opponent: e.handle, timeControl: tc(7 * 86_400) });
    const hourMine = await create(d, { opponent: e.handle, timeControl: tc(3600) });
    const hourTheirs = await create(d, { opponent: e.handle, timeControl: tc(3600), firstSeat: 1 });
    const dayTheirs = await create(e, { opponent: d.handle, timeControl: tc(86_400) });
    const untimedTheirs = await create(e, { opponent: d.handle });
    const open = await create(d, {});
    const over = await create(d, { opponent: e.handle, timeControl: tc(3600) });
    await call('abortGame', ABORT, d, { id: over.id });
    const list = await graphql<{ edges: { node: { id: string; status: string; isMyTurn: boolean; deadline: string | null } }[] }>(
      api,
      'myGames',
      MY_GAMES,
      {},
      d.token,
    );
    expect(list.edges.map((x) => x.node.id)).toEqual([
      hourMine.id,
      weekMine.id,
      untimedMine.id,
      hourTheirs.id,
      dayTheirs.id,
      untimedTheirs.id,
      open.id,
      over.id,
    ]);
    expect(list.edges.map((x) => x.node.deadline)).toEqual([iso(HOUR), iso(7 * DAY), null, iso(HOUR), iso(DAY), null, null, null]);
  });
});
