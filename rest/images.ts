import type { Plugin } from 'graphql-yoga';
import type { RuleError } from '../engine/errors.js';
import { RENDER_VERSION, renderBoardSvg, replayFrames, replayGif, svgToPng } from '../render/index.js';
import { gamePictures, type GamePictures } from '../service/game-pictures.js';
import { authenticate } from '../graph/auth.js';
import type { AppServices } from '../graph/context.js';
import { edgeProblem, problemResponse, statusFor } from './problem.js';
import { CHART_PATHS } from './rating-chart.js';

/**
 * The picture routes of a game, plain HTTP handlers of the REST edge (not GraphQL operations: they answer
 * images), listed in the OpenAPI document by `IMAGE_OPERATIONS`:
 *
 *   GET /v1/games/{id}/board.svg[?version=N]   the board picture (render/board.ts)
 *   GET /v1/games/{id}/board.png[?version=N]   the same as PNG (resvg)
 *   GET /v1/games/{id}/replay.gif              one frame per turn, looping
 *
 * Who sees what is decided by the service (service/game-pictures.ts): a finished game is public and
 * rack-less; a game in play needs `Authorization: Bearer …` (a token, or an API key with games:read),
 * and shows a seated caller their own rack. Answers carry an ETag (the game, the version, whose view,
 * the renderer's version) and honour If-None-Match. A picture at an explicit `version` never changes
 * (the log is append-only), so it is cached as immutable: publicly once the game is over, privately
 * while it is on. Without `version` the answer is the game now: revalidated with the ETag.
 */

export const IMAGE_ROUTE = /^\/v1\/games\/([^/]+)\/(board\.svg|board\.png|replay\.gif)$/;

const CONTENT_TYPES = { 'board.svg': 'image/svg+xml; charset=utf-8', 'board.png': 'image/png', 'replay.gif': 'image/gif' } as const;
type ImageKind = keyof typeof CONTENT_TYPES;

/** Width of a replay GIF frame: smaller than a board picture, which keeps a whole game near a megabyte. */
const REPLAY_WIDTH = 480;
const YEAR = 365 * 24 * 3600;

const fromRuleError = (e: RuleError, instance: string): Response =>
  problemResponse(statusFor(e.code), { code: e.code, message: e.message, details: e.details ?? null }, instance);

/** `?version=N`: absent, or a positive integer. */
const parseVersion = (url: URL): number | null | 'bad' => {
  const raw = url.searchParams.get('version');
  if (raw === null) return null;
  return /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : 'bad';
};

const cacheControl = (p: GamePictures, explicitVersion: boolean): string => {
  if (explicitVersion) return `${p.ended ? 'public' : 'private'}, max-age=${YEAR}, immutable`;
  return p.ended ? 'public, max-age=3600' : 'private, no-cache';
};

const etagOf = (p: GamePictures, kind: ImageKind, version: number): string =>
  `"${p.gameId}-v${version}-${p.seat === null ? 'all' : `seat${p.seat}`}-${kind}-r${RENDER_VERSION}"`;

/** A few recent replays: a GIF takes seconds to encode, and a finished game's never changes. */
const replayCache = new Map<string, Uint8Array<ArrayBuffer>>();
const REPLAY_CACHE_SIZE = 8;

const body = async (p: GamePictures, kind: ImageKind, etag: string): Promise<Uint8Array<ArrayBuffer> | string> => {
  if (kind === 'replay.gif') {
    const cached = replayCache.get(etag);
    if (cached) return cached;
    const gif = await replayGif(replayFrames(p.turns, p.distribution), { width: REPLAY_WIDTH });
    replayCache.set(etag, gif);
    if (replayCache.size > REPLAY_CACHE_SIZE) replayCache.delete(replayCache.keys().next().value!);
    return gif;
  }
  const svg = renderBoardSvg({ view: p.turns[p.turns.length - 1]!.view, distribution: p.distribution });
  return kind === 'board.svg' ? svg : svgToPng(svg);
};

/** The answer to one picture request (the route already matched). */
export const imageResponse = async (services: AppServices, request: Request, gameId: string, kind: ImageKind): Promise<Response> => {
  const url = new URL(request.url);
  const instance = url.pathname;
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return edgeProblem('METHOD_NOT_ALLOWED', 'Use GET.', instance, { allow: 'GET, HEAD' });
  const version = kind === 'replay.gif' ? null : parseVersion(url);
  if (version === 'bad') return edgeProblem('VALIDATION', 'version must be a positive event count, e.g. ?version=12.', instance);
  const principal = await authenticate(request.headers.get('authorization'), {
    db: services.db,
    jwt: services.jwt,
    now: services.now(),
    cache: services.principals,
  });
  if (principal.kind === 'anonymous' && principal.problem) return edgeProblem('UNAUTHENTICATED', principal.problem, instance);
  if (principal.kind === 'player' && !principal.scopes.includes('games:read'))
    return edgeProblem('FORBIDDEN', 'This API key lacks the API scope games:read.', instance);
  const viewer = principal.kind === 'player' ? principal.player.id : null;
  const pictures = await gamePictures(services, viewer, gameId, version === null ? {} : { version });
  if (!pictures.ok) return fromRuleError(pictures.error, instance);
  const p = pictures.value;
  const shown = Math.min(version ?? p.currentVersion, p.currentVersion);
  const etag = etagOf(p, kind, shown);
  const headers: Record<string, string> = {
    etag,
    'cache-control': cacheControl(p, version !== null && version <= p.currentVersion),
    vary: 'Authorization',
    'x-content-type-options': 'nosniff',
  };
  if ((request.headers.get('if-none-match') ?? '').split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
  const content = await body(p, kind, etag);
  headers['content-type'] = CONTENT_TYPES[kind];
  // An SVG opened on its own is a document: it may not run or load anything.
  if (kind === 'board.svg') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'";
  return new Response(request.method === 'HEAD' ? null : content, { status: 200, headers });
};

/** Serves the picture routes before Yoga looks at the request. */
export const useImageRoutes = (services: AppServices): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const m = IMAGE_ROUTE.exec(url.pathname);
    if (!m) return;
    endResponse(await imageResponse(services, request, decodeURIComponent(m[1]!), m[2] as ImageKind));
  },
});

const imageOperation = (operationId: string, summary: string, kind: ImageKind, withVersion: boolean): Record<string, unknown> => ({
  operationId,
  tags: ['Pictures'],
  summary,
  description: `${summary}. A finished game is public and shows no rack; a game in play needs a credential (an API key needs games:read) and shows a seated caller their own rack, never the other one. ETag and If-None-Match as for games; a picture at an explicit version is immutable.`,
  parameters: [
    { name: 'id', in: 'path', required: true, description: 'The game’s id.', schema: { type: 'string' } },
    ...(withVersion
      ? [
          {
            name: 'version',
            in: 'query',
            required: false,
            description: 'The game as it was after this many events (default: now).',
            schema: { type: 'integer', minimum: 1 },
          },
        ]
      : []),
    {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The ETag of a picture you hold: 304 while it is still the same.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': {
      description: 'The picture.',
      headers: {
        ETag: { description: 'Identifies the game, version, view and renderer.', schema: { type: 'string' } },
        'Cache-Control': { description: 'immutable at an explicit version; public once the game is over.', schema: { type: 'string' } },
      },
      content: {
        [CONTENT_TYPES[kind].split(';')[0]!]: {
          schema: { type: 'string', ...(kind === 'board.svg' ? {} : { contentMediaType: CONTENT_TYPES[kind] }) },
        },
      },
    },
    '304': { description: 'Not modified: If-None-Match names this picture.' },
    '400': { $ref: '#/components/responses/BadRequest' },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '403': { $ref: '#/components/responses/Forbidden' },
    '404': { $ref: '#/components/responses/NotFound' },
    '409': { $ref: '#/components/responses/Conflict' },
    default: { $ref: '#/components/responses/ServerError' },
  },
  security: [{}, { playerToken: [] }, { apiKey: ['games:read'] }],
});

/**
 * The picture routes in the OpenAPI document of /v1 (they are not in the route table: they answer images, not GraphQL values):
 * a game's, and a player's rating chart (rest/rating-chart.ts).
 */
export const IMAGE_PATHS: Readonly<Record<string, Record<string, unknown>>> = {
  ...CHART_PATHS,
  '/games/{id}/board.svg': { get: imageOperation('getBoardSvg', 'The board as SVG', 'board.svg', true) },
  '/games/{id}/board.png': { get: imageOperation('getBoardPng', 'The board as PNG', 'board.png', true) },
  '/games/{id}/replay.gif': {
    get: imageOperation('getReplayGif', 'The whole game as an animated GIF, one frame per turn', 'replay.gif', false),
  },
};
