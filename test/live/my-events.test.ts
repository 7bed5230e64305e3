/**
 * A player's own event stream (issue 31, docs/live.md): GET /v1/me/events as SSE and NDJSON and the
 * myEvents subscription. A player hears game-started, your-turn (only their own move), challenge-resolved
 * and game-ended of their games and nothing of other players' games; resuming after an id gives every
 * later event once, in order; a malformed Last-Event-ID or after is a 400 (VALIDATION); an after beyond
 * the newest sends nothing. And the settled id: an outbox id taken by a transaction that has not committed
 * holds back the later ones (Postgres), and one rolled back is skipped after the settle time.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, findPlay, readGame, type Player } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from '../e2e/fixture.js';
import { LEX } from './played-game.js';
import type { Frame } from './stream-client.js';

const LIVE = { heartbeatMs: 150, streamsPerCaller: 4, pollMs: 60_000, outboxSettleMs: 400 };

interface MyEventJson {
  id: string;
  kind: string;
  at: string;
  gameId: string | null;
  tournamentId: string | null;
  version: number | null;
  data: Record<string, unknown>;
}

const parseBlock = (block: string): Frame => {
  const f: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) f['comment'] = line.slice(1).trim();
    else if (line.indexOf(':') > 0) f[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).replace(/^ /, '');
  }
  return f;
};

/**
 * A stream read in the background from the start, so that no chunk is lost when a wait times out (a
 * reader that gives up on a pending read loses what it brings): what came so far, polled.
 */
const reader = (res: Response) => {
  const r = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  void (async () => {
    for (;;) {
      const got = await r.read().catch(() => ({ done: true as const, value: undefined }));
      if (got.done) break;
      text += decoder.decode(got.value, { stream: true });
    }
    ended = true;
  })();
  const until = async <T>(read: () => T, done: (x: T) => boolean, ms: number): Promise<T> => {
    const end = Date.now() + ms;
    while (!done(read()) && !ended && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    return read();
  };
  const frames = (): Frame[] => text.split('\n\n').slice(0, -1).map(parseBlock);
  const lines = (): string[] => text.split('\n').slice(0, -1);
  return {
    framesUntil: (done: (f: Frame[]) => boolean, ms = 5000) => until(frames, done, ms),
    linesUntil: (done: (l: string[]) => boolean, ms = 5000) => until(lines, done, ms),
    cancel: () => r.cancel().catch(() => undefined),
  };
};

const openMine = (api: TestApi, who: Player | null, headers: Record<string, string> = {}, query = '') =>
  api.fetch(`/v1/me/events${query}`, { headers: { ...(who ? { authorization: `Bearer ${who.token}` } : {}), ...headers } });

const eventsOf = (frames: readonly Frame[]): MyEventJson[] =>
  frames.filter((f) => f.id !== undefined && f.data !== undefined).map((f) => JSON.parse(f.data!) as MyEventJson);

/** Opens `who`'s SSE stream (after `after`, or from now on) and reads it until `done` holds or `ms` pass. */
const readMine = async (api: TestApi, who: Player, done: (e: MyEventJson[]) => boolean, after?: string, ms = 5000) => {
  const res = await openMine(api, who, after === undefined ? {} : { 'last-event-id': after });
  expect(res.status).toBe(200);
  const r = reader(res);
  const frames = await r.framesUntil((f) => done(eventsOf(f)), ms);
  await r.cancel();
  for (const f of frames.filter((x) => x.id !== undefined)) expect(JSON.parse(f.data!)).toMatchObject({ id: f.id, kind: f.event });
  return eventsOf(frames);
};

describe.each(STORE_TARGETS)('a player’s own events on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let cat: Player;
  let dan: Player;
  /** What ann's and ben's streams got while ann and ben played a game (and cat and dan another). */
  let annGot: MyEventJson[];
  let benGot: MyEventJson[];
  let gameId: string;
  let otherGameId: string;
  /** The newest outbox id before the game. */
  let before: string;

  const newestId = async (): Promise<string> =>
    String((await api.app.services.db.prisma.outboxMessage.aggregate({ _max: { id: true } }))._max.id ?? 0n);

  beforeAll(async () => {
    api = await openSuite(target, 'my-events', { app: { live: LIVE } });
    [ann, ben, cat, dan] = await registerPlayers(api, 'ann', 'ben', 'cat', 'dan');
    before = await newestId();
    // Both streams open before anything happens: "from now on" then sees the whole game.
    const annRes = await openMine(api, ann);
    const benRes = await openMine(api, ben, { accept: 'application/x-ndjson' });
    expect(benRes.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const annR = reader(annRes);
    const benR = reader(benRes);
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    gameId = g.id;
    otherGameId = (await createGameAs(api, cat, { opponent: dan.handle })).id;
    const first = await readGame(api, ann, g.id);
    const mover = first.whoseTurn === first.mySeat ? ann : ben;
    const found = findPlay(await readGame(api, mover, g.id), LEX, true);
    await act(api, mover, g.id, found ? { play: { move: found.move } } : { pass: true });
    await act(api, mover === ann ? ben : ann, g.id, { challenge: {} });
    await act(api, ann, g.id, { resign: true });
    await act(api, cat, otherGameId, { resign: true });
    const ended = (e: MyEventJson[]) => e.some((x) => x.kind === 'game-ended');
    annGot = eventsOf(await annR.framesUntil((f) => ended(eventsOf(f))));
    const lines = await benR.linesUntil((l) => ended(l.filter((x) => x.trim() !== '').map((x) => JSON.parse(x) as MyEventJson)));
    benGot = lines.filter((x) => x.trim() !== '').map((x) => JSON.parse(x) as MyEventJson);
    await annR.cancel();
    await benR.cancel();
  }, 60_000);
  afterAll(async () => {
    await closeSuite(api);
  });

  it('sends each player their own game’s events, your-turn only for their move, nothing of other games', async () => {
    const rows = await api.app.services.db.prisma.outboxMessage.findMany({ where: { gameId }, orderBy: { id: 'asc' } });
    const mine = (p: Player) =>
      rows.filter((r) => r.kind !== 'your-turn' || (r.payload as { playerId?: string }).playerId === p.id).map((r) => r.id.toString());
    expect(annGot.map((e) => e.id)).toEqual(mine(ann));
    expect(benGot.map((e) => e.id)).toEqual(mine(ben));
    for (const got of [annGot, benGot]) {
      expect(got.every((e) => e.gameId === gameId && e.tournamentId === null)).toBe(true);
      expect(got.map((e) => e.kind)).toEqual(expect.arrayContaining(['game-started', 'your-turn', 'challenge-resolved', 'game-ended']));
      expect(got[0]).toMatchObject({ kind: 'game-started', version: expect.any(Number) as number, data: { turn: expect.any(Number) } });
    }
    expect(annGot.filter((e) => e.kind === 'your-turn').every((e) => e.data['playerId'] === ann.id)).toBe(true);
    expect(benGot.filter((e) => e.kind === 'your-turn').every((e) => e.data['playerId'] === ben.id)).toBe(true);
    expect(annGot.find((e) => e.kind === 'game-ended')).toMatchObject({ data: { reason: 'resigned' } });
    // The game of cat and dan is theirs alone; they hear it.
    expect(JSON.stringify([annGot, benGot])).not.toContain(otherGameId);
    const catGot = await readMine(api, cat, (e) => e.some((x) => x.kind === 'game-ended'), before);
    expect(new Set(catGot.map((e) => e.gameId))).toEqual(new Set([otherGameId]));
  });

  it('carries no hidden information: no rack, no bag, no seed', () => {
    const text = JSON.stringify([...annGot, ...benGot]);
    for (const word of ['rack', 'bag', 'seed', 'tiles']) expect(text.toLowerCase()).not.toContain(word);
  });

  it('resumes after an id with every later event once, in order (Last-Event-ID and ?after=, SSE and NDJSON)', async () => {
    const from = annGot[0]!.id;
    const last = annGot.at(-1)!.id;
    const resumed = await readMine(api, ann, (e) => e.some((x) => x.id === last), from);
    expect(resumed.map((e) => e.id)).toEqual(annGot.slice(1).map((e) => e.id));
    const res = await openMine(api, ann, { accept: 'application/x-ndjson' }, `?after=${before}`);
    const r = reader(res);
    const lines = await r.linesUntil((l) => l.some((x) => x.includes(`"id":"${last}"`)));
    await r.cancel();
    expect(lines.filter((x) => x.trim() !== '').map((x) => (JSON.parse(x) as MyEventJson).id)).toEqual(annGot.map((e) => e.id));
  });

  it('refuses a malformed Last-Event-ID or after (400 VALIDATION), no credential (401); an after beyond the newest sends nothing', async () => {
    for (const [headers, query] of [
      [{ 'last-event-id': 'abc' }, ''],
      [{ 'last-event-id': '-1' }, ''],
      [{}, '?after=1.5'],
      [{}, '?after=99999999999999999999'],
    ] as const) {
      const res = await openMine(api, ann, headers, query);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION' });
    }
    expect((await openMine(api, null)).status).toBe(401);
    const beyond = (BigInt(await newestId()) + 1000n).toString();
    const res = await openMine(api, ann, {}, `?after=${beyond}`);
    expect(res.status).toBe(200);
    const r = reader(res);
    await createGameAs(api, ben, { opponent: ann.handle });
    const frames = await r.framesUntil(() => false, 600);
    await r.cancel();
    expect(eventsOf(frames)).toEqual([]);
  });

  it('serves the same events as the myEvents subscription; a malformed after is VALIDATION', async () => {
    const query = 'subscription($after: ID) { myEvents(after: $after) { id kind gameId tournamentId version data } }';
    const sub = (after: string) =>
      api.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${ben.token}` },
        body: JSON.stringify({ query, variables: { after } }),
      });
    const r = reader(await sub(before));
    const last = benGot.at(-1)!.id;
    const frames = await r.framesUntil((f) => f.some((x) => x.data?.includes(`"id":"${last}"`) ?? false));
    await r.cancel();
    const got = frames
      .filter((f) => f.event === 'next')
      .map((f) => (JSON.parse(f.data!) as { data: { myEvents: MyEventJson } }).data.myEvents)
      // The game of the test above (ben against ann) follows: the one played first is what both were sent.
      .filter((e) => e.gameId === gameId);
    expect(got.map((e) => e.id)).toEqual(benGot.map((e) => e.id));
    expect(got.map(({ id, kind, gameId: g, version, data }) => ({ id, kind, gameId: g, version, data }))).toEqual(
      benGot.map(({ id, kind, gameId: g, version, data }) => ({ id, kind, gameId: g, version, data })),
    );
    const bad = reader(await sub('x1'));
    const refusal = await bad.framesUntil((f) => f.some((x) => x.event === 'complete'));
    expect(refusal.find((f) => f.event === 'next')?.data).toContain('VALIDATION');
  });

  it('skips an id of a rolled-back insert once the settle time has passed', async () => {
    const db = api.app.services.db;
    const start = await newestId();
    const res = await openMine(api, ann, {}, `?after=${start}`);
    const r = reader(res);
    const row = (kind: string) => ({ gameId, eventSeq: 1, kind, payload: { kind, gameId, version: 1 } });
    await db.prisma
      .$transaction(async (tx) => {
        await tx.outboxMessage.create({ data: row('dispute-filed') });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await db.prisma.outboxMessage.create({ data: row('dispute-ruled') });
    const frames = await r.framesUntil((f) => eventsOf(f).length > 0, 5000);
    await r.cancel();
    expect(eventsOf(frames).map((e) => e.kind)).toEqual(['dispute-ruled']);
  });

  it.runIf(target.kind === 'postgres')(
    'holds back ids after one whose transaction has not committed, then sends both in order',
    async () => {
      const db = api.app.services.db;
      const start = await newestId();
      const res = await openMine(api, ann, {}, `?after=${start}`);
      const r = reader(res);
      const client = new pg.Client({ connectionString: (target as { url: string }).url });
      await client.connect();
      try {
        await client.query(`SET search_path TO "${db.schema}"`);
        await client.query('BEGIN');
        const payload = (kind: string) => JSON.stringify({ kind, gameId, version: 1 });
        await client.query(`INSERT INTO "outbox" ("game_id", "event_seq", "kind", "payload") VALUES ($1, 1, 'dispute-filed', $2::jsonb)`, [
          gameId,
          payload('dispute-filed'),
        ]);
        await db.prisma.outboxMessage.create({
          data: { gameId, eventSeq: 1, kind: 'dispute-ruled', payload: { kind: 'dispute-ruled', gameId, version: 2 } },
        });
        // Within the settle time the later id waits for the earlier one.
        expect(eventsOf(await r.framesUntil(() => false, 250))).toEqual([]);
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
      const frames = await r.framesUntil((f) => eventsOf(f).length >= 2, 5000);
      await r.cancel();
      const got = eventsOf(frames);
      expect(got.map((e) => e.kind)).toEqual(['dispute-filed', 'dispute-ruled']);
      expect(BigInt(got[0]!.id)).toBeLessThan(BigInt(got[1]!.id));
    },
  );
});
