/**
 * The live streams over a real HTTP server (node:http over the app's Yoga, as `npm start` serves it):
 * events arrive unbuffered with the stream's content type, and a client that goes away (an aborted
 * fetch) frees its stream and its slot of the per-caller limit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsResponse } from '../../rest/events.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, type Player } from '../e2e/client.js';
import { createGameAs, registerPlayers } from '../e2e/fixture.js';

const LIVE = { heartbeatMs: 10_000, streamsPerCaller: 2, pollMs: 60_000 };

describe.each(STORE_TARGETS)('live streams over HTTP on $kind', (target) => {
  let api: TestApi;
  let server: Server;
  let base: string;
  let ann: Player;
  let ben: Player;
  beforeAll(async () => {
    api = await openTestApi(target, { app: { live: LIVE } });
    server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    [ann, ben] = await registerPlayers(api, 'ann', 'ben');
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
  });

  /** Opens a stream over the socket; reads until `needle` shows, then aborts the request. */
  const readUntil = async (gameId: string, who: Player, needle: string, during?: () => Promise<unknown>) => {
    const abort = new AbortController();
    const res = await fetch(`${base}/v1/games/${gameId}/events`, {
      headers: { authorization: `Bearer ${who.token}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 5000;
    let started = false;
    while (!text.includes(needle) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!started && during && text.includes('event: ')) {
        started = true;
        await during();
      }
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);
    return text;
  };

  it('sends the log, then a turn made meanwhile, over the socket as it happens', async () => {
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    const mover = g.whoseTurn === g.mySeat ? ann : ben;
    const text = await readUntil(g.id, ben, 'event: pass', () => act(api, mover, g.id, { pass: true }));
    expect(text).toMatch(/^: game /);
    expect(text).toContain('id: 1\nevent: game-created\n');
    expect(text).toContain(`id: ${g.version + 1}\nevent: pass\n`);
  });

  it('frees a stream when its client goes away: many more streams than the limit, one after another', async () => {
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    for (let i = 0; i < LIVE.streamsPerCaller * 3; i++) {
      expect(await readUntil(g.id, ann, 'event: game-created')).toContain('event: game-created');
      // The server sees the socket close a moment later.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('answers 501 where streams are not served (the API Lambda), before looking at anything else', async () => {
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    const request = new Request(`${base}/v1/games/${g.id}/events`, { headers: { authorization: `Bearer ${ann.token}` } });
    const res = await eventsResponse(api.app.services, { enabled: false }, request, g.id);
    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('STREAMS_UNAVAILABLE');
  });
});
