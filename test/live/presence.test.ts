/**
 * Stream presence (issue 31, service/presence.ts): a seated player holding a game stream — REST or the
 * gameEvents subscription — is watching that game while it is open, not after it closes, and not once
 * its row has gone two heartbeats without a refresh (what a crashed process leaves). A spectator's
 * stream is nobody's presence. Read from the database, as the notifier reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWatching } from '../../service/presence.js';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import type { Player } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from '../e2e/fixture.js';
import { openEvents, reader } from './stream-client.js';

const HEARTBEAT_MS = 150;
const LIVE = { heartbeatMs: HEARTBEAT_MS, streamsPerCaller: 4, pollMs: 60_000 };

/** Polls `check` until it answers `want` or `ms` pass; its last answer. */
const becomes = async (check: () => Promise<boolean>, want: boolean, ms = 3000): Promise<boolean> => {
  const end = Date.now() + ms;
  let got = await check();
  while (got !== want && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    got = await check();
  }
  return got;
};

describe.each(STORE_TARGETS)('stream presence on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let cat: Player;
  let gameId: string;

  const watching = (p: Player, at = api.app.services.now()) => isWatching(api.app.services.db, p.id, gameId, at, HEARTBEAT_MS);

  beforeAll(async () => {
    api = await openSuite(target, 'presence', { app: { live: LIVE } });
    [ann, ben, cat] = await registerPlayers(api, 'ann', 'ben', 'cat');
    gameId = (await createGameAs(api, ann, { opponent: ben.handle })).id;
  }, 90_000);
  afterAll(async () => {
    await closeSuite(api);
  });

  it('is true while a seated player’s REST stream is open, refreshed by the heartbeat, false after it closes', async () => {
    expect(await watching(ann)).toBe(false);
    const r = reader(await openEvents(api, gameId, ann));
    await r.framesUntil((f) => f.some((x) => x.comment === 'heartbeat'), 2000);
    expect(await watching(ann)).toBe(true);
    expect(await watching(ben)).toBe(false);
    // Still fresh well past the first two heartbeats: the heartbeat refreshes it.
    await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_MS));
    expect(await watching(ann)).toBe(true);
    await r.cancel();
    expect(await becomes(() => watching(ann), false)).toBe(false);
    expect(await api.app.services.db.prisma.streamPresence.count({ where: { playerId: ann.id } })).toBe(0);
  });

  it('goes stale two heartbeats after the last refresh (a crashed process’s row)', async () => {
    const r = reader(await openEvents(api, gameId, ben));
    await r.framesUntil((f) => f.length > 0, 2000);
    expect(await watching(ben)).toBe(true);
    const row = await api.app.services.db.prisma.streamPresence.findFirstOrThrow({ where: { playerId: ben.id, gameId } });
    expect(await watching(ben, new Date(api.app.services.now().getTime() + 2 * HEARTBEAT_MS + 1000))).toBe(false);
    expect(await isWatching(api.app.services.db, ben.id, gameId, new Date(row.seenAt.getTime() + 40_000))).toBe(true);
    expect(await isWatching(api.app.services.db, ben.id, gameId, new Date(row.seenAt.getTime() + 60_000))).toBe(false);
    await r.cancel();
    expect(await becomes(() => watching(ben), false)).toBe(false);
  });

  it('is nobody’s presence for a spectator, and false for a game or player that does not exist', async () => {
    const r = reader(await openEvents(api, gameId, cat));
    await r.framesUntil((f) => f.length > 0, 2000);
    expect(await watching(cat)).toBe(false);
    expect(await api.app.services.db.prisma.streamPresence.count({ where: { playerId: cat.id } })).toBe(0);
    await r.cancel();
    expect(await isWatching(api.app.services.db, 'not-a-uuid', gameId, new Date())).toBe(false);
    expect(await isWatching(api.app.services.db, ann.id, '00000000-0000-4000-8000-000000000000', new Date())).toBe(false);
  });

  it('counts a gameEvents subscription as a REST stream', async () => {
    const res = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${ann.token}` },
      body: JSON.stringify({ query: 'subscription($id: ID!) { gameEvents(gameId: $id) { version kind } }', variables: { id: gameId } }),
    });
    const r = reader(res);
    await r.framesUntil((f) => f.some((x) => x.event === 'next'), 3000);
    expect(await watching(ann)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_MS));
    expect(await watching(ann)).toBe(true);
    await r.cancel();
    expect(await becomes(() => watching(ann), false)).toBe(false);
  });
});
