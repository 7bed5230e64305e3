import type { Plugin } from 'graphql-yoga';
import type { RuleError } from '../engine/errors.js';
import { RENDER_VERSION, renderBoardSvg, replayFrames, replayGif, svgToPng } from '../render/index.js';
import { gamePictures, type GamePictures } from '../service/game-pictures.js';
import { authenticate } from './auth.js';
import type { AppServices } from './context.js';
import { restStatusFor } from './rest-status.js';

/**
 * The picture routes of a game (issue 20), plain HTTP handlers on the API's server:
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

const problem = (status: number, code: string, message: string, extra: Record<string, string> = {}): Response =>
  Response.json({ code, message }, { status, headers: { 'cache-control': 'no-store', ...extra } });

const fromRuleError = (e: RuleError): Response => {
  const status = restStatusFor(e.code);
  return problem(status, e.code, e.message, status === 401 ? { 'www-authenticate': 'Bearer' } : {});
};

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
  if (request.method !== 'GET' && request.method !== 'HEAD') return problem(405, 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET, HEAD' });
  const url = new URL(request.url);
  const version = kind === 'replay.gif' ? null : parseVersion(url);
  if (version === 'bad') return problem(400, 'VALIDATION', 'version must be a positive event count, e.g. ?version=12.');
  const principal = await authenticate(request.headers.get('authorization'), {
    client: services.db.prisma,
    jwt: services.jwt,
    now: services.now(),
  });
  if (principal.kind === 'anonymous' && principal.problem)
    return problem(401, 'UNAUTHENTICATED', principal.problem, { 'www-authenticate': 'Bearer' });
  if (principal.kind === 'player' && !principal.scopes.includes('games:read'))
    return problem(403, 'FORBIDDEN', 'This API key lacks the API scope games:read.');
  const viewer = principal.kind === 'player' ? principal.player.id : null;
  const pictures = await gamePictures(services, viewer, gameId, version === null ? {} : { version });
  if (!pictures.ok) return fromRuleError(pictures.error);
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
