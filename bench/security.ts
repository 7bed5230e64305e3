/**
 * Hostile-input counts for bench/RESULTS.md (issue 15, deliverable 8): the real app on a local HTTP
 * server (PGlite in memory, the shipped lexicons, the production limits and webhook policy over a stub
 * DNS), attacked as the issue did: webhook destinations that reach inside, at creation and at delivery
 * (a name that rebinds to an internal address), and bursts of wrong-password logins for a known and an
 * unknown handle from one address. Every request must be answered (nothing lost) and none with a 5xx.
 *
 * `node --import tsx bench/run.ts security` (replaces this section of RESULTS.md, the others kept), or
 * `npx tsx bench/security.ts` to print the section.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp } from '../functions/app.js';
import { loadLexiconRegistry } from '../service/lexicons.js';
import { DEFAULT_RATE_LIMITS } from '../service/rate-limits.js';
import { drain } from '../service/webhook-drain.js';
import type { FetchLike } from '../service/webhook-delivery.js';
import { IN_MEMORY } from '../store/db.js';
import { DNS, HOSTILE_DESTINATIONS } from '../test/webhooks/destinations.js';
import { PUBLIC_ADDRESS, stubResolver } from '../test/webhooks/fixture.js';
import { printSections } from './common.js';
import type { BenchSection } from './types.js';

const LOGIN_BURST = 200;
const TIMING_PAIRS = 15;

interface Tally {
  tried: number;
  answered: number;
  serverErrors: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function run(): Promise<BenchSection> {
  const answers: Record<string, string[]> = { ...DNS, 'rebind.example.com': [PUBLIC_ADDRESS] };
  // The app's clock stands still: a lock lasts the whole burst whatever the machine's speed, so the counts are exact.
  const startedAt = new Date();
  const app = await createApp({
    now: () => startedAt,
    dbOptions: { dataDir: IN_MEMORY },
    lexicons: loadLexiconRegistry(),
    jwt: { secret: new TextEncoder().encode('bench-security-secret-of-32-characters!'), ttlSeconds: 3600, issuer: 'arbiter' },
    rateLimits: DEFAULT_RATE_LIMITS,
    // Each attacker below has an address of its own, given as a trusted proxy would.
    trustedProxies: 1,
    webhookDestinations: { allowLocal: false, resolve: stubResolver(answers) },
    graphiql: false,
    warn: () => undefined,
    logError: () => undefined,
  });
  const server: Server = createServer(app.yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const tally: Tally = { tried: 0, answered: 0, serverErrors: 0 };
  const gql = async (query: string, variables: Record<string, unknown> = {}, bearer?: string, from = '198.51.100.1') => {
    tally.tried++;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    tally.answered++;
    if (res.status >= 500) tally.serverErrors++;
    return (await res.json()) as { data?: Record<string, any>; errors?: { extensions?: { code?: string } }[] };
  };
  try {
    const reg = await gql(
      `mutation { registerPlayer(input: { handle: "hooker", displayName: "H", password: "hooker-password" }) { ... on AuthPayload { token } } }`,
    );
    const token = reg.data!['registerPlayer'].token as string;
    const key = (
      await gql(`mutation { createApiKey(input: { name: "bot", scopes: ["webhooks:manage"] }) { ... on NewApiKey { key } } }`, {}, token)
    ).data!['createApiKey'].key as string;

    // Creation: every hostile destination, with the API key (its webhookAdmin bucket holds 30 an hour: several keys).
    let refused = 0;
    let accepted = 0;
    let keyFor = key;
    let used = 0;
    for (const [destination] of HOSTILE_DESTINATIONS) {
      if (used++ % 25 === 24) {
        keyFor = (
          await gql(
            `mutation { createApiKey(input: { name: "bot", scopes: ["webhooks:manage"] }) { ... on NewApiKey { key } } }`,
            {},
            token,
          )
        ).data!['createApiKey'].key as string;
      }
      const r = await gql(
        `mutation($url: String!) { createWebhookSubscription(input: { url: $url, kinds: ["your-turn"] }) { __typename ... on Error { code } } }`,
        { url: destination },
        keyFor,
      );
      const answer = r.data?.['createWebhookSubscription'];
      if (answer?.__typename === 'NewWebhookSubscription') accepted++;
      else if (/^WEBHOOK_URL_/.test(String(answer?.code))) refused++;
    }

    // Delivery: a public name at creation that rebinds to the metadata endpoint before the sender runs.
    const created = await gql(
      `mutation { createWebhookSubscription(input: { url: "https://rebind.example.com/hook", kinds: ["your-turn"] }) { __typename } }`,
      {},
      keyFor,
    );
    await gql(`mutation { registerPlayer(input: { handle: "rival", displayName: "R", password: "rival-password" }) { __typename } }`);
    await gql(`mutation { createGame(input: { opponent: "rival" }) { __typename } }`, {}, token);
    answers['rebind.example.com'] = ['169.254.169.254'];
    let sent = 0;
    const fetch: FetchLike = async () => {
      sent++;
      return new Response('ok', { status: 200 });
    };
    const delivery = await drain(app.services.db, { now: () => startedAt, fetch, destinations: app.services.webhookDestinations });

    // Logins: a burst of wrong passwords for a known and for an unknown handle, each from an address of its own.
    const burst = async (handle: string, from: string) => {
      const out = { badCredentials: 0, limited: 0 };
      for (let i = 0; i < LOGIN_BURST; i++) {
        const r = await gql(
          `mutation($h: String!) { login(handle: $h, password: "wrong-password") { ... on Error { code } } }`,
          { h: handle },
          undefined,
          from,
        );
        const code = r.data?.['login']?.code;
        if (code === 'UNAUTHENTICATED') out.badCredentials++;
        else if (code === 'RATE_LIMITED') out.limited++;
      }
      return out;
    };
    const known = await burst('hooker', '203.0.113.10');
    const unknown = await burst('nobody-at-all', '203.0.113.11');
    // Timing: one failed login each for 15 known and 15 unknown handles, alternating (before any back-off).
    const timing = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < TIMING_PAIRS; i++) {
      await gql(
        `mutation($h: String!) { registerPlayer(input: { handle: $h, displayName: "T", password: "timing-password" }) { __typename } }`,
        {
          h: `timed-${i}`,
        },
      );
    }
    for (let i = 0; i < TIMING_PAIRS; i++) {
      for (const [kind, handle] of [
        ['known', `timed-${i}`],
        ['unknown', `untimed-${i}`],
      ] as const) {
        const t0 = performance.now();
        await gql(
          `mutation($h: String!) { login(handle: $h, password: "wrong-password") { __typename } }`,
          { h: handle },
          undefined,
          `192.0.2.${i}`,
        );
        timing[kind].push(performance.now() - t0);
      }
    }
    const loginsTried = 2 * LOGIN_BURST;
    const ok = tally.answered === tally.tried && tally.serverErrors === 0;
    return {
      title: 'Hostile input (webhook destinations, login bursts)',
      rows: [
        { metric: 'webhook destinations tried at creation', value: HOSTILE_DESTINATIONS.length, unit: 'URLs' },
        {
          metric: 'refused (WEBHOOK_URL_FORBIDDEN / _NOT_HTTPS / _INVALID)',
          value: refused,
          unit: 'URLs',
          target: `all (${HOSTILE_DESTINATIONS.length})`,
          met: refused === HOSTILE_DESTINATIONS.length,
        },
        { metric: 'accepted', value: accepted, unit: 'URLs', target: '0', met: accepted === 0 },
        {
          metric: 'rebound to 169.254.169.254 after creation: deliveries attempted / sent',
          value: delivery.attempted,
          unit: `attempts / ${sent} sent`,
          target: '0 sent',
          met:
            sent === 0 && delivery.attempted >= 1 && created.data?.['createWebhookSubscription']?.__typename === 'NewWebhookSubscription',
        },
        { metric: 'wrong-password logins tried in two bursts (a known and an unknown handle)', value: loginsTried, unit: 'logins' },
        { metric: 'answered BAD_CREDENTIALS, known handle', value: known.badCredentials, unit: 'logins' },
        {
          metric: 'answered BAD_CREDENTIALS, unknown handle',
          value: unknown.badCredentials,
          unit: 'logins',
          target: 'same as known',
          met: unknown.badCredentials === known.badCredentials,
        },
        {
          metric: 'answered RATE_LIMITED',
          value: known.limited + unknown.limited,
          unit: 'logins',
          target: `the rest (${loginsTried - known.badCredentials - unknown.badCredentials})`,
          met: known.limited + unknown.limited === loginsTried - known.badCredentials - unknown.badCredentials,
        },
        {
          metric: `failed login, median of ${TIMING_PAIRS}: known / unknown handle`,
          value: Math.round(median(timing.known) * 10) / 10,
          unit: `ms / ${Math.round(median(timing.unknown) * 10) / 10} ms`,
        },
        {
          metric: 'requests sent / answered',
          value: tally.tried,
          unit: `requests / ${tally.answered} answered`,
          target: 'all answered',
          met: tally.answered === tally.tried,
        },
        { metric: 'HTTP 5xx', value: tally.serverErrors, unit: 'responses', target: '0', met: tally.serverErrors === 0 },
      ],
      notes: [
        'The app of `npm start` (PGlite in memory) over a local socket, production limits (service/rate-limits.ts defaults) and webhook policy; DNS stubbed (test/webhooks/destinations.ts, the table of test/webhooks/destination.test.ts).',
        `Logins: ${LOGIN_BURST} in a row per handle, each burst from its own address (X-Forwarded-For behind one trusted proxy). The handle back-off (5 free failures, then 2 s doubling up to 15 min) locks the handle at the 6th failure; every later attempt of the burst is RATE_LIMITED (the app's clock stands still during the run, so no lock runs out).`,
        `Every request answered: ${ok ? 'yes' : 'no'}. A known and an unknown handle both cost one scrypt verification (an unknown one against a dummy hash, service/accounts.ts); the medians differ by the noise of a shared 2-core machine.`,
      ],
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  printSections([await run()]);
}
