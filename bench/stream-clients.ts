/**
 * The subscribers of bench/streams.ts, in a process of their own so that their sockets and parsing neither
 * count in the server's memory nor share its event loop: `count` real HTTP connections to
 * GET /v1/games/{id}/events (Server-Sent Events), each noting when each event id reaches it, on a clock
 * the parent shares (`performance.timeOrigin + performance.now()`, ms since the epoch). Driven over IPC:
 * `open` → `opened`; `wait` for a version → `arrived` with each connection's time for it; `close`. A second
 * instance with no subscribers sends the turns (`turn` → `turned`): timed outside the server's process, as a
 * player's client would time them, where the fan-out of the turn before does not hold up reading the answer.
 */
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';

export type ClientsRequest =
  | { kind: 'open'; url: string; token: string; count: number }
  | { kind: 'wait'; version: number; timeoutMs: number }
  | { kind: 'turn'; url: string; token: string; body: string }
  | { kind: 'close' };
export type ClientsReply =
  | { kind: 'opened'; open: number; failed: number }
  | { kind: 'arrived'; version: number; times: number[]; missing: number }
  | { kind: 'turned'; ms: number; body: unknown };

const now = (): number => performance.timeOrigin + performance.now();

interface Conn {
  readonly seen: Map<number, number>;
  req: ClientRequest | null;
  res: IncomingMessage | null;
  opened: boolean;
}

const conns: Conn[] = [];
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

const openOne = (url: string, token: string): Promise<boolean> =>
  new Promise((resolve) => {
    const conn: Conn = { seen: new Map(), req: null, res: null, opened: false };
    conns.push(conn);
    let text = '';
    conn.req = request(url, { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      conn.res = res;
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(false);
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = now();
        text += chunk;
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const block of blocks) {
          if (!conn.opened && block.startsWith(': game ')) {
            conn.opened = true;
            resolve(true);
          }
          const id = /^id: (\d+)$/m.exec(block);
          if (id) conn.seen.set(Number(id[1]), at);
        }
      });
      res.on('error', () => resolve(false));
    });
    conn.req.on('error', () => resolve(false));
    conn.req.end();
  });

/** Opens `count` streams, 50 at a time (a burst of a thousand connects would meet the listen backlog). */
const openAll = async (url: string, token: string, count: number): Promise<ClientsReply> => {
  let open = 0;
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => openOne(url, token)));
    open += batch.filter(Boolean).length;
  }
  return { kind: 'opened', open, failed: count - open };
};

const waitFor = async (version: number, timeoutMs: number): Promise<ClientsReply> => {
  const end = Date.now() + timeoutMs;
  const pending = (): number => conns.filter((c) => c.opened && !c.seen.has(version)).length;
  while (pending() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
  const times = conns.flatMap((c) => (c.seen.has(version) ? [c.seen.get(version)!] : []));
  return { kind: 'arrived', version, times, missing: pending() };
};

/** One GraphQL request (a turn) from here, where no subscriber's data waits to be read: its latency and answer. */
const turn = async (url: string, token: string, body: string): Promise<ClientsReply> => {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
  const answer: unknown = await res.json();
  return { kind: 'turned', ms: performance.now() - t0, body: answer };
};

process.on('message', (m: ClientsRequest) => {
  const reply = (r: ClientsReply): void => void process.send!(r);
  if (m.kind === 'open') void openAll(m.url, m.token, m.count).then(reply);
  else if (m.kind === 'wait') void waitFor(m.version, m.timeoutMs).then(reply);
  else if (m.kind === 'turn') void turn(m.url, m.token, m.body).then(reply);
  else {
    for (const c of conns) c.req?.destroy();
    process.exit(0);
  }
});
