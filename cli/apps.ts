/**
 * `arbiter apps`: a developer's third-party OAuth apps on a server (docs/apps.md), over its /v1/apps
 * routes, as `arbiter lexicon upload` sends word lists: so that a deploy script can register an app and
 * keep its redirect URIs in step with where the app runs, with an API key holding `apps:manage`. The
 * server checks everything; this carries the request and turns each refusal into one line that says what
 * to do. The apps a player authorized are not here: those take the player's own sign-in, not a script's key.
 * Exit codes: 0 done, 2 usage, network or server refusal.
 */
import { parseArgs } from 'node:util';
import type { CliIo } from './io.js';

const USAGE = `usage:
  arbiter apps list [--json]
  arbiter apps register --name NAME --redirect-uri URI [--redirect-uri URI …] [--icon URL] [--confidential]
  arbiter apps update ID [--name NAME] [--redirect-uri URI …] [--icon URL | --no-icon]
  arbiter apps rotate-secret ID
  arbiter apps delete ID
every subcommand takes --server URL (or ARBITER_URL) and --token TOKEN (or ARBITER_TOKEN): a session token,
or an API key with the apps:manage scope. A confidential app's secret is printed once: store it then.`;

interface AppJson {
  readonly id: string;
  readonly name: string;
  readonly clientType: string;
  readonly redirectUris: readonly string[];
  readonly iconUrl: string | null;
}

const HINTS: Record<number, string> = {
  401: 'the server did not accept the token: pass --token or set ARBITER_TOKEN to a session token or an API key',
  403: 'the token may not manage apps: use an API key with the apps:manage scope, or a session token',
  404: 'you have no app with that id (arbiter apps list shows yours)',
  429: 'too many changes to apps: wait and try again later',
};

const fail = (io: CliIo, message: string): number => {
  io.err(`arbiter apps: ${message}`);
  return 2;
};

const describeApp = (app: AppJson): string =>
  [
    `client_id:     ${app.id}`,
    `name:          ${app.name}`,
    `type:          ${app.clientType.toLowerCase()}`,
    `redirect URIs: ${app.redirectUris.join(' ')}`,
    ...(app.iconUrl ? [`icon:          ${app.iconUrl}`] : []),
  ].join('\n');

/** The credentials answer: the app, and a confidential app's secret with the warning that it is shown once. */
const describeCredentials = (answer: { app: AppJson; clientSecret: string | null }): string =>
  [
    describeApp(answer.app),
    ...(answer.clientSecret ? [`client_secret: ${answer.clientSecret}`, '(the secret is shown this once: store it now)'] : []),
  ].join('\n');

type Request = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> | null } | string>;

const client =
  (server: string, token: string): Request =>
  async (method, path, body) => {
    let url: URL;
    try {
      url = new URL(`v1${path}`, server.endsWith('/') ? server : `${server}/`);
    } catch {
      return `--server ${server} is not a URL (like https://arbiter.example.org)`;
    }
    try {
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = res.status === 204 ? null : ((await res.json().catch(() => null)) as Record<string, unknown> | null);
      return { status: res.status, json };
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      return `cannot reach the server at ${url.origin}: ${cause?.code ?? cause?.message ?? (e as Error).message}`;
    }
  };

/** One line for a refusal: the server's code and message (naming the field), then what to do. */
const refusal = (status: number, json: Record<string, unknown> | null): string => {
  const code = typeof json?.['code'] === 'string' ? ` ${json['code']}` : '';
  const message = typeof json?.['message'] === 'string' ? `: ${json['message']}` : '';
  const hint = HINTS[status];
  return `the server refused (HTTP ${status}${code})${message}${hint ? `\n  ${hint}` : ''}`;
};

const OPTIONS = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  icon: { type: 'string' },
  'no-icon': { type: 'boolean' },
  confidential: { type: 'boolean' },
  json: { type: 'boolean' },
  server: { type: 'string' },
  token: { type: 'string' },
} as const;

const ALLOWED: Record<string, { readonly options: readonly string[]; readonly ids: number }> = {
  list: { options: ['json'], ids: 0 },
  register: { options: ['name', 'redirect-uri', 'icon', 'confidential'], ids: 0 },
  update: { options: ['name', 'redirect-uri', 'icon', 'no-icon'], ids: 1 },
  'rotate-secret': { options: [], ids: 1 },
  delete: { options: [], ids: 1 },
};

export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h') {
    io.out(USAGE);
    return sub ? 0 : 2;
  }
  const allowed = ALLOWED[sub];
  if (!allowed) return fail(io, `unknown subcommand "${sub}"\n${USAGE}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    return fail(io, `${(e as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const stray = Object.keys(values).find((k) => k !== 'server' && k !== 'token' && !allowed.options.includes(k));
  if (stray) return fail(io, `${sub} does not take --${stray}\n${USAGE}`);
  if (positionals.length !== allowed.ids)
    return fail(io, allowed.ids ? `${sub} takes the app's id (its client_id)` : `${sub} takes no arguments`);
  const server = values.server ?? process.env['ARBITER_URL'];
  if (!server) return fail(io, 'no server: pass --server URL or set ARBITER_URL');
  const token = values.token ?? process.env['ARBITER_TOKEN'];
  if (!token) return fail(io, 'no token: pass --token TOKEN or set ARBITER_TOKEN (an API key with the apps:manage scope)');
  const id = positionals[0] === undefined ? '' : encodeURIComponent(positionals[0]);

  const request = client(server, token);
  const send = async (method: string, path: string, body: unknown, print: (json: Record<string, unknown> | null) => string) => {
    const answer = await request(method, path, body);
    if (typeof answer === 'string') return fail(io, answer);
    if (answer.status >= 400) return fail(io, refusal(answer.status, answer.json));
    io.out(print(answer.json));
    return 0;
  };
  switch (sub) {
    case 'list':
      return send('GET', '/apps', undefined, (json) => {
        const apps = (json?.['items'] ?? []) as AppJson[];
        if (values.json) return JSON.stringify(apps, null, 2);
        return apps.length === 0 ? 'no apps' : apps.map(describeApp).join('\n\n');
      });
    case 'register': {
      if (values.name === undefined || !values['redirect-uri']?.length)
        return fail(io, 'register needs --name NAME and at least one --redirect-uri URI');
      const body = {
        name: values.name,
        redirectUris: values['redirect-uri'],
        clientType: values.confidential ? 'CONFIDENTIAL' : 'PUBLIC',
        ...(values.icon === undefined ? {} : { iconUrl: values.icon }),
      };
      return send('POST', '/apps', body, (json) => describeCredentials(json as { app: AppJson; clientSecret: string | null }));
    }
    case 'update': {
      if (values.icon !== undefined && values['no-icon']) return fail(io, 'give --icon URL or --no-icon, not both');
      const body = {
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(values['redirect-uri'] ? { redirectUris: values['redirect-uri'] } : {}),
        ...(values.icon === undefined ? {} : { iconUrl: values.icon }),
        ...(values['no-icon'] ? { iconUrl: null } : {}),
      };
      if (Object.keys(body).length === 0) return fail(io, 'update needs --name, --redirect-uri, --icon or --no-icon');
      return send('PATCH', `/apps/${id}`, body, (json) => describeApp(json as unknown as AppJson));
    }
    case 'rotate-secret':
      return send('POST', `/apps/${id}/secret`, undefined, (json) =>
        describeCredentials(json as { app: AppJson; clientSecret: string | null }),
      );
    default:
      return send('DELETE', `/apps/${id}`, undefined, () => `deleted ${positionals[0]}, with every grant and token it held`);
  }
}
