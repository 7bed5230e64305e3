/**
 * The seek list as a stream and seeks for a recorded over-the-board game (issue 33, docs/lobby.md), on every
 * store target: GET /v1/seeks/events (SSE, NDJSON) and the `seeks` subscription, open to anyone, deliver
 * seek-opened when a seek is made and seek-closed when it is accepted, withdrawn or expires (the sweep
 * announcing each expired seek once), in order, resumable after an id, with nothing secret and no hidden
 * rating; the webhook and notification fan-outs deliver none of them. A recorded seek (clockMinutes) is
 * listed with its pace and clock, and accepting it makes a recorded game with that clock in the recorded
 * category, one acceptor of many winning; bad pace inputs are typed errors naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seekEventsResponse } from '../../rest/events.js';
import { sweepLobby } from '../../service/lobby-sweep.js';
import { fanOutNotifications } from '../../service/notification-fan-out.js';
import { readSeekEvents } from '../../service/seek-events.js';
import { acceptSeek, createSeek, getSeek, withdrawSeek } from '../../service/seeks.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { reader, type Frame } from '../live/stream-client.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

const LIVE = { heartbeatMs: 150, streamsPerCaller: 4, pollMs: 60_000, outboxSettleMs: 400 };
const DAY = 86_400_000;
const MAX_ID = 9_000_000_000_000_000_000n;

interface SeekEventJson {
  id: string;
  kind: string;
  at: string;
  seekId: string;
  data: Record<string, unknown>;
}

type R<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: unknown } };
const value = <T>(r: R<T>): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

const eventsOf = (frames: readonly Frame[]): SeekEventJson[] =>
  frames.filter((f) => f.id !== undefined && f.data !== undefined).map((f) => JSON.parse(f.data!) as SeekEventJson);

describe.each(STORE_TARGETS)('the seek stream and recorded seeks on $kind', (target) => {
  let api: TestApi;
  let amy: { id: string; token: string };
  let bob: { id: string; token: string };
  let cat: { id: string; token: string };
  let now = START;
  const deps = () => ({ ...api.app.services, now: () => now });
  const setNow = (d: Date) => {
    now = d;
    api.setNow(d);
  };
  const newestId = async (): Promise<string> =>
    String((await api.app.services.db.prisma.outboxMessage.aggregate({ _max: { id: true } }))._max.id ?? 0n);
  const openStream = (headers: Record<string, string> = {}, query = '') => api.fetch(`/v1/seeks/events${query}`, { headers });

  beforeAll(async () => {
    api = await openTestApi(target, { app: { live: LIVE } });
    [amy, bob, cat] = [await api.register('ss-amy'), await api.register('ss-bob'), await api.register('ss-cat')];
  });
  afterAll(async () => {
    await api?.close();
  });

  it('anyone follows the list: seek-opened on create, seek-closed on withdraw and accept, in order, nothing secret', async () => {
    // An anonymous stream, opened before anything happens: "from now on" sees all of it.
    const res = await openStream();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const r = reader(res);
    const first = value(await createSeek(deps(), amy.id, { daysPerMove: 2, rated: true, ratingMax: 2200 }));
    const second = value(await createSeek(deps(), bob.id, { clockMinutes: 25 }));
    value(await withdrawSeek(deps(), bob.id, second.seek.id));
    const game = value(await acceptSeek(deps(), cat.id, first.seek.id));
    const frames = await r.framesUntil((f) => eventsOf(f).length >= 4);
    await r.cancel();
    const got = eventsOf(frames);
    for (const f of frames.filter((x) => x.id !== undefined)) expect(JSON.parse(f.data!)).toMatchObject({ id: f.id, kind: f.event });
    expect(got.map((e) => [e.kind, e.seekId, e.data['reason'] ?? null])).toEqual([
      ['seek-opened', first.seek.id, null],
      ['seek-opened', second.seek.id, null],
      ['seek-closed', second.seek.id, 'withdrawn'],
      ['seek-closed', first.seek.id, 'accepted'],
    ]);
    expect(got.map((e) => BigInt(e.id))).toEqual([...got.map((e) => BigInt(e.id))].sort((a, b) => (a < b ? -1 : 1)));
    // What the list shows of a seek, and nothing of the author's account or of any game's tiles.
    expect(got[0]!.data).toEqual({
      id: first.seek.id,
      authorHandle: 'ss-amy',
      authorDisplayName: expect.any(String),
      authorRating: null,
      preset: 'NSA_2008',
      overrides: {},
      lexicon: first.seek.lexiconName,
      pace: 'correspondence',
      daysPerMove: 2,
      clockMinutes: null,
      rated: true,
      category: 'tournament/correspondence',
      ratingMin: null,
      ratingMax: 2200,
      expiresAt: first.seek.expiresAt.toISOString(),
      createdAt: first.seek.createdAt.toISOString(),
    });
    expect(got[1]!.data).toMatchObject({ pace: 'recorded', clockMinutes: 25, daysPerMove: null, category: 'tournament/recorded' });
    expect(got[3]!.data).toEqual({ reason: 'accepted', gameId: game.id });
    expect(JSON.stringify(got)).not.toMatch(/rack|bag|seed/i);
    expect(JSON.stringify(got)).not.toContain(amy.id);
  });

  it('resumes after an id (Last-Event-ID, ?after= as NDJSON, the subscription’s after); a signed-in reader too', async () => {
    const before = await newestId();
    const a = value(await createSeek(deps(), amy.id, {}));
    const b = value(await createSeek(deps(), bob.id, {}));
    value(await withdrawSeek(deps(), amy.id, a.seek.id));
    const all = await readSeekEvents(api.app.services.db, BigInt(before), MAX_ID);
    expect(all.map((e) => [e.kind, e.seekId])).toEqual([
      ['seek-opened', a.seek.id],
      ['seek-opened', b.seek.id],
      ['seek-closed', a.seek.id],
    ]);

    const sse = reader(await openStream({ 'last-event-id': all[0]!.id, authorization: `Bearer ${cat.token}` }));
    const resumed = eventsOf(await sse.framesUntil((f) => eventsOf(f).length >= 2, 3000));
    await sse.cancel();
    expect(resumed.map((e) => e.id)).toEqual([all[1]!.id, all[2]!.id]);

    const nd = await openStream({ accept: 'application/x-ndjson' }, `?after=${all[1]!.id}`);
    expect(nd.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const ndr = reader(nd);
    const lines = await ndr.linesUntil((l) => l.some((x) => x.trim() !== ''), 3000);
    await ndr.cancel();
    expect(lines.filter((x) => x.trim() !== '').map((x) => (JSON.parse(x) as SeekEventJson).id)).toEqual([all[2]!.id]);

    // The subscription, anonymous, after the same id.
    const sub = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: 'subscription($after: ID) { seeks(after: $after) { id kind seekId data } }',
        variables: { after: all[0]!.id },
      }),
    });
    expect(sub.status).toBe(200);
    const subr = reader(sub);
    const payloads = (f: readonly Frame[]) =>
      f.filter((x) => x.event === 'next').map((x) => (JSON.parse(x.data!) as { data: { seeks: SeekEventJson } }).data.seeks);
    const subGot = payloads(await subr.framesUntil((f) => payloads(f).length >= 2, 3000));
    await subr.cancel();
    expect(subGot.map((e) => [e.id, e.kind, e.seekId])).toEqual([
      [all[1]!.id, 'seek-opened', b.seek.id],
      [all[2]!.id, 'seek-closed', a.seek.id],
    ]);
    expect(subGot[1]!.data).toEqual({ reason: 'withdrawn' });
  });

  it('refuses a malformed resume point and a bad credential; 501 where streams are not served', async () => {
    const bad = await openStream({}, '?after=abc');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION');
    const forged = await openStream({ authorization: 'Bearer not-a-token' });
    expect(forged.status).toBe(401);
    const sub = await api.gql('subscription { seeks(after: "x") { id } }');
    expect(JSON.stringify(sub.body)).toContain('VALIDATION');
    const off = await seekEventsResponse(api.app.services, { enabled: false }, new Request('http://arbiter.test/v1/seeks/events'), null);
    expect(off.status).toBe(501);
    expect(((await off.json()) as { code: string }).code).toBe('STREAMS_UNAVAILABLE');
    const elsewhere = await seekEventsResponse(
      api.app.services,
      { enabled: false, streamUrl: 'https://stream.example' },
      new Request('http://arbiter.test/v1/seeks/events'),
      null,
    );
    expect(elsewhere.headers.get('link')).toBe('<https://stream.example/v1/seeks/events>; rel="alternate"');
  });

  it('a hidden author’s rating is not shown; webhooks and notifications deliver none of the seek rows', async () => {
    await api.app.services.db.prisma.playerRating.create({
      data: {
        playerId: cat.id,
        category: 'tournament/correspondence',
        rating: 1720,
        deviation: 80,
        volatility: 0.06,
        provisional: false,
        lastRatedAt: now,
      },
    });
    const before = await newestId();
    const shown = value(await createSeek(deps(), cat.id, {}));
    await api.app.services.db.prisma.player.update({ where: { id: cat.id }, data: { profileHidden: true } });
    const hidden = value(await createSeek(deps(), cat.id, {}));
    await api.app.services.db.prisma.player.update({ where: { id: cat.id }, data: { profileHidden: false } });
    const got = await readSeekEvents(api.app.services.db, BigInt(before), MAX_ID);
    expect(got.find((e) => e.seekId === shown.seek.id)!.data['authorRating']).toEqual({ rating: 1720, deviation: 80, provisional: false });
    expect(got.find((e) => e.seekId === hidden.seek.id)!.data['authorRating']).toBeNull();

    // The seek author subscribes to the lobby's webhooks (a subscription cannot name the seek kinds: the check allows
    // the addressed kinds only); the fan-outs run over the seek rows without failing and deliver none of them.
    const key = await api.app.services.db.prisma.apiKey.create({
      data: { ownerId: cat.id, name: 'bot', prefix: `arb_${cat.id.slice(0, 8)}_seeks`, keyHash: 'ef'.repeat(32) },
    });
    await api.app.services.db.prisma.webhookSubscription.create({
      data: {
        ownerId: cat.id,
        apiKeyId: key.id,
        url: 'https://hooks.example.org/x',
        secret: 's'.repeat(32),
        kinds: ['seek-accepted', 'game-started', 'challenge-received'],
      },
    });
    await fanOutOutbox(api.app.services.db, { now: () => now, maxRows: 100_000 });
    await fanOutNotifications(api.app.services.db, { now: () => now, publicBaseUrl: 'https://arbiter.example.org', maxRows: 100_000 });
    const seekRows = await api.app.services.db.prisma.outboxMessage.findMany({ where: { kind: { in: ['seek-opened', 'seek-closed'] } } });
    expect(seekRows.length).toBeGreaterThan(0);
    expect(seekRows.every((r) => r.playerId === null && r.gameId === null && r.tournamentId === null)).toBe(true);
    const ids = seekRows.map((r) => r.id);
    expect(await api.app.services.db.prisma.webhookDelivery.count({ where: { outboxId: { in: ids } } })).toBe(0);
    expect(await api.app.services.db.prisma.notification.count({ where: { outboxId: { in: ids } } })).toBe(0);
    // Seen by the notifier (nothing to tell) and left alone by the webhook fan-out (not its kinds), none set aside.
    expect(seekRows.every((r) => r.lastError === null && r.notifiedAt !== null)).toBe(true);
  });

  it('a recorded seek is listed with its pace and clock; accepting it makes a recorded game with that clock and category', async () => {
    const created = await api.gql(
      `mutation { createSeek(input: { clockMinutes: 25, rated: true }) { __typename ... on Seek { id pace clockMinutes daysPerMove category rated } } }`,
      {},
      amy.token,
    );
    const seek = created.body.data!['createSeek'];
    expect(seek).toMatchObject({
      __typename: 'Seek',
      pace: 'RECORDED',
      clockMinutes: 25,
      daysPerMove: null,
      category: 'tournament/recorded',
    });
    const listed = await api.gql(`{ seeks(filter: { pace: RECORDED, author: "ss-amy" }) { edges { node { id pace clockMinutes } } } }`);
    expect(listed.body.data!['seeks'].edges).toEqual([{ node: { id: seek.id, pace: 'RECORDED', clockMinutes: 25 } }]);
    const restList = (await (await api.fetch('/v1/seeks?pace=RECORDED&author=ss-amy')).json()) as { items: unknown[] };
    expect(restList.items).toMatchObject([{ id: seek.id, pace: 'RECORDED', clockMinutes: 25 }]);

    const accepted = await api.fetch(`/v1/seeks/${seek.id}/accept`, { method: 'POST', headers: { authorization: `Bearer ${bob.token}` } });
    expect(accepted.status).toBe(201);
    const gameId = ((await accepted.json()) as { id: string }).id;
    const game = await api.gql(
      `query($id: ID!) { game(id: $id) { __typename ... on Game { recorded rated ratingCategory timeControl { kind minutes } } } }`,
      { id: gameId },
      amy.token,
    );
    expect(game.body.data!['game']).toMatchObject({
      __typename: 'Game',
      recorded: true,
      rated: true,
      ratingCategory: 'tournament/recorded',
      timeControl: { kind: 'clock', minutes: 25 },
    });
    const row = await api.app.services.db.prisma.game.findUnique({ where: { id: gameId } });
    // The seek's author keeps the score; both players hold a seat.
    expect(row?.scorekeeperId).toBe(amy.id);
    const seats = await api.app.services.db.prisma.seat.findMany({ where: { gameId } });
    expect(seats.map((s) => s.playerId).sort()).toEqual([amy.id, bob.id].sort());
    expect(value(await getSeek(deps(), seek.id as string)).seek.gameId).toBe(gameId);
  });

  it('of many players accepting a recorded seek at once exactly one gets the game', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, (_, i) => api.register(`ss-racer${i}`)));
    const s = value(await createSeek(deps(), amy.id, { pace: 'recorded' }));
    expect(s.seek.clockMinutes).toBeNull();
    const games = await api.app.services.db.prisma.game.count();
    const answers = await Promise.all(players.map((p) => acceptSeek(deps(), p.id, s.seek.id)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => (a.ok ? '' : a.error.code))).toEqual(Array(7).fill('SEEK_TAKEN'));
    expect(await api.app.services.db.prisma.game.count()).toBe(games + 1);
    const closes = await api.app.services.db.prisma.outboxMessage.count({
      where: { kind: 'seek-closed', payload: { path: ['seekId'], equals: s.seek.id } },
    });
    expect(closes).toBe(1);
  });

  it('bad pace inputs are typed errors naming the field, and nothing is written', async () => {
    const before = await api.app.services.db.prisma.seek.count();
    const issues = async (input: string) => {
      const r = await api.gql(
        `mutation { createSeek(input: ${input}) { __typename ... on ValidationError { issues { field } } ... on RuleViolation { code details } } }`,
        {},
        amy.token,
      );
      return r.body.data!['createSeek'];
    };
    expect(await issues('{ daysPerMove: 3, clockMinutes: 25 }')).toEqual({
      __typename: 'ValidationError',
      issues: [{ field: 'input.clockMinutes' }],
    });
    expect(await issues('{ pace: RECORDED, daysPerMove: 3 }')).toEqual({
      __typename: 'ValidationError',
      issues: [{ field: 'input.daysPerMove' }],
    });
    expect(await issues('{ pace: CORRESPONDENCE, clockMinutes: 25 }')).toEqual({
      __typename: 'ValidationError',
      issues: [{ field: 'input.clockMinutes' }],
    });
    expect(await issues('{ clockMinutes: 0 }')).toMatchObject({
      __typename: 'RuleViolation',
      code: 'TIME_CONTROL_INVALID',
      details: { field: 'clockMinutes' },
    });
    const rest = await api.fetch('/v1/seeks', {
      method: 'POST',
      headers: { authorization: `Bearer ${amy.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ daysPerMove: 3, clockMinutes: 25 }),
    });
    expect(rest.status).toBe(400);
    expect(await api.app.services.db.prisma.seek.count()).toBe(before);
  });
  // Last: the clock moves two days on, past the players' tokens.
  it('the sweep closes an expired seek and announces it exactly once, however often and concurrently it runs', async () => {
    const before = await newestId();
    const s = value(await createSeek(deps(), amy.id, { expiresInDays: 1 }));
    const kept = value(await createSeek(deps(), bob.id, { expiresInDays: 5 }));
    setNow(new Date(now.getTime() + 2 * DAY));
    await Promise.all([sweepLobby(deps()), sweepLobby(deps())]);
    await sweepLobby(deps());
    const got = await readSeekEvents(api.app.services.db, BigInt(before), MAX_ID);
    expect(got.map((e) => [e.kind, e.seekId, e.data['reason'] ?? null])).toEqual([
      ['seek-opened', s.seek.id, null],
      ['seek-opened', kept.seek.id, null],
      ['seek-closed', s.seek.id, 'expired'],
    ]);
    expect(value(await getSeek(deps(), s.seek.id)).state).toBe('expired');
    expect((await api.app.services.db.prisma.seek.findUnique({ where: { id: s.seek.id } }))?.status).toBe('expired');
    const late = await withdrawSeek(deps(), amy.id, s.seek.id);
    expect(late.ok ? 'ok' : late.error.code).toBe('SEEK_EXPIRED');
    value(await withdrawSeek(deps(), bob.id, kept.seek.id));
  });
});
