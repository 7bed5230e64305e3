import type { parse as pgliteParse, PGlite, protocol as pgliteProtocol } from '@electric-sql/pglite';

/**
 * Named prepared statements on PGlite, for `Db.statement` (the turn's statements, store/turn-statements.ts).
 * PGlite's own `query` sends Parse, Describe and Bind for the text on every call, so Postgres parses and
 * plans the turn's commit statement (an UPDATE with three INSERTs as CTEs) each time: in the wasm build
 * that is about three quarters of the statement's cost (2.3 → 0.57 ms measured; bench/turnpath.ts).
 * PGlite is one session for its whole life, so a statement parsed once under its name stays prepared,
 * and Postgres re-plans it by itself if a migration changes a table under it.
 *
 * This speaks the extended protocol through PGlite's `execProtocol` the way its `query` does (same
 * locks, same parameter serializers and result parsers), only with a statement name.
 */

/** What this module uses of the `@electric-sql/pglite` module, passed in: PGlite is loaded on demand (store/db.ts). */
export interface PgliteProtocol {
  readonly protocol: typeof pgliteProtocol;
  readonly parse: typeof pgliteParse;
}

/** PGlite's locks and type handlers, which its `query` uses too (not in its typings). */
interface PgliteInternals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  readonly serializers: Record<number, ((x: unknown) => string) | undefined>;
  readonly parsers: Parameters<PgliteProtocol['parse']['parseResults']>[1];
}

type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

export type PreparedStatement = <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) => Promise<R[]>;

/** A `statement` function over one PGlite instance: each name is parsed once, with the parameter types Postgres infers. */
export const pglitePrepared = (pglite: PGlite, { protocol, parse }: PgliteProtocol): PreparedStatement => {
  const db = pglite as unknown as PGlite & PgliteInternals;
  const { serialize } = protocol;
  const prepared = new Map<string, { readonly text: string; readonly types: readonly number[] }>();
  const send = async (message: Uint8Array): Promise<Message[]> => (await db.execProtocol(message, { syncToFs: false })).messages;

  // Whether the event loop has turned since the last statement began (set by an immediate it schedules).
  let loopTurned = true;
  const sawLoop = () => {
    loopTurned = true;
  };

  const run = async <R>(name: string, sql: string, params: readonly unknown[]): Promise<R[]> => {
    // At most one statement per turn of the event loop: one that would follow another in the same turn
    // waits for the next, with the lock held. PGlite runs a statement synchronously and hands its lock to
    // the next waiter in a microtask, so without this a queue of statements drains without the loop ever
    // polling: new connections are not accepted and requests not read until it empties (64 games at once:
    // the first turns waited 1–5 s while the server answered the others in 1–4 ms; bench/RESULTS.md). A
    // statement that comes alone (one game's turn) runs at once. A Postgres statement ends on socket I/O,
    // which gives the loop its turn by itself.
    if (!loopTurned) await new Promise<void>((resolve) => setImmediate(resolve));
    loopTurned = false;
    setImmediate(sawLoop);
    let statement = prepared.get(name);
    if (statement && statement.text !== sql) throw new Error(`statement "${name}" is already prepared with another text`);
    const messages: Message[] = [];
    try {
      if (!statement) {
        messages.push(...(await send(serialize.parse({ name, text: sql }))));
        const types = parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name })));
        statement = { text: sql, types };
        prepared.set(name, statement);
      }
      const { types } = statement;
      const values = params.map((v, i) => (v === null || v === undefined ? null : (db.serializers[types[i]!] ?? String)(v)));
      messages.push(...(await send(serialize.bind({ statement: name, values }))));
      messages.push(...(await send(serialize.describe({ type: 'P' }))));
      messages.push(...(await send(serialize.execute({}))));
    } finally {
      // After an error the server skips everything up to Sync; Sync also ends the implicit transaction.
      messages.push(...(await send(serialize.sync())));
    }
    await db.syncToFs();
    return (parse.parseResults(messages as never, db.parsers)[0]?.rows ?? []) as R[];
  };

  return <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) =>
    db._runExclusiveTransaction(() => db._runExclusiveQuery(() => run<R>(name, sql, params)));
};
