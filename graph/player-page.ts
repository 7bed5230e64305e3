import type { Plugin } from 'graphql-yoga';
import { PLAYER_PAGE_CSS, renderPlayerPage } from '../render/player-html.js';
import { historyOf, playerProfile } from '../service/player-profile.js';
import type { AppServices } from './context.js';
import { styledPageHeaders } from './styled-page.js';

/**
 * A player's public page (issue 33, item 4; docs/players.md): `GET /players/{handle}`, server HTML
 * (render/player-html.ts) with each rating's chart inlined, no script. It reads no credential: a hidden
 * or deleted player's page, or an unknown handle, is the same 404 for everyone (the owner reads their
 * hidden page through the API). Sent with the standings page's kind of Content-Security-Policy: nothing
 * runs or loads, the one inline style sheet is allowed by its hash.
 */

export const PLAYER_PAGE_ROUTE = /^\/players\/([^/]+)\/?$/;

/** Nothing runs, nothing loads but the icon; the one style sheet is the page's own, allowed by its hash. */
const HTML_HEADERS = styledPageHeaders(PLAYER_PAGE_CSS);

const NOT_FOUND_PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1>' +
  '<p>No player’s page has this address.</p></main></body></html>\n';

/** The answer to one page request (the route already matched). */
export const playerPageResponse = async (services: AppServices, request: Request, rawHandle: string): Promise<Response> => {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('Use GET.', { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' } });
  let handle: string;
  try {
    handle = decodeURIComponent(rawHandle);
  } catch {
    handle = '';
  }
  const found = handle ? await playerProfile({ db: services.db }, null, handle) : null;
  if (!found?.ok) return new Response(NOT_FOUND_PAGE, { status: 404, headers: { ...HTML_HEADERS, 'cache-control': 'no-store' } });
  const p = found.value;
  const ratings = await Promise.all(
    p.ratings.map(async (r) => ({ ...r, history: await historyOf({ db: services.db }, p.playerId, r.category) })),
  );
  const html = renderPlayerPage({ ...p, ratings });
  return new Response(request.method === 'HEAD' ? null : html, {
    status: 200,
    headers: { ...HTML_HEADERS, 'cache-control': 'public, no-cache' },
  });
};

/** Serves the players' pages before Yoga looks at the request. */
export const usePlayerPages = (services: AppServices): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const m = PLAYER_PAGE_ROUTE.exec(url.pathname);
    if (!m) return;
    endResponse(await playerPageResponse(services, request, m[1]!));
  },
});
