/**
 * The environment of the event streams on AWS (functions/stream-entry.ts, infra/constructs/streams.ts), apart
 * from the entry so that the API and the stack can name it without loading the streaming handler.
 */

/** The function URL that serves the streams: the API's 501 STREAMS_UNAVAILABLE points there. */
export const STREAM_URL_ENV = 'ARBITER_STREAM_URL';

/** How often a stream on Lambda re-reads its game when no notification wakes it (ms). */
export const STREAM_POLL_ENV = 'ARBITER_STREAM_POLL_MS';
