import type { Db, Tx } from '../store/db.js';
import type { LexiconRegistry } from './lexicons.js';

/**
 * The dependencies of the use cases, as the layers above name them. graph/ and functions/ take the
 * database handle (`Db`: the Prisma client and its transactions) and the client type the use cases
 * accept (`Tx`) from here, never from store/: the service decides what of the store shows upward.
 */
export type { Db, Tx };

/** What the use cases need, made once per process (the GraphQL context carries the same things). */
export interface ServiceDeps {
  readonly db: Db;
  readonly lexicons: LexiconRegistry;
  /** The clock: timestamps in events, deadlines. */
  readonly now: () => Date;
  /**
   * Wakes whatever plays robot seats (service/robots.ts) after a commit that may have handed a robot
   * the move: the in-process worker locally, an SQS message on AWS. Absent: only the sweep plays them.
   */
  readonly robotTurns?: (gameId: string) => void | Promise<void>;
}
