/**
 * The deadline sweeper (service/lifecycle.ts `sweepDeadlines`, the function behind functions/deadlines.ts)
 * on PGlite and on Postgres, with an injected clock: it ends overdue games by itself and only those,
 * a move that commits first wins over a sweeper that read the game before it (STALE_VERSION → skipped),
 * two sweepers at once end a game exactly once, and the auto-pass special case. Checked in the stored
 * log and the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBoard } from '../../engine/board.js';
import { deadline } from '../../engine/game/clock.js';
import { createGame as startEvents, decide, type Command } from '../../engine/game/decide.js';
import { apply } from '../../engine/game/apply.js';
import type { GameEvent } from '../../engine/game/events.js';
import type { GameState } from '../../engine/game/state.js';
import { viewFor } from '../../engine/game/view.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { NSA_2008 } from '../../engine/rules/presets.js';
import { joinTiles } from '../../engine/tiles.js';
import { createDeadlineHandler } from '../../functions/deadlines.js';
import type { ServiceDeps } from '../../service/context.js';
import { createGame } from '../../service/game-create.js';
import { toStored } from '../../service/game-log.js';
import { submitTurn } from '../../service/turns.js';
import { registerLexicons } from '../../service/lexicons.js';
import { settleOverdue, sweepDeadlines } from '../../service/lifecycle.js';
import type { Db } from '../../store/db.js';
import { createGame as insertGame } from '../../store/games.js';
import { LEXICONS, START } from '../api/harness.js';
import { findPlay, rackPoints, type GameView } from '../e2e/client.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number): Date => new Date(START.getTime() + ms);
const iso = (ms: number): string => at(ms).toISOString();
const HOURLY = { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0 } as const;

const LEX: Lexicon = (() => {
  const l = LEXICONS.get(LEXICONS.defaultName ?? '');
  if (!l.ok) throw new Error('no lexicon built: run npm run lexicons');
  return l.value;
})();

const foldAll = (events: readonly GameEvent[], from: GameState | null = null): GameState => {
  let s = from;
  for (const e of events) {
    const r = apply(s, e);
    if (!r.ok) throw new Error(`${e.type}: ${r.error.code}`);
    s = r.value;
  }
  return s!;
};

/**
 * A seeded game played in memory, one turn a minute from START, until a player goes out with the bag
 * empty (status waiting-final): each player plays the shortest valid play from their own rack, or
 * passes. Tries seeds until one gets there (deterministic: the same seed always plays the same game).
 */
const gameWaitingForFinalPass = (players: readonly [{ name: string; id: string }, { name: string; id: string }]) => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const seed = `autopass-seed-${attempt}-0123456789abcdef`;
    const started = startEvents({
      rules: NSA_2008,
      lexicon: { name: LEX.name, hash: LEX.hash },
      players,
      timeControl: HOURLY,
      seed,
      createdAt: iso(0),
    });
    if (!started.ok) throw new Error(started.error.message);
    const events: GameEvent[] = [...started.value];
    let state = foldAll(events);
    for (let minute = 1; minute < 300 && state.status === 'playing'; minute++) {
      const v = viewFor(state, state.turn);
      const found = findPlay({ myRack: joinTiles(v.rack), board: { rows: formatBoard(state.board).split('\n') } } as GameView, LEX, true);
      const cmd: Command = found ? { kind: 'play', seat: state.turn, move: found.move } : { kind: 'pass', seat: state.turn };
      const r = decide(state, cmd, { lexicon: LEX, seed, now: iso(minute * MIN) });
      if (!r.ok) throw new Error(`${cmd.kind}: ${r.error.code}`);
      events.push(...r.value);
      state = foldAll(r.value, state);
    }
    if (state.status === 'waiting-final') return { events, state, seed };
  }
  throw new Error('no seed reached a played-out position');
};

describe.each(STORE_TARGETS)('the deadline sweeper on $kind', (target) => {
  let t: TestDb;
  let now = START;
  let deps: ServiceDeps;
  let a: { id: string; handle: string };
  let b: { id: string; handle: string };
  beforeAll(async () => {
    t = await openTestDb(target);
    await registerLexicons(t.db.prisma, LEXICONS);
    deps = { db: t.db, lexicons: LEXICONS, now: () => now };
    const player = (handle: string) => t.db.prisma.player.create({ data: { handle, displayName: handle.toUpperCase() } });
    [a, b] = [await player('sweep-a'), await player('sweep-b')];
  });
  afterAll(async () => {
    await t?.drop();
  });

  const newGame = async (timeControl: unknown = HOURLY) => {
    now = at(0);
    const g = await createGame(deps, a.id, { opponent: b.handle, timeControl: timeControl as never });
    if (!g.ok) throw new Error(g.error.message);
    return g.value;
  };
  const types = async (gameId: string) =>
    (await t.db.prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
  const ended = async (gameId: string) => ({
    events: (await types(gameId)).filter((x) => x === 'game-ended').length,
    outbox: await t.db.prisma.outboxMessage.count({ where: { gameId, kind: 'game-ended' } }),
  });
  const sweep = (when: number, db: Db = t.db) => sweepDeadlines({ db, now: () => at(when) });
  /** Ends every game still open, so later tests start from a clean sweep. */
  const settleAll = () => sweep(1000 * HOUR);

  it('ends an overdue game by itself at its deadline, and only once', async () => {
    await settleAll();
    const g = await newGame();
    const untimed = await newGame({ kind: 'untimed' });
    const daily = await newGame({ ...HOURLY, turnSeconds: 86_400 });
    expect(g.deadlineAt).toEqual(at(HOUR));

    expect(await sweep(HOUR - 1)).toMatchObject({ scanned: 0, timedOut: 0 });
    const r = await sweep(HOUR);
    expect(r).toEqual({ scanned: 1, timedOut: 1, autoPassed: 0, stale: 0, notOverdue: 0, failed: [] });
    const log = await t.db.prisma.gameEvent.findMany({ where: { gameId: g.id }, orderBy: { seq: 'asc' } });
    expect(log.slice(-2).map((e) => [e.type, (e.payload as { at?: string }).at])).toEqual([
      ['timed-out', iso(HOUR)],
      ['game-ended', iso(HOUR)],
    ]);
    expect((log.at(-1)!.payload as { reason: string; loser: number }).loser).toBe(0);
    const out = await t.db.prisma.outboxMessage.findMany({ where: { gameId: g.id, kind: 'game-ended' } });
    expect(out.map((m) => m.payload)).toEqual([
      { kind: 'game-ended', gameId: g.id, version: log.length, reason: 'timed-out', winnerSeat: 1, loserSeat: 0, scores: [0, 0] },
    ]);
    expect(out[0]!.eventSeq).toBe(log.length);
    expect(await t.db.prisma.game.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ status: 'ended', deadlineAt: null });

    // Run again (or late): nothing more to do; the other games are untouched.
    expect(await sweep(2 * HOUR)).toMatchObject({ scanned: 0 });
    expect(await ended(g.id)).toEqual({ events: 1, outbox: 1 });
    expect(await ended(untimed.id)).toEqual({ events: 0, outbox: 0 });
    expect(await ended(daily.id)).toEqual({ events: 0, outbox: 0 });
    await settleAll();
  });

  it('a move that commits first wins: the sweeper that read the game before it skips it (STALE_VERSION)', async () => {
    const g = await newGame();
    // 13:05: overdue. The sweeper reads the row; then Amy's pass commits before the sweeper writes.
    now = at(HOUR + 5 * MIN);
    const read = await t.db.prisma.game.findUniqueOrThrow({ where: { id: g.id }, select: { id: true, version: true, deadlineAt: true } });
    expect(read.deadlineAt!.getTime()).toBeLessThanOrEqual(now.getTime());
    const moved = await submitTurn(deps, a.id, {
      gameId: g.id,
      expectedVersion: read.version,
      idempotencyKey: 'late-but-first',
      action: { kind: 'pass' },
    });
    expect(moved.ok).toBe(true);
    const before = await types(g.id);
    expect(await settleOverdue(t.db, read, now)).toBe('stale');
    expect(await types(g.id)).toEqual(before);
    // Bob's turn from 13:05: deadline 14:05, so a sweep now finds nothing.
    expect(await t.db.prisma.game.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({
      status: 'playing',
      turnSeat: 1,
      deadlineAt: at(2 * HOUR + 5 * MIN),
    });
    expect(await sweep(HOUR + 5 * MIN)).toMatchObject({ scanned: 0 });
    await settleAll();
  });

  it('two sweepers at once end each overdue game exactly once', async () => {
    const games = [await newGame(), await newGame(), await newGame()];
    const second = target.kind === 'postgres' ? await t.reopen() : t.db;
    // The same game settled from two connections at the version both read: one writes, the other is stale.
    const first = await t.db.prisma.game.findUniqueOrThrow({ where: { id: games[0]!.id }, select: { id: true, version: true } });
    const outcomes = await Promise.all([settleOverdue(t.db, first, at(HOUR)), settleOverdue(second, first, at(HOUR))]);
    expect([...outcomes].sort()).toEqual(['stale', 'timedOut']);
    // Two whole sweeps racing over the rest.
    const [r1, r2] = await Promise.all([sweep(HOUR, t.db), sweep(HOUR, second)]);
    expect(r1.timedOut + r2.timedOut).toBe(2);
    expect([...r1.failed, ...r2.failed]).toEqual([]);
    for (const g of games) expect(await ended(g.id)).toEqual({ events: 1, outbox: 1 });
  });

  it('the auto-pass special case: the opponent has played out, so the player out of time is passed for', async () => {
    const { events, state, seed } = gameWaitingForFinalPass([
      { name: 'SWEEP-A', id: a.handle },
      { name: 'SWEEP-B', id: b.handle },
    ]);
    const outSeat = state.pending!.seat;
    const due = deadline(state)!;
    const row = await t.db.transaction((tx) =>
      insertGame(
        tx,
        {
          ruleSetId: 'NSA_2008',
          lexicon: { name: LEX.name, contentHash: LEX.hash },
          status: state.status,
          turnSeat: state.turn,
          deadlineAt: new Date(due),
          bagSeedCommitment: state.commitment!,
          bagSeed: seed,
          seats: [a.id, b.id],
        },
        events.map(toStored),
      ),
    );
    const dueMs = Date.parse(due) - START.getTime();
    expect(await sweep(dueMs - 1000)).toMatchObject({ scanned: 0 });
    expect(await sweep(dueMs)).toMatchObject({ scanned: 1, autoPassed: 1, timedOut: 0 });
    const log = await t.db.prisma.gameEvent.findMany({ where: { gameId: row.id }, orderBy: { seq: 'asc' } });
    const tail = log.slice(events.length).map((e) => e.payload as Record<string, unknown>);
    expect(tail.map((e) => e['type'])).toEqual(['pass', 'game-ended']);
    expect(tail[0]).toMatchObject({ seat: 1 - outSeat, auto: 'timeout', at: due });
    // The game ends as played out: the player who went out gets twice the other rack (NSA), nobody lost on time.
    const rackValue = rackPoints(joinTiles(state.racks[1 - outSeat]!.tiles));
    expect(tail[1]).toMatchObject({
      reason: 'went-out',
      loser: null,
      adjustments: [{ seat: outSeat, points: 2 * rackValue, kind: 'opponent-rack' }],
    });
    const out = await t.db.prisma.outboxMessage.findMany({ where: { gameId: row.id } });
    expect(out.map((m) => m.payload)).toEqual([expect.objectContaining({ kind: 'game-ended', reason: 'went-out', loserSeat: null })]);
  });

  it('the scheduled function logs one JSON line with the counts', async () => {
    await settleAll();
    await newGame();
    const lines: string[] = [];
    const handler = createDeadlineHandler({ getDb: async () => t.db, now: () => at(HOUR), log: (l) => lines.push(l) });
    const result = await handler();
    expect(result).toMatchObject({ scanned: 1, timedOut: 1 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'deadlines.sweep',
      scanned: 1,
      timedOut: 1,
      autoPassed: 0,
      stale: 0,
      notOverdue: 0,
      failed: 0,
      failures: [],
    });
  });
});
