/**
 * Concurrency (issue 6): 50 clients submit a turn for the same game version at once, over HTTP
 * (`yoga.fetch`) — on PGlite, on Postgres through one app, and on Postgres through two app instances
 * (two connection pools, as two servers would) — then retry with the winner's idempotency key. The
 * oracle is the store: rows of game_events counted, not what the API says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBagSeedSourceForTests } from '../../../service/game-create.js';
import {
  asGame,
  CREATE_GAME,
  freshKey,
  graphql,
  readGame,
  registerPlayer,
  submit,
  type Action,
  type ErrorResult,
  type GameOrError,
  type Player,
} from '../../e2e/client.js';
import type { TestApi } from '../../api/harness.js';
import { recorder } from '../summary.js';
import { eventCount, invariantViolations, openWorld, STORE_TARGETS, type World } from '../world.js';

const CLIENTS = 50;
const rec = recorder('concurrency');

const SETUPS = STORE_TARGETS.flatMap((target) =>
  target.kind === 'postgres'
    ? [
        { target, instances: 1 as const, label: 'postgres, one app' },
        { target, instances: 2 as const, label: 'postgres, two apps (two pools)' },
      ]
    : [{ target, instances: 1 as const, label: 'pglite' }],
);

afterAll(() => rec.flush());

describe.each(SETUPS)(`$label: ${CLIENTS} concurrent submissions of one turn`, ({ target, instances }) => {
  let world: World;
  let ann: Player;
  let bob: Player;
  let n = 0;
  beforeAll(async () => {
    world = await openWorld(target, { instances, recorder: rec });
    setBagSeedSourceForTests(() => `reliability-concurrency-${++n}-0123456789abcdef`);
    [ann, bob] = [await registerPlayer(world.apis[0]!, 'ann'), await registerPlayer(world.apis[0]!, 'bob')];
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await world?.close();
  });

  /** Client i talks to app i mod the number of apps. */
  const apiFor = (i: number): TestApi => world.apis[i % world.apis.length]!;

  it('exactly one event is appended, the other 49 are STALE_VERSION; 50 retries with the winner’s key answer the same and append nothing', async () => {
    const g = asGame(await graphql<GameOrError>(world.apis[0]!, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
    const before = await eventCount(world.db, g.id);
    expect(before).toBe(g.version);

    // 50 requests (a pass appends exactly one event), each with its own key, all decided on version g.version.
    const requests = Array.from({ length: CLIENTS }, () => ({ key: freshKey(), action: { pass: true } as Action }));
    const results = await Promise.all(requests.map((r, i) => submit(apiFor(i), ann, g.id, g.version, r.action, r.key)));
    const winners = results.flatMap((r, i) => (r.__typename === 'Game' ? [i] : []));
    expect(winners).toHaveLength(1);
    const stale = results.filter((r) => r.__typename !== 'Game') as ErrorResult[];
    expect(stale).toHaveLength(CLIENTS - 1);
    for (const s of stale)
      expect(s).toMatchObject({ __typename: 'StaleVersionError', code: 'STALE_VERSION', expected: g.version, actual: g.version + 1 });

    const after = await eventCount(world.db, g.id);
    rec.add('eventsLost', Math.max(0, before + 1 - after));
    expect(after).toBe(before + 1);
    expect((await readGame(world.apis[0]!, bob, g.id)).version).toBe(g.version + 1);

    // Retries of the winning request, with its key, from every client at once.
    const w = winners[0]!;
    const first = results[w]!;
    const retries = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => submit(apiFor(i), ann, g.id, g.version, requests[w]!.action, requests[w]!.key)),
    );
    for (const r of retries) expect(r).toEqual(first);
    expect(await eventCount(world.db, g.id)).toBe(before + 1);
    expect(await invariantViolations(world.db)).toEqual([]);
  });

  it('50 copies of one new request with one key, at once: one event, 50 identical answers', async () => {
    const g = asGame(await graphql<GameOrError>(world.apis[0]!, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
    const key = freshKey();
    const copies = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => submit(apiFor(i), ann, g.id, g.version, { pass: true }, key)),
    );
    expect(copies[0]).toMatchObject({ __typename: 'Game', version: g.version + 1, whoseTurn: 1 });
    for (const c of copies) expect(c).toEqual(copies[0]);
    const after = await eventCount(world.db, g.id);
    rec.add('eventsLost', Math.max(0, g.version + 1 - after));
    expect(after).toBe(g.version + 1);
    expect(await invariantViolations(world.db)).toEqual([]);
  });
});
