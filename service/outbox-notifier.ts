import type { Db } from './context.js';

/**
 * The wake-ups of the players' own streams (`myEvents`, docs/live.md, issue 31), as service/live-notifier.ts
 * is for the game streams. A trigger on `outbox` (migration `outbox_notify_presence`) sends
 * `pg_notify('arbiter_outbox', '<schema>')` with each commit that writes outbox rows, folded into one per
 * transaction. Each process listens once per database and wakes every `myEvents` stream on it: a stream
 * re-reads the outbox past the last id it sent, filtered to its player, so a notification needs to carry
 * nothing, and a lost one only delays an event until the stream's slow poll.
 */

export const OUTBOX_CHANNEL = 'arbiter_outbox';

type Wake = () => void;

interface Listener {
  readonly subscribers: Set<Wake>;
  readonly ready: Promise<void>;
}

const listeners = new WeakMap<Db, Listener>();

const wakeAll = (subs: Set<Wake>): void => {
  for (const wake of [...subs]) wake();
};

const listenerOf = (db: Db): Listener => {
  const known = listeners.get(db);
  if (known) return known;
  const subscribers = new Set<Wake>();
  const onNotify = (payload: string): void => {
    // Test schemas (or tenants) sharing a database do not wake each other.
    if (payload === db.schema) wakeAll(subscribers);
  };
  const ready = db.listen
    ? db
        .listen(OUTBOX_CHANNEL, onNotify, () => wakeAll(subscribers))
        .then(
          () => undefined,
          (e: unknown) => console.warn(JSON.stringify({ msg: 'live.outbox-listen-failed', error: String(e) })),
        )
    : Promise.resolve();
  const made = { subscribers, ready };
  listeners.set(db, made);
  return made;
};

/**
 * Calls `wake` after each commit that writes outbox rows (from any process on the same database).
 * Resolves, once the process listens, with the function that ends the subscription.
 */
export const onOutbox = async (db: Db, wake: Wake): Promise<() => void> => {
  const l = listenerOf(db);
  l.subscribers.add(wake);
  await l.ready;
  return () => {
    l.subscribers.delete(wake);
  };
};
