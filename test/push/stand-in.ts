/**
 * A real push service for the tests: web-push-testing's server (node_modules/web-push-testing), started
 * in this process on a free port. It hands out subscriptions bound to an applicationServerKey, checks
 * each message's VAPID JWT and Crypto headers against that key, decrypts the payload (RFC 8291) and keeps
 * it, and answers 410 for a subscription it was told to expire — what Mozilla's and Google's services do.
 */
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);

interface StandInSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
  readonly clientHash: string;
}

export interface PushStandIn {
  readonly url: string;
  /** A browser subscribing with `applicationServerKey`, as PushManager.subscribe would. */
  subscribe(applicationServerKey: string): Promise<StandInSubscription>;
  /** The decrypted payloads the service accepted for a subscription, oldest first. */
  messages(clientHash: string): Promise<string[]>;
  /** The browser unsubscribed: the service answers 410 Gone from now on. */
  expire(clientHash: string): Promise<void>;
  stop(): Promise<void>;
}

const freePort = async (): Promise<number> => {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

export const startPushStandIn = async (): Promise<PushStandIn> => {
  const Server = require('web-push-testing/src/server.js') as new (
    model: unknown,
    port: number,
  ) => {
    startServer(): void;
    _server: Server;
  };
  const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => unknown };
  const port = await freePort();
  const log = console.log;
  const error = console.error;
  const server = new Server(new PushApiModel(), port);
  console.log = () => undefined; // "Server running on port …"
  try {
    server.startServer();
    await new Promise<void>((resolve) => (server._server.listening ? resolve() : server._server.once('listening', () => resolve())));
  } finally {
    console.log = log;
  }
  // It logs every refused JWT with console.error; the tests read the answers instead.
  console.error = (...args: unknown[]) => (String(args[0]).includes('JsonWebTokenError') ? undefined : error(...args));
  const url = `http://localhost:${port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`push stand-in ${path}: ${res.status} ${await res.text()}`);
    return res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { data: unknown }) : { data: null };
  };
  return {
    url,
    subscribe: async (applicationServerKey) =>
      (await post('/subscribe', { applicationServerKey, userVisibleOnly: 'true' })).data as StandInSubscription,
    messages: async (clientHash) => ((await post('/get-notifications', { clientHash })).data as { messages: string[] }).messages,
    expire: async (clientHash) => {
      await post(`/expire-subscription/${clientHash}`, {});
    },
    stop: async () => {
      console.error = error;
      server._server.closeAllConnections();
      await new Promise<void>((resolve) => server._server.close(() => resolve()));
    },
  };
};
