/**
 * `arbiter lexicon upload`: send a word list file to a server's POST /v1/lexicons as text/plain and print
 * what the server made of it (issue 21). The server normalises, spells and hashes; this only carries
 * the bytes and turns each way of failing into one line that says what to do.
 * Exit codes: 0 stored (new or the same edition again), 2 usage, input, network or server refusal.
 */
import { readFileSync } from 'node:fs';
import type { CliIo } from './io.js';

export interface UploadOptions {
  readonly name?: string;
  readonly tileSet?: string;
  readonly server?: string;
  readonly token?: string;
}

/** The fields of the LexiconUpload answer this prints. */
interface UploadAnswer {
  created: boolean;
  tileSet: string;
  unspellableCount: number;
  unspellable: string[];
  lexicon: { name: string; hash: string; wordCount: number };
}

/** The code and message of a refusal: problem+json (REST), or the GraphQL error body the body cap answers with. */
const refusal = (body: unknown): { code: string; message: string } | undefined => {
  const b = body as { code?: unknown; message?: unknown; errors?: { message?: unknown; extensions?: { code?: unknown } }[] } | null;
  if (typeof b?.code === 'string') return { code: b.code, message: String(b.message ?? '') };
  const first = b?.errors?.[0];
  if (first) return { code: String(first.extensions?.code ?? 'ERROR'), message: String(first.message ?? '') };
  return undefined;
};

/** What to do about a refusal, by status: the server's own message first, then the hint. */
const HINTS: Record<number, string> = {
  401: 'the server did not accept the token: pass --token or set ARBITER_TOKEN to a valid session token or API key',
  403: 'the token may not upload word lists: use an API key with the lexicons:manage scope, or a player session',
  413: 'the file is larger than the server takes in one request',
  429: 'too many uploads: wait and try again later',
};

const print = (answer: UploadAnswer, io: CliIo): void => {
  const { lexicon } = answer;
  io.out(
    [
      `name:        ${lexicon.name}`,
      `hash:        ${lexicon.hash}`,
      `words:       ${lexicon.wordCount}`,
      `tile set:    ${answer.tileSet}`,
      `stored:      ${answer.created ? 'new edition' : 'already stored (same list)'}`,
      `unspellable: ${answer.unspellableCount}${answer.unspellable.length > 0 ? ` (${answer.unspellable.join(' ')}${answer.unspellableCount > answer.unspellable.length ? ' …' : ''})` : ''}`,
    ].join('\n'),
  );
};

export async function upload(positionals: string[], options: UploadOptions, io: CliIo, fail: (message: string) => number): Promise<number> {
  if (positionals.length !== 1) return fail('upload takes one word list file');
  if (options.name === undefined || options.tileSet === undefined) return fail('upload needs --name NAME and --tile-set TILESET');
  const server = options.server ?? process.env['ARBITER_URL'];
  if (!server) return fail('no server: pass --server URL or set ARBITER_URL');
  const token = options.token ?? process.env['ARBITER_TOKEN'];
  if (!token) return fail('no token: pass --token TOKEN or set ARBITER_TOKEN (an API key with the lexicons:manage scope)');
  let body: Blob;
  try {
    body = new Blob([readFileSync(positionals[0]!)]);
  } catch (e) {
    return fail(`cannot read ${positionals[0]}: ${(e as Error).message}`);
  }
  let url: URL;
  try {
    url = new URL('v1/lexicons', server.endsWith('/') ? server : `${server}/`);
  } catch {
    return fail(`--server ${server} is not a URL (like https://arbiter.example.org)`);
  }
  url.searchParams.set('name', options.name);
  url.searchParams.set('tileSet', options.tileSet);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain; charset=utf-8' },
      body,
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return fail(`cannot reach the server at ${url.origin}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const parsed: unknown = await res.json().catch(() => null);
  if (res.ok && parsed !== null && typeof parsed === 'object' && 'lexicon' in parsed) {
    print(parsed as UploadAnswer, io);
    return 0;
  }
  const why = refusal(parsed);
  const hint = HINTS[res.status];
  return fail(
    `the server refused the upload (HTTP ${res.status}${why ? ` ${why.code}` : ''})${why?.message ? `: ${why.message}` : ''}${hint ? `\n  ${hint}` : ''}`,
  );
}
