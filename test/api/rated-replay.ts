/**
 * The check both rated-game suites make after each scenario: every rated game's latest `rating-changed`
 * (a ruling's recompute supersedes the first), replayed from scratch by the pure engine
 * (engine/rating/rated-games.ts), gives exactly the `player_ratings` rows the commits wrote.
 */
import { expect } from 'vitest';
import { replayRatings, standingKey, type RatedResult } from '../../engine/rating/rated-games.js';
import type { RatingChanged } from '../../service/ratings.js';
import type { Db } from '../../store/db.js';

export const expectRatingsReplayed = async (db: Db): Promise<void> => {
  const events = await db.prisma.gameEvent.findMany({ where: { type: 'rating-changed' }, orderBy: [{ gameId: 'asc' }, { seq: 'asc' }] });
  const latest = new Map<string, RatingChanged>();
  for (const e of events) latest.set(e.gameId, e.payload as unknown as RatingChanged);
  const results: RatedResult[] = [...latest].map(([gameId, e]) => ({
    gameId,
    category: e.category,
    at: Date.parse(e.ratedAt),
    players: [e.players[0].playerId, e.players[1].playerId],
    scores: [e.players[0].score, e.players[1].score],
  }));
  const replayed = replayRatings(results);
  if (!replayed.ok) throw new Error(JSON.stringify(replayed.error));
  const { standings } = replayed.value;
  const rows = await db.prisma.playerRating.findMany({ where: { games: { gt: 0 } } });
  expect(rows.length).toBe(standings.size);
  for (const row of rows) {
    const s = standings.get(standingKey(row.playerId, row.category))!;
    expect(s, `${row.playerId} ${row.category}`).toBeDefined();
    expect(row.rating).toBeCloseTo(s.rating.rating, 9);
    expect(row.deviation).toBeCloseTo(s.rating.rd, 9);
    expect(row.volatility).toBeCloseTo(s.rating.vol, 12);
    expect(row.games).toBe(s.games);
    expect(row.lastRatedAt.getTime()).toBe(s.lastRatedAt);
  }
};
