/**
 * Live game streams (issue 31, docs/live.md): GET /v1/games/{id}/events as SSE and NDJSON. A whole game
 * read through both players' streams and a spectator's, each compared with that viewer's `game` view;
 * resuming with Last-Event-ID and ?after=; the errors (404 without a leak, 400 for a malformed id or an
 * `after` beyond the log, 401); the per-caller limit (429); heartbeats; a slow reader closed with a
 * reason; and a live event woken by the notifier (LISTEN/NOTIFY) after a turn made by another request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitTiles } from '../../engine/tiles.js';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, asGame, graphql, JOIN_GAME, readGame, type GameOrError, type GameView, type Player } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from '../e2e/fixture.js';
import { playThenResign, sheetOfView } from './played-game.js';
import { eventsOf, openEvents, readAll, reader, type StreamEventJson } from './stream-client.js';

const LIVE = { heartbeatMs: 150, streamsPerCaller: 3, pollMs: 60_000, maxBufferedBytes: 4096, slowConsumerMs: 300 };

/** The score sheet a client keeps from the stream: each update replaces the lines from `historyFrom` on. */
const sheetOf = (events: readonly StreamEventJson[]) => {
  let sheet: NonNullable<StreamEventJson['game']>['turns'] = [];
  for (const e of events) if (e.game) sheet = [...sheet.slice(0, e.game.historyFrom), ...e.game.turns];
  return sheet.map((t) => ({
    seat: t.seat,
    notation: t.move,
    score: t.score,
    cumulative: t.cumulative,
    tiles: t.tiles ? t.tiles.join('') : null,
    count: t.count ?? null,
  }));
};

describe.each(STORE_TARGETS)('live game streams on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let cat: Player;
  let dan: Player;
  /** A finished game: ann against ben, an exchange early on, ended by a resignation. */
  let done: GameView;

  beforeAll(async () => {
    api = await openSuite(target, 'live-streams', { app: { live: LIVE } });
    [ann, ben, cat, dan] = await registerPlayers(api, 'ann', 'ben', 'cat', 'dan');
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    done = await playThenResign(api, g, ann, ben, 10);
    expect(done.status).toBe('ended');
  }, 120_000);
  afterAll(async () => {
    await closeSuite(api);
  });

  it('replays the whole game to each player and a spectator exactly as their game view shows it', async () => {
    for (const who of [ann, ben, cat]) {
      const view = await readGame(api, who, done.id);
      const { frames, events } = await readAll(api, done.id, who, view.version);
      expect(frames[0]!.comment).toMatch(/^game /);
      // Every version once, in order; the SSE id and event name are the version and the kind.
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: view.version }, (_, i) => i + 1));
      for (const f of frames.filter((x) => x.id !== undefined)) {
        const e = JSON.parse(f.data!) as StreamEventJson;
        expect([f.id, f.event]).toEqual([String(e.version), e.kind]);
      }
      expect(events[0]!.kind).toBe('game-created');
      expect(events.at(-1)!.kind).toBe('game-ended');
      expect(events.some((e) => e.kind === 'tiles-drawn')).toBe(true);
      // The score sheet, the scores, the bag and the result as the game view has them.
      expect(sheetOf(events), who.handle).toEqual(sheetOfView(view.history));
      // Each line names the version of the event that wrote it.
      for (const e of events) for (const t of e.game?.turns ?? []) expect(t.event).toBeLessThanOrEqual(e.version);
      for (const e of events.filter((x) => x.kind === 'play')) expect(e.game!.turns.at(-1)!.event).toBe(e.version);
      const last = events.at(-1)!.game!;
      expect(last.scores).toEqual(view.scores);
      expect(last.bagCount).toBe(view.bagCount);
      expect(last.status).toBe('ended');
      expect(last.result?.winner).toBe(view.result!.winner);
      expect(last.rackSizes).toEqual([0, 1].map((s) => view.seats.find((x) => x.seat === s)!.rackSize));
      for (const e of events) expect(e.seat).toBe(view.mySeat);
      if (view.mySeat === null) {
        // A spectator: no rack in any event.
        for (const e of events) expect(e.game && 'rack' in e.game).toBe(false);
      } else {
        expect(last.rack!.join('')).toBe(splitTiles(view.myRack!)!.join(''));
        // Their own rack after every event (their draws), of the size both players see.
        for (const e of events) if (e.game) expect(e.game.rack!.length).toBe(e.game.rackSizes[view.mySeat]);
      }
    }
    // The exchange's tiles: shown to the exchanger only.
    const exchangeOf = (events: StreamEventJson[]) => events.flatMap((e) => e.game?.turns ?? []).find((t) => t.kind === 'exchange')!;
    const exchanger = exchangeOf((await readAll(api, done.id, ann, done.version)).events).seat;
    const [mine, theirs] = exchanger === done.mySeat ? [ann, ben] : [ben, ann];
    expect(exchangeOf((await readAll(api, done.id, mine, done.version)).events).tiles).toHaveLength(2);
    expect(exchangeOf((await readAll(api, done.id, theirs, done.version)).events).tiles).toBeUndefined();
    expect(exchangeOf((await readAll(api, done.id, cat, done.version)).events).tiles).toBeUndefined();
  }, 60_000);

  it('resumes after Last-Event-ID (or ?after=) with every later event once, in order', async () => {
    const all = (await readAll(api, done.id, ben, done.version)).events;
    const k = 7;
    const resumed = (await readAll(api, done.id, ben, done.version, { 'last-event-id': String(k) })).events;
    expect(resumed).toEqual(all.slice(k));
    const res = await openEvents(api, done.id, ben, {}, `?after=${k + 2}`);
    const r = reader(res);
    const viaQuery = eventsOf(await r.framesUntil((f) => eventsOf(f).some((e) => e.version === done.version)));
    await r.cancel();
    expect(viaQuery).toEqual(all.slice(k + 2));
    // The header wins over the query (EventSource reconnects to its first URL with the last id it saw).
    const both = await openEvents(api, done.id, ben, { 'last-event-id': String(done.version - 1) }, '?after=1');
    const rb = reader(both);
    const last = eventsOf(await rb.framesUntil((f) => eventsOf(f).length > 0));
    await rb.cancel();
    expect(last.map((e) => e.version)).toEqual([done.version]);
  });

  it('streams NDJSON when the Accept header asks for it', async () => {
    const res = await openEvents(api, done.id, cat, { accept: 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const r = reader(res);
    const lines = await r.linesUntil((l) => l.filter(Boolean).length >= done.version);
    await r.cancel();
    const events = lines.filter(Boolean).map((l) => JSON.parse(l) as StreamEventJson);
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: done.version }, (_, i) => i + 1));
    expect(events.every((e) => !e.game || !('rack' in e.game))).toBe(true);
  });

  it('answers a typed problem, never a stream, for a game the caller may not see or a resume point that is not one', async () => {
    const problem = async (res: Response) => ({
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as { code: string; detail: string },
    });
    const unknown = await problem(await openEvents(api, '00000000-0000-4000-8000-000000000000', ann));
    expect(unknown).toMatchObject({ status: 404, type: 'application/problem+json', body: { code: 'GAME_NOT_FOUND' } });
    expect((await problem(await openEvents(api, 'not-a-game', ann))).status).toBe(404);
    expect((await problem(await openEvents(api, done.id, null))).status).toBe(401);
    for (const bad of ['abc', '-1', '1.5', '99999999999']) {
      const p = await problem(await openEvents(api, done.id, ann, { 'last-event-id': bad }));
      expect(p, bad).toMatchObject({ status: 400, type: 'application/problem+json', body: { code: 'VALIDATION' } });
    }
    expect((await problem(await openEvents(api, done.id, ann, {}, '?after=x'))).status).toBe(400);
    const beyond = await problem(await openEvents(api, done.id, ann, { 'last-event-id': String(done.version + 1) }));
    expect(beyond).toMatchObject({ status: 400, body: { code: 'VALIDATION' } });
    expect(beyond.body.detail).toMatch(/beyond the game's log/);
  });

  it('limits the open streams of one caller (429 with Retry-After) and frees a slot when a stream closes', async () => {
    const open = [];
    for (let i = 0; i < LIVE.streamsPerCaller; i++) {
      const res = await openEvents(api, done.id, dan, {}, `?after=${done.version}`);
      expect(res.status).toBe(200);
      open.push(reader(res));
    }
    const over = await openEvents(api, done.id, dan, {}, `?after=${done.version}`);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await over.json()) as { code: string }).code).toBe('RATE_LIMITED');
    // Another caller is not held back by dan's streams.
    const other = await openEvents(api, done.id, cat, {}, `?after=${done.version}`);
    expect(other.status).toBe(200);
    await reader(other).cancel();
    await open.pop()!.cancel();
    const again = await openEvents(api, done.id, dan, {}, `?after=${done.version}`);
    expect(again.status).toBe(200);
    open.push(reader(again));
    for (const r of open) await r.cancel();
  });

  it('sends heartbeats while nothing happens', async () => {
    const r = reader(await openEvents(api, done.id, cat, {}, `?after=${done.version}`));
    const frames = await r.framesUntil((f) => f.some((x) => x.comment === 'heartbeat'), 3000);
    await r.cancel();
    expect(frames.some((x) => x.comment === 'heartbeat')).toBe(true);
  });

  it('closes the stream of a reader that leaves too much unread, with the reason', async () => {
    const res = await openEvents(api, done.id, cat);
    // Nothing is read for longer than the stream waits for a full buffer to drain.
    await new Promise((resolve) => setTimeout(resolve, LIVE.slowConsumerMs * 3));
    const r = reader(res);
    const frames = await r.framesUntil(() => false, 3000);
    expect(r.ended).toBe(true);
    const close = frames.at(-1)!;
    expect(close.event).toBe('close');
    expect(JSON.parse(close.data!)).toMatchObject({ kind: 'close', reason: 'slow-consumer' });
    const sent = eventsOf(frames);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(done.version);
  });

  it('follows an open game from its proposal, and shows a player who joins their rack from then on', async () => {
    const open = await createGameAs(api, ann, {});
    const joiner = reader(await openEvents(api, open.id, dan));
    const proposed = eventsOf(await joiner.framesUntil((f) => eventsOf(f).length > 0, 3000));
    expect(proposed.map((e) => [e.version, e.kind, e.seat, e.game])).toEqual([[1, 'game-proposed', null, null]]);
    asGame(await graphql<GameOrError>(api, 'joinGame', JOIN_GAME, { id: open.id }, dan.token));
    const view = await readGame(api, dan, open.id);
    const events = eventsOf(await joiner.framesUntil((f) => eventsOf(f).some((e) => e.version === view.version), 5000));
    await joiner.cancel();
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: view.version }, (_, i) => i + 1));
    const later = events.slice(1);
    expect(later[0]!.kind).toBe('game-created');
    for (const e of later) expect(e.seat).toBe(view.mySeat);
    expect(later.at(-1)!.game!.rack!.join('')).toBe(splitTiles(view.myRack!)!.join(''));
    // A line's event is the game version that wrote it, counting the service's game-proposed.
    const mover = view.whoseTurn === view.mySeat ? dan : ann;
    await act(api, mover, open.id, { pass: true });
    const pass = (await readAll(api, open.id, dan, view.version + 1)).events.at(-1)!;
    expect(pass.kind).toBe('pass');
    expect(pass.game!.turns).toMatchObject([{ kind: 'pass', event: view.version + 1 }]);
  });

  it('delivers a turn made by another request as soon as it is committed (the notifier, not the slow poll)', async () => {
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    const spectator = reader(await openEvents(api, g.id, cat, {}, `?after=${g.version}`));
    const player = reader(await openEvents(api, g.id, ben, { accept: 'application/x-ndjson' }, `?after=${g.version}`));
    await spectator.framesUntil((f) => f.length > 0, 2000); // the opening comment: the stream listens
    const mover = g.whoseTurn === g.mySeat ? ann : ben;
    const started = Date.now();
    await act(api, mover, g.id, { pass: true });
    const seen = eventsOf(await spectator.framesUntil((f) => eventsOf(f).length > 0, 5000));
    const lines = await player.linesUntil((l) => l.some((x) => x.includes('"pass"')), 5000);
    const elapsed = Date.now() - started;
    await spectator.cancel();
    await player.cancel();
    expect(seen.map((e) => [e.version, e.kind])).toEqual([[g.version + 1, 'pass']]);
    expect(seen[0]!.game!.turns).toMatchObject([{ kind: 'pass', move: '-' }]);
    expect(lines.filter(Boolean).map((l) => (JSON.parse(l) as StreamEventJson).kind)).toEqual(['pass']);
    expect(elapsed).toBeLessThan(LIVE.pollMs / 10);
  });
});
