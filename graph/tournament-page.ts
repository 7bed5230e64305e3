import type { Plugin } from 'graphql-yoga';
import { renderStandingsPage, STANDINGS_CSS } from '../render/standings-html.js';
import type { ServiceDeps } from '../service/context.js';
import { isUuid } from '../service/ids.js';
import { getTournament } from '../service/tournaments.js';
import type { AppServices } from './context.js';
import { styledPageHeaders } from './styled-page.js';

/**
 * The public standings page (issue 30, item 9): `GET /tournaments/{id}` (every division) and
 * `GET /tournaments/{id}/divisions/{division}` (one), server HTML with the standings and the crosstable
 * (render/standings-html.ts), no script at all. Only a public tournament has one: a private tournament, an
 * unknown id or division answer 404, the same page whoever asks (no credential is read). Like /play
 * (graph/pages.ts) it is sent with a Content-Security-Policy that allows nothing but its own inline style
 * sheet (by hash) and this origin's icon, and an ETag of the tournament's version (304 while unchanged).
 */

export const TOURNAMENT_PAGE_ROUTE = /^\/tournaments\/([^/]+)(?:\/divisions\/([^/]+))?\/?$/;

/** Nothing runs, nothing loads but the icon; the one style sheet is the page's own, allowed by its hash. */
const HTML_HEADERS = styledPageHeaders(STANDINGS_CSS);

const NOT_FOUND_PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1>' +
  '<p>No public tournament or division has this address.</p></main></body></html>\n';

const notFound = (): Response => new Response(NOT_FOUND_PAGE, { status: 404, headers: { ...HTML_HEADERS, 'cache-control': 'no-store' } });

const decode = (s: string | undefined): string | undefined => {
  if (s === undefined) return undefined;
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
};

/** The answer to one page request (the route already matched). */
export const standingsPageResponse = async (
  deps: ServiceDeps,
  request: Request,
  id: string,
  division: string | undefined,
): Promise<Response> => {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('Use GET.', { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' } });
  if (!isUuid(id) || division === '') return notFound();
  const found = await getTournament(deps, null, id);
  if (!found.ok) {
    if (found.error.code.endsWith('_NOT_FOUND') || found.error.code === 'BAD_INPUT') return notFound();
    throw new Error(`standings page: ${found.error.code} ${found.error.message}`);
  }
  const view = found.value;
  if (!view.state.public) return notFound();
  const etag = `"tournament-${view.id}-v${view.version}${division === undefined ? '' : `-${encodeURIComponent(division)}`}"`;
  const headers = { ...HTML_HEADERS, etag, 'cache-control': 'public, no-cache' };
  if ((request.headers.get('if-none-match') ?? '').split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });
  const html = renderStandingsPage(view.state, {
    tournamentId: view.id,
    asOf: deps.now(),
    ...(division === undefined ? {} : { division }),
  });
  if (html === null) return notFound();
  return new Response(request.method === 'HEAD' ? null : html, { status: 200, headers });
};

/** Serves the standings pages before Yoga looks at the request. */
export const useTournamentPages = (services: AppServices): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const m = TOURNAMENT_PAGE_ROUTE.exec(url.pathname);
    if (!m) return;
    const deps: ServiceDeps = { db: services.db, lexicons: services.lexicons, now: services.now };
    endResponse(await standingsPageResponse(deps, request, decode(m[1]) ?? '', decode(m[2])));
  },
});
