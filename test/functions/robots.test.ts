/**
 * The robot Lambda's handler (functions/robots.ts) on PGlite: an SQS batch plays the games it names
 * (a failed one reported alone as a batch item failure, a message naming no game dropped), and a
 * scheduled event sweeps for games where a robot is to move; the API's SQS hook sends one message a game.
 */
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqsRobotTurns } from '../../functions/robot-queue.js';
import { createRobotHandler } from '../../functions/robots.js';
import { createGame } from '../../service/game-create.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];

describe('the robot Lambda', () => {
  let api: TestApi;
  let annId: string;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!);
    annId = (await api.register('ann')).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  /** A game where the robot is to move and nothing has woken it (created through the service without the hook). */
  const robotToMove = async (): Promise<string> => {
    const made = await createGame({ db: api.app.services.db, lexicons: LEXICONS, now: () => new Date() }, annId, {
      opponent: 'robot:greedy',
      firstSeat: 1,
    });
    if (!made.ok) throw new Error(made.error.message);
    return made.value.id;
  };
  const events = (gameId: string) => api.app.services.db.prisma.gameEvent.count({ where: { gameId } });
  const lines: string[] = [];
  const handler = () => createRobotHandler({ getDb: async () => api.app.services.db, lexicons: () => LEXICONS, log: (l) => lines.push(l) });

  it('plays the games of an SQS batch; a malformed message and an unknown game are dropped, not retried', async () => {
    const id = await robotToMove();
    const before = await events(id);
    const r = await handler()({
      Records: [
        record('m1', JSON.stringify({ gameId: id })),
        record('m2', 'not json'),
        record('m3', JSON.stringify({ gameId: '00000000-0000-0000-0000-000000000000' })),
      ],
    });
    expect(r).toEqual({ batchItemFailures: [], played: 1 });
    // The play and the robot's draw.
    expect(await events(id)).toBe(before + 2);
    // A second delivery of the same message (SQS is at least once) finds nothing to do.
    expect(await handler()({ Records: [record('m1', JSON.stringify({ gameId: id }))] })).toEqual({ batchItemFailures: [], played: 0 });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ msg: 'robots.run', games: 1, played: 0, failed: 0 });
  });

  it('a scheduled event (no Records) sweeps every game where a robot is to move', async () => {
    const ids = [await robotToMove(), await robotToMove()];
    const r = await handler()({});
    expect(r.played).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(await events(id)).toBeGreaterThan(3);
  });

  it('the API hook sends one message naming the game to the queue', async () => {
    const sent: unknown[] = [];
    const hook = sqsRobotTurns('https://sqs.example/queue', { send: async (c: unknown) => void sent.push(c) } as never);
    await hook('g-1');
    expect(sent).toHaveLength(1);
    expect((sent[0] as { input: unknown }).input).toEqual({ QueueUrl: 'https://sqs.example/queue', MessageBody: '{"gameId":"g-1"}' });
  });
});
