/**
 * The lobby's announcements (issue 33, docs/lobby.md#announcements), on every store target: a challenge
 * reaches the challenged player's event stream (the query behind `myEvents` and `GET /v1/me/events`) as
 * challenge-received, its answer the other party as challenge-answered (an accepted one naming the game), an
 * accepted seek its author as seek-accepted, a pairing both players as pairing-found; a third player hears
 * none of them. The same rows become webhook deliveries and notifications for their addressee only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptChallenge, createChallenge, declineChallenge, requestRematch, withdrawChallenge } from '../../service/challenges.js';
import type { ServiceDeps } from '../../service/context.js';
import { createGame } from '../../service/game-create.js';
import { registerLexicons } from '../../service/lexicons.js';
import { resignGame } from '../../service/lifecycle.js';
import { readMyEvents, type MyEvent } from '../../service/my-events.js';
import { fanOutNotifications } from '../../service/notification-fan-out.js';
import { createPairingRequest, sweepPairing } from '../../service/pairing-requests.js';
import { acceptSeek, createSeek } from '../../service/seeks.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { insertPlayer } from '../../store/players.js';
import { openTestDb, type TestDb } from '../store/targets.js';
import { LEXICONS, START, STORE_TARGETS } from './harness.js';

type R<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
const value = <T>(r: R<T>): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const LOBBY_KINDS = ['challenge-received', 'challenge-answered', 'seek-accepted', 'pairing-found', 'robot-offered'];
const DAY = 86_400_000;

describe.each(STORE_TARGETS)('the lobby’s announcements on $kind', (target) => {
  let testDb: TestDb;
  let deps: ServiceDeps;
  let now = START;
  const id: Record<string, string> = {};
  const player = async (handle: string): Promise<string> =>
    (id[handle] = (await insertPlayer(testDb.db.prisma, { handle, displayName: handle, passwordHash: null }))!.id);
  /** Everything `who`'s stream holds, lobby kinds only, oldest first. */
  const heard = async (who: string): Promise<MyEvent[]> =>
    (await readMyEvents(testDb.db, id[who]!, 0n, 9_000_000_000_000_000_000n, 1000)).filter((e) => LOBBY_KINDS.includes(e.kind));

  beforeAll(async () => {
    testDb = await openTestDb(target);
    deps = { db: testDb.db, lexicons: LEXICONS, now: () => now };
    await registerLexicons(testDb.db.prisma, LEXICONS);
    for (const h of ['e-amy', 'e-bob', 'e-cat', 'e-dan']) await player(h);
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('a challenge is announced to the challenged; its accept, naming the game, to the challenger; nobody else hears', async () => {
    const c = value(await createChallenge(deps, id['e-amy']!, { opponent: 'e-bob' }));
    const received = (await heard('e-bob')).filter((e) => e.kind === 'challenge-received');
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toMatchObject({ challengeId: c.challenge.id, from: 'e-amy', rematchOf: null });
    expect(received[0]!.gameId).toBeNull();
    expect(await heard('e-amy')).toEqual([]);

    const game = value(await acceptChallenge(deps, id['e-bob']!, c.challenge.id));
    const answered = (await heard('e-amy')).filter((e) => e.kind === 'challenge-answered');
    expect(answered).toHaveLength(1);
    expect(answered[0]!.gameId).toBe(game.id);
    expect(answered[0]!.data).toMatchObject({ challengeId: c.challenge.id, answer: 'accepted', from: 'e-bob' });
    // Nothing secret travels: no rack, no bag, no seed.
    expect(JSON.stringify(answered[0])).not.toMatch(/rack|bag|seed/i);
    expect((await heard('e-bob')).map((e) => e.kind)).toEqual(['challenge-received']);
    // The game itself announces game-started to both, as every game does.
    const started = (await readMyEvents(testDb.db, id['e-amy']!, 0n, 9_000_000_000_000_000_000n)).filter((e) => e.kind === 'game-started');
    expect(started.map((e) => e.gameId)).toEqual([game.id]);
    expect(await heard('e-cat')).toEqual([]);
  });

  it('a declined challenge tells the challenger; a withdrawn one the challenged; a rematch is a challenge received', async () => {
    const declined = value(await createChallenge(deps, id['e-cat']!, { opponent: 'e-dan' }));
    value(await declineChallenge(deps, id['e-dan']!, declined.challenge.id));
    const withdrawn = value(await createChallenge(deps, id['e-cat']!, { opponent: 'e-dan' }));
    value(await withdrawChallenge(deps, id['e-cat']!, withdrawn.challenge.id));
    const toCat = (await heard('e-cat')).map((e) => [e.kind, e.data['challengeId'], e.data['answer'] ?? null]);
    expect(toCat).toEqual([['challenge-answered', declined.challenge.id, 'declined']]);
    const toDan = (await heard('e-dan')).map((e) => [e.kind, e.data['challengeId'], e.data['answer'] ?? null]);
    expect(toDan).toEqual([
      ['challenge-received', declined.challenge.id, null],
      ['challenge-received', withdrawn.challenge.id, null],
      ['challenge-answered', withdrawn.challenge.id, 'withdrawn'],
    ]);

    // The game of the first test, resigned, then a rematch asked by Bob: Amy receives it.
    const gameId = (await heard('e-amy'))[0]!.gameId!;
    value(await resignGame(deps, id['e-amy']!, gameId));
    const rematch = value(await requestRematch(deps, id['e-bob']!, gameId));
    const last = (await heard('e-amy')).at(-1)!;
    expect(last).toMatchObject({
      kind: 'challenge-received',
      data: { challengeId: rematch.challenge.id, rematchOf: gameId, from: 'e-bob' },
    });
    // A refused second rematch writes no announcement.
    const before = await testDb.db.prisma.outboxMessage.count();
    expect((await requestRematch(deps, id['e-amy']!, gameId)).ok).toBe(false);
    expect(await testDb.db.prisma.outboxMessage.count()).toBe(before);
  });

  it('two rematch requests at once: one challenge, one announcement, the loser rolled back whole', async () => {
    const g = value(await createGame(deps, id['e-cat']!, { opponent: 'e-dan', timeControl: { kind: 'untimed' } }));
    value(await resignGame(deps, id['e-dan']!, g.id));
    const before = await testDb.db.prisma.outboxMessage.count({ where: { kind: 'challenge-received' } });
    const both = await Promise.all([requestRematch(deps, id['e-cat']!, g.id), requestRematch(deps, id['e-dan']!, g.id)]);
    expect(both.map((r) => (r.ok ? 'ok' : r.error.code)).sort()).toEqual(['REMATCH_EXISTS', 'ok']);
    expect(await testDb.db.prisma.challenge.count({ where: { rematchOf: g.id } })).toBe(1);
    expect(await testDb.db.prisma.outboxMessage.count({ where: { kind: 'challenge-received' } })).toBe(before + 1);
  });

  it('an accepted seek is announced to its author with the game; pairing tells both players', async () => {
    const seek = value(await createSeek(deps, id['e-cat']!, { daysPerMove: 2 }));
    const game = value(await acceptSeek(deps, id['e-dan']!, seek.seek.id));
    const toCat = (await heard('e-cat')).filter((e) => e.kind === 'seek-accepted');
    expect(toCat).toHaveLength(1);
    expect(toCat[0]).toMatchObject({ gameId: game.id, data: { seekId: seek.seek.id, from: 'e-dan' } });
    expect((await heard('e-dan')).some((e) => e.kind === 'seek-accepted')).toBe(false);
    expect((await heard('e-amy')).some((e) => e.kind === 'seek-accepted')).toBe(false);

    const r1 = value(await createPairingRequest(deps, id['e-amy']!, { ruleSet: 'FRIENDLY' }));
    const r2 = value(await createPairingRequest(deps, id['e-cat']!, { ruleSet: 'FRIENDLY' }));
    expect(r2.state).toBe('paired');
    const found = async (who: string) => (await heard(who)).filter((e) => e.kind === 'pairing-found');
    const [amys, cats] = [await found('e-amy'), await found('e-cat')];
    expect(amys).toHaveLength(1);
    expect(cats).toHaveLength(1);
    expect(amys[0]).toMatchObject({ gameId: r2.request.gameId, data: { requestId: r1.request.id, from: 'e-cat' } });
    expect(cats[0]).toMatchObject({ gameId: r2.request.gameId, data: { requestId: r2.request.id, from: 'e-amy' } });
    expect(await found('e-bob')).toEqual([]);
  });

  it('a pairing request whose wait ends unpaired is announced to its player as robot-offered, once', async () => {
    const r = value(await createPairingRequest(deps, id['e-bob']!, { ruleSet: 'FRIENDLY', waitHours: 1 }));
    expect(r.state).toBe('waiting');
    await sweepPairing(deps);
    expect((await heard('e-bob')).some((e) => e.kind === 'robot-offered')).toBe(false);
    now = new Date(START.getTime() + DAY);
    try {
      await sweepPairing(deps);
      await sweepPairing(deps);
    } finally {
      now = START;
    }
    const offered = (await heard('e-bob')).filter((e) => e.kind === 'robot-offered');
    expect(offered.map((e) => e.data['requestId'])).toEqual([r.request.id]);
    for (const who of ['e-amy', 'e-cat', 'e-dan']) expect((await heard(who)).some((e) => e.kind === 'robot-offered')).toBe(false);
  });

  it('webhook deliveries and notifications of the lobby’s rows go to their addressee alone', async () => {
    const key = await testDb.db.prisma.apiKey.create({
      data: { ownerId: id['e-bob']!, name: 'bob’s bot', prefix: `arb_${id['e-bob']!.slice(0, 8)}_lobby`, keyHash: 'ab'.repeat(32) },
    });
    const all = [...LOBBY_KINDS];
    for (const who of ['e-bob', 'e-amy'] as const) {
      const apiKeyId =
        who === 'e-bob'
          ? key.id
          : (
              await testDb.db.prisma.apiKey.create({
                data: { ownerId: id[who]!, name: 'bot', prefix: `arb_${id[who]!.slice(0, 8)}_lobby`, keyHash: 'cd'.repeat(32) },
              })
            ).id;
      await testDb.db.prisma.webhookSubscription.create({
        data: { ownerId: id[who]!, apiKeyId, url: 'https://hooks.example.org/x', secret: 's'.repeat(32), kinds: all },
      });
    }
    const c = value(await createChallenge(deps, id['e-amy']!, { opponent: 'e-bob' }));
    await fanOutOutbox(testDb.db, { now: () => START, maxRows: 100_000 });
    const deliveries = await testDb.db.prisma.webhookDelivery.findMany({
      where: { kind: { in: all } },
      include: { subscription: { select: { ownerId: true } }, outbox: { select: { payload: true } } },
    });
    // Only Bob's subscription hears his challenge (Amy's hears her own earlier answers and pairing).
    const ofChallenge = deliveries.filter((d) => (d.outbox.payload as { challengeId?: string }).challengeId === c.challenge.id);
    expect(ofChallenge.map((d) => [d.kind, d.subscription.ownerId])).toEqual([['challenge-received', id['e-bob']]]);
    for (const d of deliveries) expect(d.subscription.ownerId).toBe((d.outbox.payload as { playerId: string }).playerId);
    const invalid = await testDb.db.prisma.outboxMessage.count({ where: { kind: { in: all }, lastError: { not: null } } });
    expect(invalid).toBe(0);

    await fanOutNotifications(testDb.db, { now: () => START, publicBaseUrl: 'https://arbiter.example.org', maxRows: 100_000 });
    const notices = await testDb.db.prisma.notification.findMany({ where: { kind: { in: all } } });
    const bobs = notices.filter((n) => n.outboxId === ofChallenge[0]!.outboxId);
    expect(bobs.map((n) => [n.channel, n.playerId]).sort()).toEqual([
      ['email', id['e-bob']],
      ['push', id['e-bob']],
    ]);
    expect(bobs.find((n) => n.channel === 'push')).toMatchObject({ status: 'pending', title: 'e-amy challenges you' });
    const seekNotice = notices.find((n) => n.kind === 'seek-accepted' && n.channel === 'push');
    expect(seekNotice).toMatchObject({ playerId: id['e-cat'], title: 'e-dan accepted your seek', status: 'pending' });
    expect(seekNotice!.url).toBe(`https://arbiter.example.org/play#game=${seekNotice!.gameId}`);
    // challenge-answered is e-mail only by default: its push row is written as skipped.
    const answered = notices.filter((n) => n.kind === 'challenge-answered' && n.playerId === id['e-amy']);
    expect(answered.find((n) => n.channel === 'push')?.status).toBe('skipped');
  });
});
