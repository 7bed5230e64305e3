import { ApiFailure, gql } from './api.js';
import { h } from './dom.js';

/**
 * The "Notify me" toggle of the play page (issue 31, docs/notifications.md#web-push): registers the
 * service worker (/push-sw.js, scope /play), subscribes this browser at its push service with the
 * server's VAPID key and hands the subscription to the server (subscribePush), or takes it back
 * (unsubscribePush). One button with aria-pressed, and a polite status line; nothing shows in a browser
 * without service workers or the Push API, and the button is disabled where notifications are blocked.
 */

const WORKER = '/push-sw.js';
const SCOPE = '/play';

type Found<T> = { readonly __typename: string; readonly code?: string; readonly message?: string } & Partial<T>;

const unwrap = <T>(value: Found<T>, success: string): T => {
  if (value.__typename !== success) throw new ApiFailure({ code: value.code ?? 'ERROR', message: value.message ?? 'The server refused.' });
  return value as T;
};

const supported = (): boolean => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const serverKey = async (): Promise<string> => {
  const data = await gql<{ k: Found<{ applicationServerKey: string }> }>(
    '{ k: pushPublicKey { __typename ... on PushPublicKey { applicationServerKey } ... on Error { code message } } }',
  );
  return unwrap(data.k, 'PushPublicKey').applicationServerKey;
};

const serverEndpoints = async (): Promise<string[]> => {
  const data = await gql<{ s: Found<{ subscriptions: { endpoint: string }[] }> }>(
    '{ s: pushSubscriptions { __typename ... on PushSubscriptionList { subscriptions { endpoint } } ... on Error { code message } } }',
  );
  return unwrap(data.s, 'PushSubscriptionList').subscriptions.map((s) => s.endpoint);
};

const base64url = (buffer: ArrayBuffer | null): string =>
  buffer
    ? btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    : '';

const toBytes = (key: string): Uint8Array<ArrayBuffer> => {
  const text = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};

const registration = (): Promise<ServiceWorkerRegistration> => navigator.serviceWorker.register(WORKER, { scope: SCOPE });

/** This browser's subscription, if it is one the server knows under the current key; a stale one (replaced keys) is dropped. */
const current = async (reg: ServiceWorkerRegistration, key: string): Promise<PushSubscription | null> => {
  const sub = await reg.pushManager.getSubscription();
  if (!sub) return null;
  if (base64url(sub.options.applicationServerKey) !== key) {
    await sub.unsubscribe();
    return null;
  }
  return (await serverEndpoints()).includes(sub.endpoint) ? sub : null;
};

const subscribe = async (reg: ServiceWorkerRegistration, key: string): Promise<void> => {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new ApiFailure({ code: 'DENIED', message: 'Notifications are blocked for this page in your browser.' });
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: toBytes(key) }));
  const json = sub.toJSON();
  const data = await gql<{ r: Found<{ id: string }> }>(
    `mutation($input: SubscribePushInput!) { r: subscribePush(input: $input) { __typename ... on PushSubscription { id } ... on Error { code message } } }`,
    { input: { endpoint: json.endpoint, keys: json.keys, userAgent: navigator.userAgent } },
  );
  unwrap(data.r, 'PushSubscription');
};

const unsubscribe = async (reg: ServiceWorkerRegistration): Promise<void> => {
  const sub = await reg.pushManager.getSubscription();
  if (!sub) return;
  await gql(`mutation($e: String!) { r: unsubscribePush(endpoint: $e) { __typename } }`, { e: sub.endpoint });
  await sub.unsubscribe();
};

let bar: HTMLElement | null = null;
let listening = false;
let unavailable = false;

/** Sets the button's state and label; `busy` while a request is on its way. */
const show = (button: HTMLButtonElement, on: boolean, busy = false): void => {
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? 'Notifications on' : 'Notify me';
  button.disabled = busy || Notification.permission === 'denied';
};

const mount = async (): Promise<void> => {
  const status = h('span', { id: 'push-status', role: 'status', class: 'push-status' });
  const button = h('button', { type: 'button', id: 'notify', 'aria-pressed': 'false', 'aria-describedby': 'push-status' }, 'Notify me');
  bar = h('p', { class: 'push', id: 'push' }, button, ' ', status);
  document.body.append(bar);
  const reg = await registration();
  const key = await serverKey();
  let on = (await current(reg, key)) !== null;
  show(button, on);
  if (Notification.permission === 'denied') status.textContent = 'Notifications are blocked for this page in your browser.';
  button.addEventListener('click', async () => {
    show(button, on, true);
    try {
      await (on ? unsubscribe(reg) : subscribe(reg, key));
      on = !on;
      status.textContent = on ? 'You will be told when it is your move and when a game ends.' : 'No more notifications in this browser.';
    } catch (e) {
      // A browser's own refusal (no push service reachable, a blocked permission) names itself in its message.
      status.textContent =
        e instanceof ApiFailure ? e.message : `This browser could not subscribe to notifications (${(e as Error).message}).`;
    }
    show(button, on);
  });
};

/**
 * The play page's hook (web/main.ts): the toggle while signed in, none when signed out. A click on a
 * notification may ask this tab to open a game (web/push-sw.ts).
 */
export const updatePushToggle = (signedIn: boolean): void => {
  if (!supported() || unavailable) return;
  if (!signedIn) {
    bar?.remove();
    bar = null;
    return;
  }
  if (bar) return;
  if (!listening) {
    listening = true;
    navigator.serviceWorker.addEventListener('message', (e: MessageEvent<{ type?: string; url?: string }>) => {
      if (e.data?.type === 'arbiter.open' && e.data.url && new URL(e.data.url).origin === location.origin) location.href = e.data.url;
    });
  }
  mount().catch(() => {
    // A server without push keys (PUSH_UNAVAILABLE) or a browser that refuses the worker: no toggle, and no asking again.
    unavailable = true;
    bar?.remove();
    bar = null;
  });
};
