/**
 * The players part of `npm run rest-examples` (scripts/rest-examples.ts): a player's page, a rating history,
 * a leaderboard and the privacy setting. The finished game `gameId` (alice against bob) is given the
 * rating rows the rated-games code writes when a rated game ends, so the answers show ratings.
 */
import type { Db } from '../store/db.js';
import type { Call } from './rest-examples-tournaments.js';

const CATEGORY = 'tournament/correspondence';

export const recordPlayerExamples = async (call: Call, token: string, db: Db, gameId: string, at: Date): Promise<void> => {
  const [alice, bob] = await Promise.all(['alice', 'bob'].map((handle) => db.prisma.player.findUniqueOrThrow({ where: { handle } })));
  await db.prisma.game.update({ where: { id: gameId }, data: { rated: true, ratingCategory: CATEGORY } });
  const rows = [
    { player: alice!, opponent: bob!, score: 1, after: 1662.31, rd: 290.32 },
    { player: bob!, opponent: alice!, score: 0, after: 1337.69, rd: 290.32 },
  ];
  for (const r of rows) {
    await db.prisma.ratingChange.create({
      data: {
        playerId: r.player.id,
        category: CATEGORY,
        gameId,
        gameSeq: 1,
        opponentId: r.opponent.id,
        score: r.score,
        ratingBefore: 1500,
        deviationBefore: 350,
        volatilityBefore: 0.06,
        ratingAfter: r.after,
        deviationAfter: r.rd,
        volatilityAfter: 0.06,
        ratedAt: at,
      },
    });
    await db.prisma.playerRating.create({
      data: {
        playerId: r.player.id,
        category: CATEGORY,
        rating: r.after,
        deviation: r.rd,
        volatility: 0.06,
        games: 1,
        provisional: true,
        lastRatedAt: at,
      },
    });
  }
  const category = encodeURIComponent(CATEGORY);
  await call('getPlayerProfile', 'GET', '/players/alice');
  await call('getRatingHistory', 'GET', `/players/alice/ratings/${category}/history`);
  await call('getLeaderboard', 'GET', `/leaderboards/${category}?provisional=true&first=10`);
  await call('setProfileHidden', 'PATCH', '/me/profile', token, { hidden: true });
  await call('setProfileHidden', 'PATCH', '/me/profile', token, { hidden: false });
};
