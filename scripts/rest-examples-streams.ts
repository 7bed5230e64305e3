/**
 * The event streams' examples for rest/examples.json (scripts/rest-examples.ts): a real stream read over
 * the app for a few events, kept as the Server-Sent Events text it sent and as those events parsed (the
 * NDJSON example is the first). rest/events-openapi.ts puts them in the document.
 */

interface App {
  readonly yoga: { fetch(url: string, init: RequestInit): Response | Promise<Response> };
}

export interface StreamExample {
  readonly status: number;
  /** The SSE text as sent: the opening comment and `events` messages. */
  readonly response: string;
  readonly items: unknown[];
}

/** Reads `path` (under /v1) as SSE until `events` messages came or `ms` passed; undefined when none came. */
export const recordStream = async (
  app: App,
  path: string,
  token: string,
  events: number,
  ms = 3000,
): Promise<StreamExample | undefined> => {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  const res = await app.yoga.fetch(`http://localhost/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while ((text.match(/^data: /gm)?.length ?? 0) < events || !text.endsWith('\n\n')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The time is up: what came is the example.
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  const messages = text.split('\n\n').filter((m) => /^data: /m.test(m));
  if (!messages.length) return undefined;
  const kept = messages.slice(0, events);
  const opening = text.slice(0, text.indexOf(kept[0]!));
  return {
    status: 200,
    response: `${opening}${kept.join('\n\n')}\n\n`,
    items: kept.map((m) => JSON.parse(/^data: (.*)$/m.exec(m)![1]!) as unknown),
  };
};
