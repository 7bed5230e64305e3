import type { messages as pgliteMessages, parse as pgliteParse, PGlite, protocol as pgliteProtocol } from '@electric-sql/pglite';

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
  readonly parsers: Record<number, ((x: string, typeId: number) => unknown) | undefined>;
}

type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/** A statement parsed under its name: its text, its parameters' types and its result's columns (RowDescription). */
interface Prepared {
  readonly text: string;
  readonly types: readonly number[];
  readonly columns: Columns | null;
}

type Columns = InstanceType<typeof pgliteMessages.RowDescriptionMessage>;
type DataRow = InstanceType<typeof pgliteMessages.DataRowMessage>;

export type PreparedStatement = <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) => Promise<R[]>;

/** A `statement` function over one PGlite instance: each name is parsed once, with the parameter types Postgres infers. */
export const pglitePrepared = (pglite: PGlite, { protocol, parse }: PgliteProtocol): PreparedStatement => {
  const db = pglite as unknown as PGlite & PgliteInternals;
  const { serialize } = protocol;
  const prepared = new Map<string, Prepared>();
  const send = async (message: Uint8Array): Promise<Message[]> => (await db.execProtocol(message, { syncToFs: false })).messages;

  /** Parse and Describe, once per name: the parameter types Postgres infers and the result's columns. */
  const prepare = async (name: string, sql: string): Promise<Prepared> => {
    try {
      await send(serialize.parse({ name, text: sql }));
      const described = await send(serialize.describe({ type: 'S', name }));
      const statement = {
        text: sql,
        types: parse.parseDescribeStatementResults(described),
        // NoData (a statement without RETURNING) has no description: nothing to parse.
        columns: (described.find((m) => m.name === 'rowDescription') as Columns | undefined) ?? null,
      };
      prepared.set(name, statement);
      return statement;
    } finally {
      // After an error the server skips everything up to Sync; Sync also ends the implicit transaction.
      await send(serialize.sync());
    }
  };

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
    statement ??= await prepare(name, sql);
    const { types, columns } = statement;
    const values = params.map((v, i) => (v === null || v === undefined ? null : (db.serializers[types[i]!] ?? String)(v)));
    // Bind, Execute and Sync in one call, with no Describe: the columns are the statement's, described
    // once (Postgres refuses to run a prepared statement whose result columns a schema change would alter).
    // After an error in Bind or Execute the server skips to the Sync, which ends the implicit transaction.
    const messages = await send(Buffer.concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]));
    await db.syncToFs();
    return columns ? rowsOf<R>(columns, messages) : [];
  };

  /**
   * The DataRows as objects keyed by column, each value through PGlite's parser for its type, as its
   * `parseResults` does, which also copies the whole parser table (~300 types) into a new object on every
   * call: in a profile of 64 games, 0.24 ms of CPU a turn, where this loop does not show (bench/RESULTS.md).
   */
  const rowsOf = <R>(columns: Columns, messages: readonly Message[]): R[] => {
    const parsers = columns.fields.map((f) => db.parsers[f.dataTypeID]);
    const rows: R[] = [];
    for (const m of messages) {
      if (m.name !== 'dataRow') continue;
      const row: Record<string, unknown> = {};
      (m as DataRow).fields.forEach((value, i) => {
        const parser = parsers[i];
        row[columns.fields[i]!.name] = value === null || !parser ? value : parser(value, columns.fields[i]!.dataTypeID);
      });
      rows.push(row as R);
    }
    return rows;
  };

  return <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) =>
    db._runExclusiveTransaction(() => db._runExclusiveQuery(() => run<R>(name, sql, params)));
};
