/**
 * The lobby (issue 33, docs/lobby.md) at the service layer, on every store target: seeks (create, list, withdraw,
 * accept, the race of 20 accepts, expiry, rating ranges), challenges and rematches, pairing requests and the
 * robot offer, and the bad inputs, each refused with its code and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDeps } from '../../service/context.js';
import { acceptChallenge, createChallenge, declineChallenge, requestRematch, withdrawChallenge } from '../../service/challenges.js';
import { createGame } from '../../service/game-create.js';
import { registerLexicons } from '../../service/lexicons.js';
import { resignGame } from '../../service/lifecycle.js';
import { acceptRobotOffer, createPairingRequest, getPairingRequest, sweepPairing } from '../../service/pairing-requests.js';
import { acceptSeek, createSeek, getSeek, listSeeks, withdrawSeek } from '../../service/seeks.js';
import { insertPlayer } from '../../store/players.js';
import { openTestDb, type TestDb } from '../store/targets.js';
import { LEXICONS, START, STORE_TARGETS } from './harness.js';

interface Player {
  readonly id: string;
  readonly handle: string;
}
type R<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> | null } };

const value = <T>(r: R<T>): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const code = <T>(r: R<T>): string => (r.ok ? 'ok' : r.error.code);
const DAY = 86_400_000;

describe.each(STORE_TARGETS)('the lobby on $kind', (target) => {
  let testDb: TestDb;
  let now = START;
  let deps: ServiceDeps;
  const players: Player[] = [];
  const player = async (handle: string): Promise<Player> => {
    const p = await insertPlayer(testDb.db.prisma, { handle, displayName: handle, passwordHash: null });
    const made = { id: p!.id, handle };
    players.push(made);
    return made;
  };
  let amy: Player;
  let bob: Player;
  let cat: Player;
  const counts = async () => ({
    games: await testDb.db.prisma.game.count(),
    seeks: await testDb.db.prisma.seek.count(),
    challenges: await testDb.db.prisma.challenge.count(),
  });

  beforeAll(async () => {
    testDb = await openTestDb(target);
    deps = { db: testDb.db, lexicons: LEXICONS, now: () => now };
    await registerLexicons(testDb.db.prisma, LEXICONS);
    [amy, bob, cat] = [await player('l-amy'), await player('l-bob'), await player('l-cat')];
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it('a seek is listed with its author and rating, accepted once into a game between both, then gone from the list', async () => {
    const seek = value(await createSeek(deps, amy.id, { daysPerMove: 2, rated: true }));
    expect(seek.state).toBe('open');
    expect(seek.seek.category).toBe('tournament/correspondence');
    expect(seek.seek.expiresAt.getTime() - now.getTime()).toBe(7 * DAY);
    await testDb.db.prisma.playerRating.create({
      data: {
        playerId: amy.id,
        category: 'tournament/correspondence',
        rating: 1612.4,
        deviation: 80,
        volatility: 0.06,
        provisional: false,
        lastRatedAt: now,
      },
    });
    const listed = value(await listSeeks(deps, {}));
    const mine = listed.edges.find((e) => e.node.seek.id === seek.seek.id)!.node;
    expect(mine.authorHandle).toBe('l-amy');
    expect(mine.authorRating).toEqual({ rating: 1612.4, deviation: 80, provisional: false });
    const game = value(await acceptSeek(deps, bob.id, seek.seek.id));
    expect(game.status).toBe('playing');
    expect(game.seats.map((s) => s.player?.handle).sort()).toEqual(['l-amy', 'l-bob']);
    expect(game.timeControl).toMatchObject({ kind: 'correspondence', turnSeconds: 2 * 86_400 });
    expect(game.mySeat).not.toBeNull();
    // Hidden information: the acceptor sees their own rack only.
    expect(game.view && 'rack' in game.view).toBe(true);
    const after = value(await getSeek(deps, seek.seek.id));
    expect(after.state).toBe('accepted');
    expect(after.seek.gameId).toBe(game.id);
    expect(value(await listSeeks(deps, {})).edges.some((e) => e.node.seek.id === seek.seek.id)).toBe(false);
    expect(code(await acceptSeek(deps, cat.id, seek.seek.id))).toBe('SEEK_TAKEN');
  });

  it('20 players accept one seek at once: exactly one game, 19 SEEK_TAKEN', async () => {
    const racers = await Promise.all(Array.from({ length: 20 }, (_, i) => player(`l-racer-${i}`)));
    const seek = value(await createSeek(deps, amy.id, {}));
    const before = await counts();
    const results = await Promise.all(racers.map((p) => acceptSeek(deps, p.id, seek.seek.id)));
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map(code)).toEqual(Array(19).fill('SEEK_TAKEN'));
    expect((await counts()).games).toBe(before.games + 1);
    const row = value(await getSeek(deps, seek.seek.id)).seek;
    expect(row.gameId).toBe(won[0]!.ok ? won[0]!.value.id : null);
  });

  it('a seek is withdrawn by its author only; a withdrawn or expired seek is not accepted; one’s own never', async () => {
    const seek = value(await createSeek(deps, amy.id, { expiresInDays: 1 }));
    expect(code(await acceptSeek(deps, amy.id, seek.seek.id))).toBe('SEEK_OWN');
    expect(code(await withdrawSeek(deps, bob.id, seek.seek.id))).toBe('NOT_SEEK_AUTHOR');
    expect(value(await withdrawSeek(deps, amy.id, seek.seek.id)).state).toBe('withdrawn');
    expect(code(await acceptSeek(deps, bob.id, seek.seek.id))).toBe('SEEK_WITHDRAWN');
    const soon = value(await createSeek(deps, amy.id, { expiresInDays: 1 }));
    now = new Date(START.getTime() + DAY + 1);
    try {
      expect(value(await getSeek(deps, soon.seek.id)).state).toBe('expired');
      expect(value(await listSeeks(deps, {})).edges.some((e) => e.node.seek.id === soon.seek.id)).toBe(false);
      const before = await counts();
      expect(code(await acceptSeek(deps, bob.id, soon.seek.id))).toBe('SEEK_EXPIRED');
      expect(await counts()).toEqual(before);
    } finally {
      now = START;
    }
    expect(code(await acceptSeek(deps, bob.id, '00000000-0000-4000-8000-000000000000'))).toBe('SEEK_NOT_FOUND');
  });

  it('a rating range admits only the ratings inside it; a newcomer counts as 1500', async () => {
    const high = value(await createSeek(deps, amy.id, { ratingMin: 1600 }));
    const r = await acceptSeek(deps, cat.id, high.seek.id);
    expect(code(r)).toBe('RATING_OUT_OF_RANGE');
    expect(!r.ok && r.error.details).toMatchObject({ rating: 1500, min: 1600, max: null });
    const around = value(await createSeek(deps, amy.id, { ratingMin: 1400, ratingMax: 1600 }));
    expect(value(await acceptSeek(deps, cat.id, around.seek.id)).status).toBe('playing');
  });

  it('bad seeks are refused with a code naming the field, and nothing is written', async () => {
    const before = await counts();
    const cases: [Parameters<typeof createSeek>[2], string, string][] = [
      [{ ruleSet: 'NOPE' }, 'UNKNOWN_PRESET', 'ruleSet'],
      [{ lexicon: 'NOPE' }, 'LEXICON_NOT_FOUND', 'lexicon'],
      [{ daysPerMove: 0 }, 'BAD_INPUT', 'daysPerMove'],
      [{ daysPerMove: 15 }, 'BAD_INPUT', 'daysPerMove'],
      [{ expiresInDays: 31 }, 'BAD_INPUT', 'expiresInDays'],
      [{ ratingMin: 1800, ratingMax: 1700 }, 'BAD_INPUT', 'ratingMin'],
      [{ ratingMax: -5 }, 'BAD_INPUT', 'ratingMax'],
      [{ ratingMin: 4001 }, 'BAD_INPUT', 'ratingMin'],
    ];
    for (const [input, want, field] of cases) {
      const r = await createSeek(deps, amy.id, input);
      expect([code(r), !r.ok && r.error.details?.['field']]).toEqual([want, field]);
    }
    expect(await counts()).toEqual(before);
  });

  it('a challenge is accepted into a game seated as it says, or declined, or withdrawn; only by the right player', async () => {
    const c = value(await createChallenge(deps, amy.id, { opponent: 'l-bob', seat: 1, timeControl: { kind: 'untimed' } }));
    expect(c.state).toBe('open');
    expect(code(await acceptChallenge(deps, amy.id, c.challenge.id))).toBe('NOT_YOUR_CHALLENGE');
    expect(code(await acceptChallenge(deps, cat.id, c.challenge.id))).toBe('CHALLENGE_NOT_FOUND');
    const game = value(await acceptChallenge(deps, bob.id, c.challenge.id));
    expect(game.seats.map((s) => s.player?.handle)).toEqual(['l-bob', 'l-amy']);
    expect(code(await declineChallenge(deps, bob.id, c.challenge.id))).toBe('CHALLENGE_CLOSED');

    const d = value(await createChallenge(deps, amy.id, { opponent: 'l-bob' }));
    expect(code(await declineChallenge(deps, amy.id, d.challenge.id))).toBe('NOT_YOUR_CHALLENGE');
    expect(value(await declineChallenge(deps, bob.id, d.challenge.id)).state).toBe('declined');
    const w = value(await createChallenge(deps, amy.id, { opponent: 'l-cat' }));
    expect(value(await withdrawChallenge(deps, amy.id, w.challenge.id)).state).toBe('withdrawn');
    const before = await counts();
    expect(code(await acceptChallenge(deps, cat.id, w.challenge.id))).toBe('CHALLENGE_CLOSED');
    const e = value(await createChallenge(deps, amy.id, { opponent: 'l-cat', expiresInDays: 1 }));
    now = new Date(START.getTime() + 2 * DAY);
    try {
      expect(code(await acceptChallenge(deps, cat.id, e.challenge.id))).toBe('CHALLENGE_CLOSED');
    } finally {
      now = START;
    }
    expect((await counts()).games).toBe(before.games);
  });

  it('challenges to oneself, to a robot (rated or not), to a deleted or unknown player are refused', async () => {
    const before = await counts();
    expect(code(await createChallenge(deps, amy.id, { opponent: 'l-amy' }))).toBe('CHALLENGE_SELF');
    expect(code(await createChallenge(deps, amy.id, { opponent: 'robot:equity', rated: true }))).toBe('RATED_ROBOT');
    expect(code(await createChallenge(deps, amy.id, { opponent: 'robot:greedy' }))).toBe('ROBOT_OPPONENT');
    expect(code(await createChallenge(deps, amy.id, { opponent: 'nobody-here' }))).toBe('PLAYER_NOT_FOUND');
    const gone = await player('l-gone');
    await testDb.db.prisma.player.update({ where: { id: gone.id }, data: { deletedAt: now } });
    expect(code(await createChallenge(deps, amy.id, { opponent: 'l-gone' }))).toBe('PLAYER_NOT_FOUND');
    expect(code(await createSeek(deps, gone.id, {}))).toBe('PLAYER_NOT_FOUND');
    expect(await counts()).toEqual(before);
  });

  it('a rematch swaps the seats so the player who moved second moves first; one open rematch per ended game', async () => {
    const first = value(await createGame(deps, amy.id, { opponent: 'l-bob', timeControl: { kind: 'untimed' } }));
    // amy in seat 0 moved first.
    expect(code(await requestRematch(deps, amy.id, first.id))).toBe('GAME_NOT_ENDED');
    value(await resignGame(deps, bob.id, first.id));
    expect(code(await requestRematch(deps, cat.id, first.id))).toBe('NOT_SEATED');
    const rematch = value(await requestRematch(deps, amy.id, first.id));
    expect(rematch.challenge.rematchOf).toBe(first.id);
    expect(rematch.challenged.handle).toBe('l-bob');
    expect(code(await requestRematch(deps, bob.id, first.id))).toBe('REMATCH_EXISTS');
    const game = value(await acceptChallenge(deps, bob.id, rematch.challenge.id));
    expect(game.seats.map((s) => s.player?.handle)).toEqual(['l-bob', 'l-amy']);
    // seat 0 still moves first: now bob, who moved second before.
    expect(game.view?.turn ?? null).toBe(0);
    expect(game.timeControl).toEqual({ kind: 'untimed' });
    // Answered, the game may be asked for again.
    expect(code(await requestRematch(deps, bob.id, first.id))).toBe('ok');
  });

  it('pairing requests pair the nearest compatible ratings; unmatched, a casual robot game is offered', async () => {
    const [p1, p2, p3] = [await player('l-p1'), await player('l-p2'), await player('l-p3')];
    const category = 'friendly/correspondence';
    const rate = (p: Player, rating: number) =>
      testDb.db.prisma.playerRating.create({
        data: { playerId: p.id, category, rating, deviation: 60, volatility: 0.06, provisional: false, lastRatedAt: now },
      });
    await rate(p1, 1500);
    await rate(p2, 1900);
    await rate(p3, 1580);
    const r1 = value(await createPairingRequest(deps, p1.id, { ruleSet: 'FRIENDLY', ratingRange: 200 }));
    expect(r1.state).toBe('waiting');
    // 400 apart: no pair.
    const r2 = value(await createPairingRequest(deps, p2.id, { ruleSet: 'FRIENDLY', ratingRange: 500 }));
    expect(r2.state).toBe('waiting');
    expect(code(await createPairingRequest(deps, p2.id, { ruleSet: 'FRIENDLY' }))).toBe('PAIRING_EXISTS');
    const r3 = value(await createPairingRequest(deps, p3.id, { ruleSet: 'FRIENDLY', ratingRange: 500 }));
    expect(r3.state).toBe('paired');
    expect(value(await getPairingRequest(deps, p1.id, r1.request.id)).request.gameId).toBe(r3.request.gameId);
    expect(code(await acceptRobotOffer(deps, p2.id, r2.request.id))).toBe('NO_ROBOT_OFFER');
    now = new Date(START.getTime() + DAY + 1);
    try {
      await sweepPairing(deps);
      expect((await testDb.db.prisma.pairingRequest.findUnique({ where: { id: r2.request.id } }))?.status).toBe('robot-offered');
      const game = value(await acceptRobotOffer(deps, p2.id, r2.request.id));
      expect(game.seats.map((s) => s.player?.handle)).toContain('robot:equity');
      expect(await testDb.db.prisma.game.findUnique({ where: { id: game.id }, select: { rated: true } })).toEqual({ rated: false });
      expect(code(await acceptRobotOffer(deps, p2.id, r2.request.id))).toBe('PAIRING_CLOSED');
    } finally {
      now = START;
    }
  });
});
