import type { Db } from './context.js';

/**
 * The wake-ups of the live streams (docs/live.md, issue 31). A trigger on `game_events`
 * (migration `game_event_notify`) sends `pg_notify('arbiter_game_events', '<schema>:<game id>')` with each
 * commit that appends to a game's log; Postgres sends it at commit and folds the notifications of one
 * transaction into one, so the turn path pays one NOTIFY and nothing per subscriber. Each process
 * listens once per database (`Db.listen`: its own connection on Postgres, which also hears the other
 * workers of `ARBITER_WORKERS` and any other writer; PGlite's in-process `listen`), and calls the
 * subscribers of that game here. A notification carries no version: a subscriber re-reads the log past
 * what it has sent, so a lost or repeated one loses or repeats no event (streams also poll on a slow timer).
 */

export const GAME_EVENTS_CHANNEL = 'arbiter_game_events';

type Wake = () => void;

interface Notifier {
  readonly subscribers: Map<string, Set<Wake>>;
  /** Resolves once the process listens (or at once when the database cannot listen). */
  readonly ready: Promise<void>;
}

const notifiers = new WeakMap<Db, Notifier>();

const wakeAll = (subs: Iterable<Wake>): void => {
  for (const wake of subs) wake();
};

const notifierOf = (db: Db): Notifier => {
  const known = notifiers.get(db);
  if (known) return known;
  const subscribers = new Map<string, Set<Wake>>();
  const onNotify = (payload: string): void => {
    const at = payload.lastIndexOf(':');
    if (payload.slice(0, at) !== db.schema) return;
    const subs = subscribers.get(payload.slice(at + 1).toLowerCase());
    if (subs) wakeAll([...subs]);
  };
  // Notifications missed while the connection was down: everybody re-reads.
  const onReconnect = (): void => wakeAll([...subscribers.values()].flatMap((s) => [...s]));
  const ready = db.listen
    ? db.listen(GAME_EVENTS_CHANNEL, onNotify, onReconnect).then(
        () => undefined,
        (e: unknown) => console.warn(JSON.stringify({ msg: 'live.listen-failed', error: String(e) })),
      )
    : Promise.resolve();
  const made = { subscribers, ready };
  notifiers.set(db, made);
  return made;
};

/**
 * Calls `wake` after each commit that appends to game `gameId`'s log (from any process on the same
 * database). Resolves, once the process listens, with the function that ends the subscription.
 */
export const onGameEvents = async (db: Db, gameId: string, wake: Wake): Promise<() => void> => {
  const n = notifierOf(db);
  const id = gameId.toLowerCase();
  let subs = n.subscribers.get(id);
  if (!subs) n.subscribers.set(id, (subs = new Set()));
  subs.add(wake);
  await n.ready;
  return () => {
    subs.delete(wake);
    if (subs.size === 0 && n.subscribers.get(id) === subs) n.subscribers.delete(id);
  };
};
