/** Shared set-up for the notifier suites: players, seated games, turns that write outbox rows, a recording channel. */
import { afterEach } from 'vitest';
import type { Db } from '../../store/db.js';
import { createGame } from '../../store/games.js';
import type { ChannelOutcome, Notice, NotificationChannel } from '../../service/notification-channels.js';
import { openTestDb, type StoreTarget } from '../store/targets.js';
import { LEXICON, setUp } from '../webhooks/fixture.js';

export { addPlayer, playTurn, startGame, testClock } from '../webhooks/fixture.js';

export const BASE = 'https://arbiter.example.org';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

export const freshDb = async (target: StoreTarget): Promise<Db> => {
  const t = await openTestDb(target);
  cleanups.push(t.drop);
  await setUp(t.db);
  return t.db;
};

/** Makes `seat` the one to move (the fixture's fake turns leave turn_seat alone), so a your-turn is not stale. */
export const toMove = async (db: Db, gameId: string, seat: number, deadlineAt: Date | null = null): Promise<void> => {
  await db.prisma.game.update({ where: { id: gameId }, data: { turnSeat: seat, status: 'playing', deadlineAt } });
};

/** A correspondence game at version 1 (its `game-created` names the turn time), seat 0 to move. */
export const correspondenceGame = async (db: Db, seats: readonly string[], turnSeconds: number): Promise<string> => {
  const game = await db.transaction((tx) =>
    createGame(
      tx,
      { ruleSetId: 'NSA_2008', lexicon: LEXICON, status: 'playing', turnSeat: 0, bagSeedCommitment: 'c', bagSeed: 's', seats },
      [{ type: 'game-created', payload: { timeControl: { kind: 'correspondence', turnSeconds, bankSeconds: 0 } } }],
    ),
  );
  return game.id;
};

export interface Recording {
  readonly channel: NotificationChannel;
  /** Every send: the player and the notices in it. */
  readonly sends: { playerId: string; notices: readonly Notice[] }[];
  /** Players it cannot reach. */
  readonly unreachable: Set<string>;
}

/** A channel that records what it is given and answers `script[n]` to the n-th send (default ok). */
export const recordingChannel = (name: 'push' | 'email', script: readonly ChannelOutcome[] = []): Recording => {
  const sends: Recording['sends'] = [];
  const unreachable = new Set<string>();
  return {
    sends,
    unreachable,
    channel: {
      name,
      reachable: (_db, playerId) => Promise.resolve(!unreachable.has(playerId)),
      send: (_db, playerId, notices) => {
        sends.push({ playerId, notices });
        return Promise.resolve(script[sends.length - 1] ?? { ok: true });
      },
    },
  };
};
