import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sweepLobby } from '../service/lobby-sweep.js';
import type { ServiceDeps } from '../service/context.js';
import { loadLexiconRegistry, type LexiconRegistry } from '../service/lexicons.js';
import { playRobotTurns, robotGamesToMove } from '../service/robot-turns.js';
import type { Db } from '../store/db.js';
import { containerDb } from './container-db.js';
import type { RobotMessage } from './robot-env.js';

/**
 * The robot Lambda (issue 19). Two triggers: the robot queue (SQS), fed after a commit that handed a
 * robot the move (`sqsRobotTurns`, the API's `robotTurns` hook), and a schedule that sweeps for games
 * where a robot is to move — the game row, written in the turn's own transaction, is the durable
 * record, so a message lost between the commit and the queue costs a minute, not the game. A turn that
 * fails is reported back to SQS as a batch item failure: retried, then moved to the dead-letter queue.
 */

export interface RobotHandlerDeps {
  readonly getDb: () => Promise<Db>;
  readonly lexicons: () => LexiconRegistry;
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

/** Codes after which a retry cannot do better: the message is dropped rather than retried into the DLQ. */
const FINAL_CODES = new Set(['GAME_NOT_FOUND', 'GAME_OVER', 'NOT_YOUR_TURN']);

const gameIdOf = (body: string): string | null => {
  try {
    const m = JSON.parse(body) as Partial<RobotMessage>;
    return typeof m.gameId === 'string' ? m.gameId : null;
  } catch {
    return null;
  }
};

export const createRobotHandler =
  (deps: RobotHandlerDeps) =>
  async (event: Partial<SQSEvent>): Promise<SQSBatchResponse & { readonly played: number }> => {
    const started = Date.now();
    const services: ServiceDeps = { db: await deps.getDb(), lexicons: deps.lexicons(), now: deps.now ?? (() => new Date()) };
    const log = deps.log ?? console.log;
    const failures: { itemIdentifier: string }[] = [];
    // A schedule's event has no Records: sweep (the lobby's seeks and pairing requests too). An SQS batch names its games.
    if (!event.Records)
      await sweepLobby(services).catch((e: unknown) => log(JSON.stringify({ msg: 'lobby.sweep-failed', error: String(e) })));
    const work = event.Records
      ? event.Records.map((r) => ({ id: r.messageId, gameId: gameIdOf(r.body) }))
      : (await robotGamesToMove(services)).map((gameId) => ({ id: null, gameId }));
    let played = 0;
    for (const item of work) {
      if (item.gameId === null) continue; // a malformed message: nothing to retry
      const r = await playRobotTurns(services, item.gameId);
      if (r.ok) played += r.value.actions.length;
      else if (!FINAL_CODES.has(r.error.code)) {
        log(JSON.stringify({ msg: 'robots.turn-failed', gameId: item.gameId, code: r.error.code, message: r.error.message }));
        if (item.id) failures.push({ itemIdentifier: item.id });
      }
    }
    log(JSON.stringify({ msg: 'robots.run', games: work.length, played, failed: failures.length, ms: Date.now() - started }));
    return { batchItemFailures: failures, played };
  };

let lexicons: LexiconRegistry | undefined;

/** The Lambda entry point: the database and the lexicons are opened once per container. */
export const handler = createRobotHandler({
  getDb: () => containerDb(),
  lexicons: () => (lexicons ??= loadLexiconRegistry()),
});
