/** Shared set-up for the webhook suites: players with API keys, seated games, turns that write outbox rows. */
import { createHash } from 'node:crypto';
import { ok } from '../../engine/result.js';
import type { Db } from '../../store/db.js';
import { createGame, runTurn } from '../../store/games.js';
import { registerLexicon } from '../../store/lexicons.js';
import type { DestinationPolicy, Resolver } from '../../service/webhook-destination.js';
import { webhookOutboxItem, type WebhookOutboxPayload } from '../../service/webhook-events.js';

export const LEXICON = { name: 'TEST', contentHash: 'sha256:0000', wordCount: 3 };
export const T0 = new Date('2030-01-01T00:00:00.000Z');

/** A clock the test moves by hand. */
export const testClock = (start: Date = T0) => {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (d: Date) => {
      t = d.getTime();
    },
    advance: (ms: number) => {
      t += ms;
    },
  };
};

export interface Player {
  readonly id: string;
  readonly apiKeyId: string;
}

let counter = 0;
export const addPlayer = async (db: Db, name: string): Promise<Player> => {
  counter += 1;
  const player = await db.prisma.player.create({ data: { handle: `${name}-${process.pid}-${counter}`, displayName: name } });
  const key = await db.prisma.apiKey.create({
    data: { ownerId: player.id, name: `${name}'s bot`, prefix: `arb_${player.id.slice(0, 8)}_${counter}`, keyHash: 'ab'.repeat(32) },
  });
  return { id: player.id, apiKeyId: key.id };
};

export const setUp = async (db: Db): Promise<void> => {
  await db.transaction((tx) => registerLexicon(tx, LEXICON));
};

/** A game at version 1 with `seats`, seat 0 to move. */
export const startGame = async (db: Db, seats: readonly (string | null)[]): Promise<string> => {
  const game = await db.transaction((tx) =>
    createGame(
      tx,
      {
        ruleSetId: 'NSA_2008',
        lexicon: LEXICON,
        status: 'active',
        turnSeat: 0,
        bagSeedCommitment: 'commit',
        bagSeed: 'seed',
        seats,
      },
      [{ type: 'GameCreated', payload: {} }],
    ),
  );
  return game.id;
};

type Extra = Omit<WebhookOutboxPayload, 'kind' | 'gameId' | 'version'>;

/** One turn through `runTurn` (a fake event) announcing `kind` in the outbox; answers the new version. */
export const playTurn = async (db: Db, gameId: string, kind: WebhookOutboxPayload['kind'], extra: Extra = {}): Promise<number> => {
  const game = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const version = game.version + 1;
  const result = await runTurn(db, gameId, game.version, null, () =>
    ok({
      events: [{ type: 'FakeTurn', payload: { n: version } }],
      response: null,
      outbox: [webhookOutboxItem({ kind, gameId, version, ...extra })],
    }),
  );
  if (!result.ok) throw new Error(`turn failed: ${JSON.stringify(result.error)}`);
  return version;
};

/** The default back-off, worked out from its documented formula (not by calling it). */
export const expectedBackoff = (failedAttempts: number, deliveryId: string): number => {
  const base = [30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000][Math.min(failedAttempts, 7) - 1]!;
  const hex = createHash('sha256').update(`${deliveryId}:${failedAttempts}`).digest('hex').slice(0, 8);
  return base + (parseInt(hex, 16) % (base / 10));
};

/** A public address (example.com's) that the stub DNS answers, so the strict policy lets the name through. */
export const PUBLIC_ADDRESS = '93.184.215.14';

/**
 * DNS for tests: `answers` by name; localhost resolves to 127.0.0.1 and ::1, example.com and its
 * subdomains to {@link PUBLIC_ADDRESS}; anything else does not resolve.
 */
export const stubResolver =
  (answers: Readonly<Record<string, readonly string[]>> = {}): Resolver =>
  async (host) => {
    const answer =
      answers[host] ??
      (host === 'localhost'
        ? ['127.0.0.1', '::1']
        : host === 'example.com' || host.endsWith('.example.com')
          ? [PUBLIC_ADDRESS]
          : undefined);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };

/** The production policy (public addresses only, https only) over the stub DNS. */
export const TEST_DESTINATIONS: DestinationPolicy = { allowLocal: false, resolve: stubResolver() };

/** The development setting (ARBITER_WEBHOOK_ALLOW_LOCAL), for receivers on 127.0.0.1; stub DNS as above. */
export const LOCAL_DESTINATIONS: DestinationPolicy = { allowLocal: true, resolve: stubResolver() };
