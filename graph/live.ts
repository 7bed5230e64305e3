import type { Plugin } from 'graphql-yoga';
import { joinTiles } from '../engine/tiles.js';
import { DEFAULT_SETTLE_MS, openMyEvents, parseEventId, type MyEvent } from '../service/my-events.js';
import { enterGame, keepPresence, PRESENCE_HEARTBEAT_MS } from '../service/presence.js';
import { openSeekEvents, seekStreamCaller, type SeekEvent } from '../service/seek-events.js';
import {
  DEFAULT_POLL_MS,
  DEFAULT_STREAMS_PER_CALLER,
  openGameStream,
  takeStreamSlot,
  type StreamEvent,
  type StreamGameUpdate,
} from '../service/streams.js';
import { builder } from './builder.js';
import { requirePlayer, requireScope, type Context, type LiveSettings } from './context.js';
import { GameStateEnum } from './enums.js';
import { ArbiterError, RateLimitedError, toGraphError, ValidationError } from './error-classes.js';
import { GameMoveType, GameOutcomeType } from './game-parts.js';

/**
 * The gameEvents and myEvents subscriptions (docs/live.md, issue 31): the live streams of
 * `GET /v1/games/{id}/events` and `GET /v1/me/events` over GraphQL, served by Yoga as Server-Sent Events
 * (the graphql-sse protocol's distinct connections: `Accept: text/event-stream` on /graphql). The same
 * service streams (service/streams.ts, service/my-events.ts) feed both, so each event is exactly as
 * there, the resume points are the same ids, and the open streams of one caller count against the same
 * limit.
 */

/** How long a caller at the limit is asked to wait before opening another stream (seconds), as rest/events.ts. */
const RETRY_AFTER_SECONDS = 5;

const GameUpdateType = builder.objectRef<StreamGameUpdate>('GameEventUpdate').implement({
  description:
    'What one event changed in your view of the game, read from the same view the game query answers with: your rack only when you are seated, never the other rack or the bag.',
  fields: (t) => ({
    state: t.field({ type: GameStateEnum, description: 'Where the game stands after the event.', resolve: (u) => u.status }),
    turn: t.exposeInt('turn', { description: 'The seat to move: 0 or 1.' }),
    scores: t.intList({ description: 'Both scores by seat (index 0 = seat 0).', resolve: (u) => [...u.scores] }),
    rackSizes: t.intList({ description: 'How many tiles each seat holds, by seat.', resolve: (u) => [...u.rackSizes] }),
    bagCount: t.exposeInt('bagCount', { description: 'Tiles left in the bag.' }),
    rack: t.string({
      nullable: true,
      description: 'Your tiles after the event (`?` a blank, [CH] a digraph), as Game.myRack; null for a spectator.',
      resolve: (u) => (u.rack ? joinTiles(u.rack) : null),
    }),
    historyFrom: t.exposeInt('historyFrom', {
      description: 'The first score-sheet line (0-based) that this event added or changed: replace your sheet from there with turns.',
    }),
    turns: t.field({
      type: [GameMoveType],
      description: 'The score-sheet lines from historyFrom on, as Game.history shows them to you.',
      resolve: (u) => [...u.turns],
    }),
    result: t.field({
      type: GameOutcomeType,
      nullable: true,
      description: 'How the game ended (the bag seed revealed); null while it goes on.',
      resolve: (u) => u.result,
    }),
  }),
});

const GameEventType = builder.objectRef<StreamEvent>('GameEvent').implement({
  description: 'One event of a game’s log as you may see it: an item of the gameEvents subscription (the REST stream’s event).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The game’s version after this event: pass it as after to resume from here.' }),
    kind: t.exposeString('kind', {
      description: 'The event’s kind as the log names it: game-created, tiles-drawn, play, exchange, pass, game-ended … (docs/live.md).',
    }),
    at: t.field({ type: 'DateTime', description: 'When the event was committed.', resolve: (e) => new Date(e.at) }),
    seat: t.int({
      nullable: true,
      description: 'Your seat when the event was read; null when you are a spectator.',
      resolve: (e) => e.seat,
    }),
    game: t.field({
      type: GameUpdateType,
      nullable: true,
      description: 'What the event changed in your view of the game; null for game-proposed (no board yet).',
      resolve: (e) => e.game,
    }),
  }),
});

builder.subscriptionType({
  description: 'Live streams, served as Server-Sent Events (Accept: text/event-stream on /graphql; docs/live.md).',
});

/** The stream as the subscription's source: ending it (the client left, the request ended) closes the stream and frees the slot. */
const sourceOf = <E>(stream: AsyncIterable<E> & { close(): void }, free: () => void): AsyncIterableIterator<E> => {
  const events = stream[Symbol.asyncIterator]();
  const end = (): void => {
    // close() first: it wakes a stream waiting for the next event, which return() alone would wait behind.
    stream.close();
    free();
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: async () => {
      try {
        const r = await events.next();
        if (r.done) end();
        return r;
      } catch (e) {
        end();
        throw e;
      }
    },
    return: (): Promise<IteratorResult<E>> => {
      end();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw: (e: unknown): Promise<IteratorResult<E>> => {
      end();
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    },
  };
};

const DEFAULT_LIVE: LiveSettings = { enabled: true, streamsPerCaller: DEFAULT_STREAMS_PER_CALLER, pollMs: DEFAULT_POLL_MS };

/** The GraphQL path of the stream function (functions/stream-entry.ts), which serves the subscriptions the buffered API cannot. */
const SUBSCRIPTION_PATH = '/graphql';

/**
 * The refusal where streams are not served. Where the deployment streams at another address (the stream
 * function's URL, functions/app.ts reads it into the live settings), the error names it, as the REST 501 does;
 * `useStreamsUnavailableStatus` turns that into the Link header.
 */
const streamsUnavailable = (live: LiveSettings): ArbiterError => {
  const base = live.streamUrl;
  if (!base)
    return new ArbiterError('STREAMS_UNAVAILABLE', 'This deployment does not serve event streams yet: poll the API, or use webhooks.');
  const streamUrl = `${base}${SUBSCRIPTION_PATH}`;
  const error = new ArbiterError(
    'STREAMS_UNAVAILABLE',
    `This address does not serve subscriptions: send the same request to ${streamUrl} (same credential).`,
    { streamUrl },
  );
  // Outside a union only the extensions reach the client: the URL goes there, under details as in the REST problem.
  (error.extensions as Record<string, unknown>)['details'] = { streamUrl };
  return error;
};

/** Streams served here, a caller with games:read, one of their stream slots (theirs to free if the stream does not open). */
const admit = (ctx: Context) => {
  const live = liveHere(ctx);
  const me = requireScope(ctx, 'games:read');
  return { live, playerId: me.player.id, free: slotOf(live, me.player.id) };
};

/** The live settings, where streams are served here; STREAMS_UNAVAILABLE otherwise. */
const liveHere = (ctx: Context): LiveSettings => {
  const live = ctx.live ?? DEFAULT_LIVE;
  if (!live.enabled) throw streamsUnavailable(live);
  return live;
};

/** One of the caller's stream slots, or RATE_LIMITED. */
const slotOf = (live: LiveSettings, callerKey: string): (() => void) => {
  const free = takeStreamSlot(callerKey, live.streamsPerCaller);
  if (!free)
    throw new RateLimitedError(
      `You have ${live.streamsPerCaller} event streams open, the most one caller may hold: close one, or retry later.`,
      { limit: live.streamsPerCaller, retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  return free;
};

const openFor = async (ctx: Context, gameId: string, after: number): Promise<AsyncIterable<StreamEvent>> => {
  const { live, playerId, free } = admit(ctx);
  let opened;
  let leave: (() => void) | null = null;
  try {
    opened = await openGameStream(ctx, playerId, gameId, { after, pollMs: live.pollMs });
    // A seated player's open subscription is their presence at the game (service/presence.ts), refreshed at each heartbeat.
    if (opened.ok)
      leave = keepPresence(await enterGame(ctx.db, playerId, gameId, ctx.now()), live.heartbeatMs ?? PRESENCE_HEARTBEAT_MS, ctx.now);
  } catch (e) {
    if (opened?.ok) opened.value.close();
    free();
    throw e;
  }
  if (!opened.ok) {
    free();
    if (opened.error.code === 'BAD_INPUT') throw new ValidationError([{ field: 'after', message: opened.error.message }]);
    throw toGraphError(opened.error);
  }
  return sourceOf(opened.value, () => {
    leave?.();
    free();
  });
};

/** The seek stream: anyone may read it (the seek list is public); a credential that was presented must be good. */
const openSeeks = async (ctx: Context, afterText: string | null): Promise<AsyncIterable<SeekEvent>> => {
  const after = afterText === null ? null : parseEventId(afterText, 'after');
  if (after && !after.ok) throw new ValidationError([{ field: 'after', message: after.error.message }]);
  const live = liveHere(ctx);
  if (ctx.principal.kind !== 'player' && ctx.principal.problem) requirePlayer(ctx);
  const playerId = ctx.principal.kind === 'player' ? ctx.principal.player.id : null;
  const free = slotOf(live, seekStreamCaller(playerId, ctx.clientAddress));
  try {
    const stream = await openSeekEvents(ctx, {
      after: after ? after.value : null,
      pollMs: live.pollMs,
      settleMs: live.outboxSettleMs ?? DEFAULT_SETTLE_MS,
    });
    return sourceOf(stream, free);
  } catch (e) {
    free();
    throw e;
  }
};

const openMine = async (ctx: Context, afterText: string | null): Promise<AsyncIterable<MyEvent>> => {
  const after = afterText === null ? null : parseEventId(afterText, 'after');
  if (after && !after.ok) throw new ValidationError([{ field: 'after', message: after.error.message }]);
  const { live, playerId, free } = admit(ctx);
  try {
    const stream = await openMyEvents(ctx, playerId, {
      after: after ? after.value : null,
      pollMs: live.pollMs,
      settleMs: live.outboxSettleMs ?? DEFAULT_SETTLE_MS,
    });
    return sourceOf(stream, free);
  } catch (e) {
    free();
    throw e;
  }
};

builder.subscriptionField('gameEvents', (t) =>
  t.field({
    type: GameEventType,
    description:
      'A game’s events as they are committed, each as you may see it (a seated player their seat’s view, anyone else a spectator’s): every event after version `after`, once and in order, then each new one. Needs a signed-in player (an API key with games:read). A game you may not see is GAME_NOT_FOUND; an after beyond the log is VALIDATION; past the open streams a caller may hold, RATE_LIMITED; where streams are not served (AWS Lambda), STREAMS_UNAVAILABLE.',
    args: {
      gameId: t.arg.id({ description: 'The game to follow.' }),
      after: t.arg.int({
        required: false,
        description: 'Start after this version (the last one you were sent) to resume; omitted or 0: the whole log from the start.',
      }),
    },
    subscribe: (_root, args, ctx) => openFor(ctx, String(args.gameId), args.after ?? 0),
    resolve: (event) => event,
  }),
);

const MyEventType = builder.objectRef<MyEvent>('MyEvent').implement({
  description:
    'Something that concerns you: an item of the myEvents subscription (the event of GET /v1/me/events). Carries what the webhook of the same kind carries, never a rack or the bag.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The event’s id (ascending, never reused): pass it as after to resume from here.' }),
    kind: t.exposeString('kind', {
      description:
        'The event’s kind: your-turn, game-started, game-ended, challenge-resolved, dispute-filed, dispute-ruled, deadline-near, a tournament’s round-paired, result-recorded, slip-submitted, standings-changed, or the lobby’s challenge-received, challenge-answered, seek-accepted, pairing-found, robot-offered (docs/live.md).',
    }),
    at: t.field({ type: 'DateTime', description: 'When the event was committed.', resolve: (e) => new Date(e.at) }),
    gameId: t.id({ nullable: true, description: 'The game concerned; null for a tournament’s event.', resolve: (e) => e.gameId }),
    tournamentId: t.id({
      nullable: true,
      description: 'The tournament concerned; null for a game’s event.',
      resolve: (e) => e.tournamentId,
    }),
    version: t.int({
      nullable: true,
      description: 'The game’s (or tournament’s) version after the event: read it from there.',
      resolve: (e) => e.version,
    }),
    data: t.field({
      type: 'JSON',
      description:
        'The rest of the event, as the webhook of the same kind carries it: seat, deadlineAt, scores, words … (docs/webhooks.md).',
      resolve: (e) => e.data,
    }),
  }),
});

builder.subscriptionField('myEvents', (t) =>
  t.field({
    type: MyEventType,
    description:
      'Your own events as they are committed: your move, your games started or ended, challenges decided, disputes filed or ruled, deadlines near, your tournaments’ events. Every event after `after`, once and in order, then each new one; an after beyond the newest sends nothing until newer events come. Needs a signed-in player (an API key with games:read). A malformed after is VALIDATION; past the open streams a caller may hold, RATE_LIMITED; where streams are not served (AWS Lambda), STREAMS_UNAVAILABLE.',
    args: {
      after: t.arg.id({
        required: false,
        description: 'Start after this event id (the last one you were sent) to resume; omitted: only events from now on.',
      }),
    },
    subscribe: (_root, args, ctx) => openMine(ctx, args.after === null || args.after === undefined ? null : String(args.after)),
    resolve: (event) => event,
  }),
);

/**
 * Where streams are not served (the buffered API Lambda), a subscription is answered as the REST route
 * answers: HTTP 501, its one error (STREAMS_UNAVAILABLE) as a GraphQL JSON reply, instead of an SSE stream
 * of that error — the graphql-sse client, once its retries are spent, rejects with a NetworkError whose
 * `response` is this one, the Link header naming where the stream function serves the same request.
 */
export const useStreamsUnavailableStatus = (): Plugin => ({
  onResultProcess: ({ result, setResultProcessor }) => {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    const unavailable = result.errors?.find((e) => e.extensions?.['code'] === 'STREAMS_UNAVAILABLE');
    if (!unavailable) return;
    const details = unavailable.extensions?.['details'] as { streamUrl?: unknown } | undefined;
    const streamUrl = typeof details?.streamUrl === 'string' ? details.streamUrl : null;
    const headers: Record<string, string> = {
      'cache-control': 'no-store',
      ...(streamUrl ? { link: `<${streamUrl}>; rel="alternate"` } : {}),
    };
    setResultProcessor(() => Response.json({ errors: result.errors }, { status: 501, headers }), 'application/json');
  },
});

const SeekEventType = builder.objectRef<SeekEvent>('SeekEvent').implement({
  description:
    'A change of the seek list: an item of the seeks subscription (the event of GET /v1/seeks/events). seek-opened carries the seek as the list shows it; seek-closed why it closed.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The event’s id (ascending, never reused): pass it as after to resume from here.' }),
    kind: t.exposeString('kind', { description: 'What happened: seek-opened or seek-closed.' }),
    at: t.field({ type: 'DateTime', description: 'When the event was committed.', resolve: (e) => new Date(e.at) }),
    seekId: t.exposeID('seekId', { description: 'The seek (Seek.id).' }),
    data: t.field({
      type: 'JSON',
      description:
        'For seek-opened, the seek as the seek list shows it (authorHandle, authorDisplayName, authorRating — null when hidden —, preset, overrides, lexicon, pace, daysPerMove, clockMinutes, rated, category, ratingMin, ratingMax, expiresAt, createdAt); for seek-closed, reason (accepted, withdrawn, expired) and, once accepted, gameId.',
      resolve: (e) => e.data,
    }),
  }),
});

builder.subscriptionField('seeks', (t) =>
  t.field({
    type: SeekEventType,
    description:
      'The seek list as it changes: seek-opened when a seek is made, seek-closed when it is accepted, withdrawn or expires. Open to anyone, as the list is. Every event after `after`, once and in order, then each new one; omitted: from now on — read the seeks query first, then follow this. A malformed after is VALIDATION; past the open streams a caller (or an anonymous address) may hold, RATE_LIMITED; where streams are not served (AWS Lambda), STREAMS_UNAVAILABLE.',
    args: {
      after: t.arg.id({
        required: false,
        description: 'Start after this event id (the last one you were sent) to resume; omitted: only events from now on.',
      }),
    },
    subscribe: (_root, args, ctx) => openSeeks(ctx, args.after === null || args.after === undefined ? null : String(args.after)),
    resolve: (event) => event,
  }),
);
