import { describe, expect, test } from 'vitest';
import { readSse, type SseMessage } from './sse.js';

/** A body that delivers `chunks` one read at a time, as a network would cut them. */
const body = (chunks: string[]): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
};

const read = async (chunks: string[]): Promise<{ messages: SseMessage[]; chunks: number }> => {
  const messages: SseMessage[] = [];
  let seen = 0;
  await readSse(
    body(chunks),
    (m) => messages.push(m),
    () => seen++,
  );
  return { messages, chunks: seen };
};

describe('the play page reads Server-Sent Events from fetch', () => {
  test('the stream of rest/events.ts: the opening comment, events, a heartbeat, the close event', async () => {
    const { messages, chunks } = await read([
      ': game g from version 3\nretry: 3000\n\n',
      'id: 4\nevent: play\ndata: {"version":4}\n\n',
      ': heartbeat\n\n',
      'event: close\ndata: {"kind":"close"}\n\n',
    ]);
    expect(messages).toEqual([
      { id: '4', event: 'play', data: '{"version":4}' },
      { id: null, event: 'close', data: '{"kind":"close"}' },
    ]);
    // A heartbeat brings no message but is heard: the watchdog of a stalled connection counts on it.
    expect(chunks).toBe(4);
  });

  test('a message cut anywhere, even between \\r and \\n, is read once and whole', async () => {
    const text = 'id: 5\r\nevent: pass\r\ndata: {"a":1}\r\n\r\nid: 6\ndata: x\ndata: y\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const { messages } = await read([text.slice(0, cut), text.slice(cut)]);
      expect(messages, `cut at ${cut}`).toEqual([
        { id: '5', event: 'pass', data: '{"a":1}' },
        { id: '6', event: 'message', data: 'x\ny' },
      ]);
    }
  });

  test('a message without its blank line, when the stream ends, is not delivered', async () => {
    expect((await read(['id: 7\ndata: half'])).messages).toEqual([]);
  });
});
