import { ADJUSTMENT_KINDS, END_REASONS } from '../engine/game/events.js';
import { GAME_STATUSES } from '../engine/game/state.js';
import { NOTIFICATION_KINDS } from '../service/notification-channels.js';
import EXAMPLES from './examples.json' with { type: 'json' };
import type { JsonSchema } from './json-schema.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';

/**
 * The event streams of rest/events.ts in the OpenAPI document of /v1 (they are not in the route table:
 * they answer a stream, not one GraphQL value). The schemas are written here from service/streams.ts
 * `StreamEvent` and service/my-events.ts `MyEvent`, whose fields are the engine's, not a GraphQL type's;
 * the examples are a real stream's, captured by `npm run rest-examples` (scripts/rest-examples-streams.ts).
 */

type Doc = Record<string, unknown>;
/** A stream's example: the SSE text as sent, and its events parsed (the first is the NDJSON example). */
type StreamExample = { readonly response?: string; readonly items?: readonly unknown[] } | undefined;
const examples = EXAMPLES as Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const integer = (description: string, minimum?: number): JsonSchema => ({
  type: 'integer',
  ...(minimum === undefined ? {} : { minimum }),
  description,
});
const seat = (description: string): JsonSchema => ({ type: 'integer', enum: [0, 1], description });
const pair = (description: string): JsonSchema => ({ type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description });

/** One score-sheet line (engine/game/state.ts `TurnRecord`, numbered by game version). */
const STREAM_TURN: JsonSchema = {
  type: 'object',
  description: 'One line of the score sheet, as the `history` of the game view shows it to you.',
  properties: {
    count: integer('How many tiles were exchanged: on every stream but the exchanger’s own.', 0),
    cumulative: integer('The seat’s total after this line.'),
    event: integer('The version of the event that wrote the line: what a dispute names in `concerns`.', 1),
    kind: {
      type: 'string',
      enum: [
        'play',
        'exchange',
        'pass',
        'challenge',
        'phony-withdrawn',
        'turn-lost',
        'challenge-points',
        'time-penalty',
        'end-adjustment',
        'ruling',
      ],
      description: 'What the line records.',
    },
    move: { type: 'string', description: 'The notation (`8H WORD`, `-ABC`, `-3`, `-`), or a short description.' },
    score: integer('The points of the line (negative for a penalty or a withdrawn phony).'),
    seat: seat('Whose line it is.'),
    tiles: { type: 'array', items: { type: 'string' }, description: 'The tiles exchanged: on the exchanger’s own stream only.' },
    words: { type: 'array', description: 'The words a play made, each with its letters, premiums and score.', items: ref('StreamWord') },
  },
  required: ['cumulative', 'event', 'kind', 'move', 'score', 'seat'],
};

const int = { type: 'integer' } as const;

/** A word a play made (engine/scoring.ts `ScoredWord`). */
const STREAM_WORD: JsonSchema = {
  type: 'object',
  description: 'A word a play made: its squares, the premiums that counted, and its score.',
  properties: {
    letterSum: integer('The letters’ values after letter premiums.'),
    letters: {
      type: 'array',
      description: 'Its squares in order (row and col 0-based).',
      items: {
        type: 'object',
        properties: {
          blank: { type: 'boolean' },
          col: int,
          face: integer('The tile’s face value.'),
          letter: { type: 'string' },
          letterMultiplier: integer('The letter premium that counted (1 when none, or the square was covered before).'),
          newlyPlaced: { type: 'boolean', description: 'Placed by this play.' },
          row: int,
          value: integer('The points the letter counted.'),
          wordMultiplier: integer('The word premium of the square that counted.'),
        },
        required: ['blank', 'col', 'letter', 'newlyPlaced', 'row', 'value'],
      },
    },
    main: { type: 'boolean', description: 'The word along the play’s direction.' },
    score: integer('The word’s score.'),
    start: {
      type: 'object',
      properties: { col: int, dir: { type: 'string', enum: ['across', 'down'] }, row: int },
      required: ['col', 'dir', 'row'],
    },
    valid: { type: ['boolean', 'null'], description: 'Whether the lexicon has the word; null when none judged it.' },
    word: { type: 'string', description: 'The word, uppercase.' },
    wordMultiplier: integer('The product of the word premiums it covered.'),
  },
  required: ['letters', 'score', 'word'],
};

const STREAM_RESULT: JsonSchema = {
  type: ['object', 'null'],
  description: 'Set once the game is over.',
  properties: {
    adjustments: {
      type: 'array',
      description: 'End-of-game adjustments: the racks left, counted.',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: [...ADJUSTMENT_KINDS] },
          points: { type: 'integer' },
          seat: seat('The seat adjusted.'),
          tiles: { type: 'array', items: { type: 'string' }, description: 'The rack counted.' },
        },
        required: ['kind', 'points', 'seat', 'tiles'],
      },
    },
    loser: { type: ['integer', 'null'], description: 'The seat that lost by resigning, timing out or forfeiting; null otherwise.' },
    reason: { type: 'string', enum: [...END_REASONS], description: 'Why the game ended.' },
    scoresBeforeAdjustments: pair('The scores when the game ended, before the adjustments.'),
    seed: { type: ['string', 'null'], description: 'The bag’s seed, revealed at the end (null for an imported game): check the draws.' },
    winner: { type: ['integer', 'null'], description: 'The winning seat; null for a tie.' },
  },
  required: ['adjustments', 'reason', 'winner'],
};

const STREAM_GAME_UPDATE: JsonSchema = {
  type: 'object',
  description:
    'What the event changed in your view of the game, read from the same view `GET /games/{id}` answers with: your rack only, never the other one or the bag.',
  properties: {
    bagCount: integer('Tiles left in the bag.', 0),
    historyFrom: integer('The first score-sheet line (0-based) in `turns`: replace your sheet from there.', 0),
    rack: { type: 'array', items: { type: 'string' }, description: 'Your rack after the event: seated players only.' },
    rackSizes: pair('Both racks’ sizes.'),
    result: STREAM_RESULT,
    scores: pair('Both scores.'),
    status: { type: 'string', enum: [...GAME_STATUSES], description: 'The game’s status after the event.' },
    turn: seat('The seat to move.'),
    turns: { type: 'array', items: ref('StreamTurn'), description: 'The score-sheet lines the event added or changed.' },
  },
  required: ['bagCount', 'historyFrom', 'rackSizes', 'result', 'scores', 'status', 'turn', 'turns'],
};

const STREAM_EVENT: JsonSchema = {
  type: 'object',
  description:
    'One event of a game’s log as you may see it (service/streams.ts). The SSE `id` is `version`, the SSE `event` is `kind`; the NDJSON line is this object.',
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the event was committed.' },
    game: { oneOf: [ref('StreamGameUpdate'), { type: 'null' }], description: 'Null for `game-proposed` (no board yet).' },
    kind: {
      type: 'string',
      description: 'The log’s name for the event: `game-created`, `tiles-drawn`, `play`, `pass`, `game-ended` … (docs/games.md).',
    },
    seat: { type: ['integer', 'null'], description: 'Your seat; null for a spectator.' },
    version: integer('The game’s version after the event: resume after it (`Last-Event-ID`, `?after=`).', 1),
  },
  required: ['at', 'game', 'kind', 'seat', 'version'],
};

const MY_EVENT: JsonSchema = {
  type: 'object',
  description:
    'One of your own events (service/my-events.ts): what you would be notified of. The SSE `id` is `id`, the SSE `event` is `kind`.',
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the event was committed.' },
    data: {
      type: 'object',
      description: 'The rest of the event: `seat`, `deadlineAt`, `scores`, `words` … as the webhooks’ payload (docs/webhooks.md).',
    },
    gameId: { type: ['string', 'null'], description: 'The game it concerns, if any.' },
    id: { type: 'string', pattern: '^\\d+$', description: 'The event’s id (a decimal integer as a string): resume after it.' },
    kind: { type: 'string', enum: [...NOTIFICATION_KINDS], description: 'What happened.' },
    tournamentId: { type: ['string', 'null'], description: 'The tournament it concerns, if any.' },
    version: { type: ['integer', 'null'], description: 'The game’s (or tournament’s) version after the event.' },
  },
  required: ['at', 'data', 'gameId', 'id', 'kind', 'tournamentId', 'version'],
};

const SEEK_EVENT: JsonSchema = {
  type: 'object',
  description:
    'A change of the seek list (service/seek-events.ts): a seek made, or closed. The SSE `id` is `id`, the SSE `event` is `kind`.',
  properties: {
    at: { type: 'string', format: 'date-time', description: 'When the event was committed.' },
    data: {
      type: 'object',
      description:
        '`seek-opened`: the seek as `GET /seeks` shows it (`authorHandle`, `authorDisplayName`, `authorRating` — null when hidden —, `preset`, `lexicon`, `pace`, `daysPerMove`, `clockMinutes`, `rated`, `category`, `ratingMin`, `ratingMax`, `expiresAt` …); `seek-closed`: `reason` (`accepted`, `withdrawn`, `expired`) and, once accepted, `gameId`.',
    },
    id: { type: 'string', pattern: '^\\d+$', description: 'The event’s id (a decimal integer as a string): resume after it.' },
    kind: { type: 'string', enum: ['seek-opened', 'seek-closed'], description: 'What happened.' },
    seekId: { type: 'string', description: 'The seek.' },
  },
  required: ['at', 'data', 'id', 'kind', 'seekId'],
};

const STREAM_CLOSE: JsonSchema = {
  type: 'object',
  description:
    'The last message of a stream the server ends (SSE `event: close`; an NDJSON line of this kind): reconnect with the last id to resume.',
  properties: {
    kind: { type: 'string', const: 'close' },
    message: { type: 'string', description: 'A sentence saying why.' },
    reason: { type: 'string', enum: ['slow-consumer', 'error'] },
  },
  required: ['kind', 'message', 'reason'],
};

/** The schemas the stream operations name, for `components.schemas`. */
export const STREAM_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  MyEvent: MY_EVENT,
  SeekEvent: SEEK_EVENT,
  StreamClose: STREAM_CLOSE,
  StreamEvent: STREAM_EVENT,
  StreamGameUpdate: STREAM_GAME_UPDATE,
  StreamTurn: STREAM_TURN,
  StreamWord: STREAM_WORD,
};

const problem = (name: string) => ({ $ref: `#/components/responses/${name}` });

interface StreamDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly pathId: boolean;
  readonly after: JsonSchema & { description: string };
  readonly lastEventId: JsonSchema;
  readonly item: string;
  /** Open to anyone (a credential is optional): the public seek list's stream. */
  readonly open?: boolean;
  readonly tag?: string;
}

const streamOperation = (s: StreamDoc): Doc => {
  const example = examples[s.operationId] as StreamExample;
  return {
    operationId: s.operationId,
    tags: [s.tag ?? 'Games'],
    summary: s.summary,
    description: `${s.description} Server-Sent Events by default; NDJSON (one JSON object a line) when Accept names \`application/x-ndjson\` first. A comment (\`: heartbeat\`, an empty NDJSON line) after 20 s without a write. A caller holds at most 10 streams open (429 past it). ${s.open ? 'Open to anyone: no credential needed.' : 'An API key needs the scope `games:read`.'} Where this address does not serve streams: 501 STREAMS_UNAVAILABLE. See docs/live.md.`,
    parameters: [
      ...(s.pathId ? [{ name: 'id', in: 'path', required: true, description: 'The game’s id.', schema: { type: 'string' } }] : []),
      { name: 'after', in: 'query', required: false, description: s.after.description, schema: s.after },
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'The last id you got (EventSource sends it when it reconnects): resume after it. Wins over `after`.',
        schema: s.lastEventId,
      },
    ],
    responses: {
      '200': {
        description: `The stream: every ${s.item} after the resume point, once, in order, then each as it is committed; it stays open.`,
        headers: { 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } },
        content: {
          'text/event-stream': {
            schema: {
              type: 'string',
              description: `Server-Sent Events: \`id:\` the ${s.item}'s id, \`event:\` its kind, \`data:\` the ${s.item} as JSON (schema \`${s.item}\`); \`event: close\` with a \`StreamClose\` ends it.`,
            },
            ...(example?.response === undefined ? {} : { example: example.response }),
          },
          'application/x-ndjson': {
            // OpenAPI 3.1 has no schema for the items of a sequence (3.2's itemSchema): this is one line's.
            schema: { description: `Each line: one ${s.item}, or a last \`StreamClose\`.`, oneOf: [ref(s.item), ref('StreamClose')] },
            ...(example?.items?.[0] === undefined ? {} : { example: example.items[0] }),
          },
        },
      },
      '400': problem('BadRequest'),
      '401': problem('Unauthorized'),
      ...(s.open ? {} : { '403': problem('Forbidden') }),
      ...(s.pathId ? { '404': problem('NotFound') } : {}),
      '429': problem('TooManyRequests'),
      '501': {
        description:
          'STREAMS_UNAVAILABLE: this address does not serve streams (on AWS Lambda behind API Gateway). Where the deployment streams at another address, `details.streamUrl` and the Link header name it (same path, same credential); otherwise poll, or use webhooks.',
        headers: { Link: { description: '`<streamUrl>; rel="alternate"` when there is one.', schema: { type: 'string' } } },
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } },
      },
      default: problem('ServerError'),
    },
    security: s.open ? [] : [{ playerToken: [] }, { apiKey: ['games:read'] }],
  };
};

/** The stream routes in the OpenAPI document of /v1. */
export const STREAM_PATHS: Readonly<Record<string, Record<string, unknown>>> = {
  '/games/{id}/events': {
    get: streamOperation({
      operationId: 'streamGameEvents',
      summary: 'Follow a game: its events as they are committed',
      description:
        'Every event of the game’s log, filtered for you exactly as your game view is (your rack, never the other one; a spectator sees no rack). The id of an event is the game’s version after it, so resuming after the last id you got misses nothing and repeats nothing.',
      pathId: true,
      after: {
        type: 'integer',
        minimum: 0,
        description: 'Start after this version (default 0: the whole log). A version beyond the log is a 400.',
      },
      lastEventId: { type: 'string', pattern: '^\\d+$' },
      item: 'StreamEvent',
    }),
  },
  '/me/events': {
    get: streamOperation({
      operationId: 'streamMyEvents',
      summary: 'Follow your own events: your turn, games started and ended, disputes, deadlines',
      description:
        'Your events across games and tournaments, the ones you could be notified of, as they are committed. Ids are increasing integers (as strings): resuming after the last id you got misses nothing and repeats nothing.',
      pathId: false,
      after: { type: 'string', pattern: '^\\d+$', description: 'Start after this event id (default: only events from now on).' },
      lastEventId: { type: 'string', pattern: '^\\d+$' },
      item: 'MyEvent',
    }),
  },
  '/seeks/events': {
    get: streamOperation({
      operationId: 'streamSeekEvents',
      summary: 'Follow the seek list: seeks made, accepted, withdrawn, expired',
      description:
        'Open to anyone, as the list is (signed in, your streams count against your limit; anonymous, your address’s). `seek-opened` carries the seek as the list shows it, `seek-closed` why it closed. Without `after` the stream starts now: read `GET /seeks` first, then follow this. Ids are increasing integers (as strings): resuming after the last id you got misses nothing and repeats nothing.',
      pathId: false,
      after: { type: 'string', pattern: '^\\d+$', description: 'Start after this event id (default: only events from now on).' },
      lastEventId: { type: 'string', pattern: '^\\d+$' },
      item: 'SeekEvent',
      open: true,
      tag: 'Lobby',
    }),
  },
};
