/**
 * What the reliability suites share: the real app over a fresh database of a store target (as
 * test/api/harness.ts, but with a second app instance on the same database when asked — two
 * connection pools, two "servers"), games set up over HTTP, the store's invariants, and the hidden
 * information oracle (both racks and the bag seed, read from the store) with a leak check for
 * response bodies.
 */
import { createApp, type App } from '../../functions/app.js';
import { replay } from '../../engine/game/apply.js';
import { isGameEventType, type GameEvent } from '../../engine/game/events.js';
import { joinTiles } from '../../engine/tiles.js';
import type { Db } from '../../store/db.js';
import { clientOver, LEXICONS, START, TEST_JWT, type TestApi } from '../api/harness.js';
import { openTestDb, type StoreTarget } from '../store/targets.js';
import type { Recorder } from './summary.js';

export { STORE_TARGETS, type StoreTarget } from '../store/targets.js';

/** Test APIs over one database: `apis[0]` always; `apis[1]` (a second app and pool) on Postgres when asked. */
export interface World {
  readonly apis: readonly TestApi[];
  readonly db: Db;
  close(): Promise<void>;
}

const apiOver = (app: App, clock: { now: Date }, rec?: Recorder): TestApi => {
  const fetch = (path: string, init: RequestInit = {}) => {
    rec?.add('requestsSent');
    return Promise.resolve(app.yoga.fetch(`http://arbiter.test${path}`, init));
  };
  return {
    app,
    setNow: (d) => {
      clock.now = d;
    },
    ...clientOver(fetch),
    close: () => app.close(),
  };
};

export interface WorldOptions {
  /** 2: a second app with its own connection pool on the same database (Postgres only). */
  readonly instances?: 1 | 2;
  readonly recorder?: Recorder;
  /** Where masked errors go (default: dropped; the fuzz suites collect them). */
  readonly logError?: (e: unknown) => void;
  /** Wraps the first app's database handle (fault injection); the store checks still use the real one. */
  readonly wrapDb?: (db: Db) => Db;
}

export const openWorld = async (target: StoreTarget, options: WorldOptions = {}): Promise<World> => {
  const testDb = await openTestDb(target);
  const clock = { now: START };
  const dbs = [testDb.db];
  if ((options.instances ?? 1) === 2) dbs.push(await testDb.reopen({ migrate: false }));
  const apps: App[] = [];
  for (const [i, real] of dbs.entries()) {
    const db = i === 0 && options.wrapDb ? options.wrapDb(real) : real;
    apps.push(
      await createApp({ db, lexicons: LEXICONS, jwt: TEST_JWT, now: () => clock.now, logError: options.logError ?? (() => undefined) }),
    );
  }
  return {
    apis: apps.map((app) => apiOver(app, clock, options.recorder)),
    db: testDb.db,
    close: async () => {
      for (const app of apps) await app.close();
      await testDb.drop();
    },
  };
};

// ---------------------------------------------------------------------------------------------
// The store's invariants

export interface InvariantViolation {
  readonly gameId: string;
  readonly version: number;
  readonly events: number;
  readonly minSeq: number | null;
  readonly maxSeq: number | null;
}

/**
 * Every game whose log is not exactly seq 1 … version: a partial write, a lost or a duplicated event.
 * (seq is the primary key with game_id, so count = max = version and min = 1 means contiguous.)
 */
export const invariantViolations = async (db: Db): Promise<InvariantViolation[]> => {
  const games = await db.prisma.game.findMany({ select: { id: true, version: true } });
  const logs = await db.prisma.gameEvent.groupBy({ by: ['gameId'], _count: { _all: true }, _min: { seq: true }, _max: { seq: true } });
  const byGame = new Map(logs.map((l) => [l.gameId, l]));
  const out: InvariantViolation[] = [];
  for (const g of games) {
    const l = byGame.get(g.id);
    const events = l?._count._all ?? 0;
    const minSeq = l?._min.seq ?? null;
    const maxSeq = l?._max.seq ?? null;
    const fine = events === g.version && (events === 0 || (minSeq === 1 && maxSeq === g.version));
    if (!fine) out.push({ gameId: g.id, version: g.version, events, minSeq, maxSeq });
  }
  const orphans = logs.filter((l) => !games.some((g) => g.id === l.gameId));
  for (const o of orphans) out.push({ gameId: o.gameId, version: -1, events: o._count._all, minSeq: o._min.seq, maxSeq: o._max.seq });
  return out;
};

export const eventCount = (db: Db, gameId: string): Promise<number> => db.prisma.gameEvent.count({ where: { gameId } });

// ---------------------------------------------------------------------------------------------
// Hidden information

/** The truth about one game, from the store: who sits where, both racks, the seed, whether it is over. */
export interface GameSecretsTruth {
  readonly gameId: string;
  readonly playerIds: readonly (string | null)[];
  readonly racks: readonly (readonly string[])[];
  readonly seed: string;
  readonly ended: boolean;
}

export const readTruth = async (db: Db, gameId: string): Promise<GameSecretsTruth> => {
  const rows = await db.prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  const seats = await db.prisma.seat.findMany({ where: { gameId }, orderBy: { seat: 'asc' } });
  const seed = (await db.prisma.gameSecret.findUniqueOrThrow({ where: { gameId } })).bagSeed;
  const engine = rows.filter((r) => isGameEventType(r.type)).map((r) => r.payload as unknown as GameEvent);
  if (engine.length === 0) return { gameId, playerIds: seats.map((s) => s.playerId), racks: [], seed, ended: false };
  const state = replay(engine);
  if (!state.ok) throw new Error(`game ${gameId} does not replay: ${state.error.message}`);
  return {
    gameId,
    playerIds: seats.map((s) => s.playerId),
    racks: [state.value.racks[0].tiles, state.value.racks[1].tiles],
    seed,
    ended: state.value.status === 'ended',
  };
};

/** Racks shorter than this are not searched for (a one- or two-letter string occurs everywhere). */
export const MIN_SECRET_RACK = 4;

/**
 * What a response to `viewerId` (null = anonymous) must not contain, for each game not over: the
 * bag seed, and every rack but the viewer's own — in rack order and as a sorted tile string.
 */
export const forbiddenFor = (truths: readonly GameSecretsTruth[], viewerId: string | null): string[] => {
  const out: string[] = [];
  for (const t of truths) {
    // Once a game is over its seed is published (result.bagSeed) and the final racks are in the adjustments.
    if (t.ended) continue;
    out.push(t.seed);
    t.racks.forEach((rack, seat) => {
      if (t.playerIds[seat] === viewerId || rack.length < MIN_SECRET_RACK) return;
      out.push(joinTiles(rack), [...rack].sort().join(''));
    });
  }
  return [...new Set(out)];
};

/** The forbidden strings `body` contains, ignoring any the request itself carried (an echo is not a leak). */
export const leaksIn = (body: string, forbidden: readonly string[], request = ''): string[] =>
  forbidden.filter((f) => body.includes(f) && !request.includes(f));

// ---------------------------------------------------------------------------------------------
// Response hygiene

const STACK_FRAME = /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:|node:|\/)[^\s)]*:\d+:\d+/;

/** Why `body` looks like it carries a stack trace or server internals; null when clean. */
export const internalsIn = (body: string): string | null => {
  if (STACK_FRAME.test(body)) return 'a stack frame';
  if (/"stack"\s*:/.test(body)) return 'a "stack" field';
  if (body.includes('node_modules')) return 'a node_modules path';
  if (/prisma\.|Invalid `[^`]*` invocation/.test(body)) return 'a Prisma message';
  return null;
};

/**
 * Every error in a JSON response body that has no code: GraphQL `errors[]` without
 * `extensions.code`, or a REST error object without `code`. Returns the offending errors.
 */
export const errorsWithoutCode = (body: unknown): unknown[] => {
  if (typeof body !== 'object' || body === null) return [];
  const out: unknown[] = [];
  const errors = (body as { errors?: unknown }).errors;
  if (Array.isArray(errors)) {
    for (const e of errors) {
      const code = (e as { extensions?: { code?: unknown } } | null)?.extensions?.code;
      if (typeof code !== 'string' || code === '') out.push(e);
    }
  }
  return out;
};
