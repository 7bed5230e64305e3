import type { Plugin } from 'graphql-yoga';
import { joinTiles } from '../engine/tiles.js';
import {
  DEFAULT_POLL_MS,
  DEFAULT_STREAMS_PER_CALLER,
  openGameStream,
  takeStreamSlot,
  type GameStream,
  type StreamEvent,
  type StreamGameUpdate,
} from '../service/streams.js';
import { builder } from './builder.js';
import { requireScope, type Context } from './context.js';
import { GameStateEnum } from './enums.js';
import { ArbiterError, RateLimitedError, toGraphError, ValidationError } from './error-classes.js';
import { GameMoveType, GameOutcomeType } from './game-parts.js';

/**
 * The gameEvents subscription (docs/live.md, issue 31): the live stream of `GET /v1/games/{id}/events`
 * over GraphQL, served by Yoga as Server-Sent Events (the graphql-sse protocol's distinct connections:
 * `Accept: text/event-stream` on /graphql). The same service stream (service/streams.ts) feeds both, so
 * each event is the viewer's view after it exactly as there, the resume point is the same version, and
 * the open streams of one caller count against the same limit.
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
const sourceOf = (stream: GameStream, free: () => void): AsyncIterableIterator<StreamEvent> => {
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
    return: (): Promise<IteratorResult<StreamEvent>> => {
      end();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw: (e: unknown): Promise<IteratorResult<StreamEvent>> => {
      end();
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    },
  };
};

const openFor = async (ctx: Context, gameId: string, after: number): Promise<AsyncIterable<StreamEvent>> => {
  const live = ctx.live ?? { enabled: true, streamsPerCaller: DEFAULT_STREAMS_PER_CALLER, pollMs: DEFAULT_POLL_MS };
  if (!live.enabled)
    throw new ArbiterError(
      'STREAMS_UNAVAILABLE',
      'This deployment does not serve event streams yet: poll the game query, or use webhooks.',
    );
  const me = requireScope(ctx, 'games:read');
  const free = takeStreamSlot(me.player.id, live.streamsPerCaller);
  if (!free)
    throw new RateLimitedError(
      `You have ${live.streamsPerCaller} event streams open, the most one caller may hold: close one, or retry later.`,
      { limit: live.streamsPerCaller, retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  let opened;
  try {
    opened = await openGameStream(ctx, me.player.id, gameId, { after, pollMs: live.pollMs });
  } catch (e) {
    free();
    throw e;
  }
  if (!opened.ok) {
    free();
    if (opened.error.code === 'BAD_INPUT') throw new ValidationError([{ field: 'after', message: opened.error.message }]);
    throw toGraphError(opened.error);
  }
  return sourceOf(opened.value, free);
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

/**
 * Where streams are not served (Lambda), a subscription is answered as the REST route answers: HTTP 501,
 * its one error (STREAMS_UNAVAILABLE) as a GraphQL JSON reply, instead of an SSE stream of that error.
 */
export const useStreamsUnavailableStatus = (): Plugin => ({
  onResultProcess: ({ result, setResultProcessor }) => {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    if (!result.errors?.some((e) => e.extensions?.['code'] === 'STREAMS_UNAVAILABLE')) return;
    setResultProcessor(
      () => Response.json({ errors: result.errors }, { status: 501, headers: { 'cache-control': 'no-store' } }),
      'application/json',
    );
  },
});
