import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { authenticate } from '../graph/auth.js';
import type { AppServices } from '../graph/context.js';
import { RENDER_VERSION, svgToPng } from '../render/index.js';
import { renderRatingChartSvg } from '../render/rating-chart.js';
import { ratingHistory } from '../service/player-profile.js';
import { edgeProblem, problemResponse } from './problem.js';
import { noneMatch } from './request.js';

/**
 * A player's rating chart in one category (issue 33, item 4; docs/players.md), served beside the board
 * pictures (rest/images.ts) and the same way: plain HTTP handlers before Yoga, listed in the OpenAPI
 * document by `CHART_PATHS`.
 *
 *   GET /v1/players/{handle}/ratings/{category}/chart.svg   (category escaped: tournament%2Fcorrespondence)
 *   GET /v1/players/{handle}/ratings/{category}/chart.png
 *
 * Who may see it is the player's page's rule (service/player-profile.ts): anyone, unless the player hid
 * it; then only the player (a credential is read only for that). The ETag is the picture's own hash, so
 * it changes exactly when a rated game adds a point; revalidated on every use (`no-cache`).
 */

export const CHART_ROUTE = /^\/v1\/players\/([^/]+)\/ratings\/([^/]+)\/chart\.(svg|png)$/;

const CONTENT_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png' } as const;
type ChartKind = keyof typeof CONTENT_TYPES;

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** The answer to one chart request (the route already matched). */
export const chartResponse = async (services: AppServices, request: Request, rawHandle: string, rawCategory: string, kind: ChartKind) => {
  const instance = new URL(request.url).pathname;
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return edgeProblem('METHOD_NOT_ALLOWED', 'Use GET.', instance, { allow: 'GET, HEAD' });
  const handle = decode(rawHandle);
  const category = decode(rawCategory);
  if (handle === null || category === null) return edgeProblem('BAD_REQUEST', 'The path has a malformed %-escape.', instance);
  const principal = await authenticate(request.headers.get('authorization'), {
    db: services.db,
    jwt: services.jwt,
    now: services.now(),
    cache: services.principals,
  });
  if (principal.kind === 'anonymous' && principal.problem) return edgeProblem('UNAUTHENTICATED', principal.problem, instance);
  const viewer = principal.kind === 'player' ? principal.player.id : null;
  const history = await ratingHistory({ db: services.db }, viewer, handle, category);
  if (!history.ok) {
    const e = history.error;
    return problemResponse(404, { code: e.code, message: e.message, details: e.details ?? null }, instance);
  }
  const h = history.value;
  const svg = renderRatingChartSvg({
    handle: h.player.handle,
    category: h.category,
    points: h.points.map((p) => ({ rating: p.rating, deviation: p.deviation })),
  });
  const etag = `"chart-${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}-${kind}-r${RENDER_VERSION}"`;
  const headers: Record<string, string> = {
    etag,
    // A hidden page's chart is the player's alone: no shared cache may keep it.
    'cache-control': viewer === null ? 'public, no-cache' : 'private, no-cache',
    vary: 'Authorization',
    'x-content-type-options': 'nosniff',
  };
  if (noneMatch(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  headers['content-type'] = CONTENT_TYPES[kind];
  // An SVG opened on its own is a document: it may not run or load anything.
  if (kind === 'svg') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'";
  const body = kind === 'svg' ? svg : await svgToPng(svg);
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
};

/** Serves the chart routes before Yoga looks at the request. */
export const useRatingChartRoutes = (services: AppServices): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const m = CHART_ROUTE.exec(url.pathname);
    if (!m) return;
    endResponse(await chartResponse(services, request, m[1]!, m[2]!, m[3] as ChartKind));
  },
});

const chartOperation = (operationId: string, kind: ChartKind): Record<string, unknown> => ({
  operationId,
  tags: ['Players'],
  summary: `A player’s rating history in one category as ${kind.toUpperCase()}`,
  description:
    'One point per rated game, oldest first, with a band of rating ± 2·RD. Open to anyone unless the player hid their page (then only to them). 404 PLAYER_NOT_FOUND or UNKNOWN_CATEGORY (details.known lists the ids). ETag and If-None-Match.',
  parameters: [
    { name: 'handle', in: 'path', required: true, description: 'The player’s handle.', schema: { type: 'string' } },
    {
      name: 'category',
      in: 'path',
      required: true,
      description: 'The category id, its slash escaped: tournament%2Fcorrespondence.',
      schema: { type: 'string' },
    },
    {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The ETag of a chart you hold: 304 while it is still the same.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': {
      description: 'The chart.',
      headers: { ETag: { description: 'The picture’s hash and the renderer’s version.', schema: { type: 'string' } } },
      content: {
        [CONTENT_TYPES[kind].split(';')[0]!]: {
          schema: { type: 'string', ...(kind === 'svg' ? {} : { contentMediaType: CONTENT_TYPES[kind] }) },
        },
      },
    },
    '304': { description: 'Not modified: If-None-Match names this chart.' },
    '400': { $ref: '#/components/responses/BadRequest' },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '404': { $ref: '#/components/responses/NotFound' },
    default: { $ref: '#/components/responses/ServerError' },
  },
  security: [{}, { playerToken: [] }, { apiKey: [] }],
});

/** The chart routes in the OpenAPI document of /v1 (not in the route table: they answer images). */
export const CHART_PATHS: Readonly<Record<string, Record<string, unknown>>> = {
  '/players/{handle}/ratings/{category}/chart.svg': { get: chartOperation('getRatingChartSvg', 'svg') },
  '/players/{handle}/ratings/{category}/chart.png': { get: chartOperation('getRatingChartPng', 'png') },
};
