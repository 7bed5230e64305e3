/**
 * Server-Sent Events read from a `fetch` body, for web/live.ts: the parsing of the HTML standard's
 * EventSource without the connection handling, which live.ts does itself so that it can send headers.
 */

/** One SSE block with data: its `id` (what to resume after), `event` (the kind) and `data` (JSON). */
export interface SseMessage {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

/**
 * Splits a stream of SSE text into messages, as the HTML standard's EventSource parsing does: `field: value`
 * lines, comments (`:` — the opening line and the heartbeats) skipped, a blank line ending a message.
 * `onBytes` hears every chunk, comments included, so a caller can tell a live connection from a stalled one.
 */
export const readSse = async (
  body: ReadableStream<Uint8Array>,
  onMessage: (m: SseMessage) => void,
  onBytes: () => void = () => undefined,
): Promise<void> => {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  const line = (text: string): void => {
    if (text === '') {
      if (data.length) onMessage({ id, event: event || 'message', data: data.join('\n') });
      [id, event, data] = [null, '', []];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onBytes();
    pending += decoder.decode(value, { stream: true });
    // A \r that ends the chunk may be the first half of a \r\n: it waits for the next chunk.
    const lines = pending.split(/\r\n|\n|\r(?!$)/);
    // The last piece is a line not ended yet.
    pending = lines.pop()!;
    for (const l of lines) line(l);
  }
};
