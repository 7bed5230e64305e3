/**
 * The play page's service worker (issue 31, docs/notifications.md#web-push), served at /push-sw.js and
 * registered for the scope /play by web/push.ts. It shows each push as a notification and, on a click,
 * brings the game up: a play-page tab already on that game is focused, another play-page tab is focused
 * and sent there, otherwise a new window opens. Kept free of the page's code (it runs without a DOM);
 * the payload is service/push-channel.ts's `PushPayload`.
 */

/** The parts of the worker's global scope used here (the WebWorker lib cannot sit beside the page's DOM lib). */
interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: ExtendableEventLike) => void): void;
}
interface ExtendableEventLike {
  waitUntil(work: Promise<unknown>): void;
  readonly data?: { json(): unknown; text(): string } | null;
  readonly notification?: Notification;
}

interface Payload {
  readonly title: string;
  readonly body: string;
  readonly url: string;
  readonly kind: string;
  readonly gameId: string | null;
  readonly tag: string;
}

const worker = self as unknown as WorkerScope;
const PLAY = '/play';

/** Where a click may lead: a page of this server's play page only, whatever a payload says. */
export const clickTarget = (url: unknown, origin: string): string => {
  try {
    const target = new URL(String(url), origin);
    if (target.origin === origin && target.pathname.startsWith(PLAY)) return target.toString();
  } catch {
    // falls through to the play page
  }
  return new URL(PLAY, origin).toString();
};

const read = (event: ExtendableEventLike): Payload => {
  try {
    const p = event.data?.json() as Partial<Payload> | undefined;
    if (p && typeof p.title === 'string') {
      return {
        title: p.title,
        body: String(p.body ?? ''),
        url: String(p.url ?? PLAY),
        kind: String(p.kind ?? ''),
        gameId: p.gameId ?? null,
        tag: String(p.tag ?? ''),
      };
    }
  } catch {
    // not JSON: shown as plain text below
  }
  return { title: 'Arbiter', body: event.data?.text() ?? '', url: PLAY, kind: '', gameId: null, tag: '' };
};

worker.addEventListener('install', () => void worker.skipWaiting());
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (event) => {
  const p = read(event);
  const url = clickTarget(p.url, worker.location.origin);
  // userVisibleOnly: every push must show a notification, or the browser may revoke the subscription.
  event.waitUntil(
    worker.registration.showNotification(p.title, {
      body: p.body,
      tag: p.tag || undefined,
      icon: '/favicon.svg',
      data: { url, kind: p.kind, gameId: p.gameId },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  const notification = event.notification!;
  notification.close();
  const url = clickTarget((notification.data as { url?: unknown } | null)?.url, worker.location.origin);
  event.waitUntil(
    (async () => {
      const tabs = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = tabs.find((t) => t.url === url);
      if (same) return same.focus();
      const play = tabs.find((t) => new URL(t.url).pathname.startsWith(PLAY));
      if (play) {
        play.postMessage({ type: 'arbiter.open', url });
        return play.focus();
      }
      return worker.clients.openWindow(url);
    })(),
  );
});
