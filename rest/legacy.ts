import type { Plugin } from 'graphql-yoga';
import { OPENAPI_PATH, REST_PATH } from '../graph/yoga.js';
import { OPENAPI_JSON_PATH, V1_PATH } from './plugin.js';
import type { Route } from './route.js';
import { ROUTES } from './routes/index.js';

/**
 * The SOFA routes under /rest stay for one release as deprecated aliases of /v1: every response says
 * so in headers (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, a `successor-version` link to the /v1
 * document), and their OpenAPI document marks every operation deprecated and names its /v1 successor.
 */

/** When /rest was deprecated: the release that brought /v1. */
export const REST_DEPRECATED_AT = new Date('2026-12-01T00:00:00Z');
/** When /rest goes: the release after. Move it if that release moves. */
export const REST_SUNSET_AT = new Date('2027-03-01T00:00:00Z');

export const deprecationHeaders = (): Record<string, string> => ({
  deprecation: `@${Math.floor(REST_DEPRECATED_AT.getTime() / 1000)}`,
  sunset: REST_SUNSET_AT.toUTCString(),
  link: `<${OPENAPI_JSON_PATH}>; rel="successor-version"`,
});

/** The /v1 routes that replace each old route, keyed `METHOD /rest/path`. */
export const successors = (routes: readonly Route[] = ROUTES): Map<string, Route[]> => {
  const out = new Map<string, Route[]>();
  for (const r of routes) if (r.replaces) out.set(r.replaces, [...(out.get(r.replaces) ?? []), r]);
  return out;
};

/** Tournaments (issue 30): GraphQL and /v1 only (rest/routes/tournaments.ts). */
const TOURNAMENT_FIELDS = [
  'tournament',
  'tournaments',
  'tournament-division',
  'tournament-round',
  'create-tournament',
  'import-tsh-division',
  'add-tournament-player',
  'withdraw-tournament-player',
  'pre-pair-couple',
  'pair-round',
  'override-pairing',
  'start-round',
  'end-round',
  'start-late-clock',
  'forfeit-late-arrival',
  'record-result',
  'correct-slip',
  'sign-slip',
  'submit-slip',
  'change-slip',
  'file-slip-dispute',
  'dismiss-slip-dispute',
];

/** Fields added after /rest was frozen (Relay's node lookups, analysis, tournaments): /v1 has a route per resource instead, so SOFA's routes for them are not served. */
export const NOT_ON_REST: readonly string[] = [
  '/node',
  '/nodes',
  '/analyze-position',
  '/game-analysis',
  ...TOURNAMENT_FIELDS.map((f) => `/${f}`),
  // E-mail (issue 31): /v1/me/email.
  '/my-email',
  '/set-email',
  '/resend-email-verification',
  '/remove-email',
  // Account deletion and export (issue 32): /v1/me/delete and /v1/me/export, for a password session only.
  '/account-export',
  '/delete-account',
  // Third-party apps and grants (issue 32): /v1/apps and /v1/me/grants.
  '/my-apps',
  '/my-grants',
  '/register-app',
  '/update-app',
  '/rotate-app-secret',
  '/delete-app',
  '/revoke-grant',
  // Players' pages and leaderboards (issue 33): /v1/players/{handle} and /v1/leaderboards/{category}.
  '/player-profile',
  '/rating-history',
  '/leaderboard',
  '/set-profile-hidden',
  // Sessions and the password (issue 32): /v1/me/sessions, /v1/sessions/renew and /v1/me/password.
  '/sessions',
  '/end-session',
  '/sign-out-everywhere',
  '/change-password',
  '/renew-token',
  // The lobby (issue 33): /v1/seeks, /v1/challenges, /v1/games/{id}/rematch and /v1/pairing-requests.
  '/seeks',
  '/seek',
  '/create-seek',
  '/accept-seek',
  '/withdraw-seek',
  '/my-challenges',
  '/challenge',
  '/create-challenge',
  '/accept-challenge',
  '/decline-challenge',
  '/withdraw-challenge',
  '/request-rematch',
  '/my-pairing-requests',
  '/create-pairing-request',
  '/withdraw-pairing-request',
  '/accept-robot-offer',
];

type OpenApiDoc = {
  info?: { description?: string };
  paths?: Record<string, Record<string, { deprecated?: boolean; description?: string }>>;
};

/** SOFA's document with every operation deprecated and pointed at its /v1 successor. */
export const deprecateDocument = (doc: OpenApiDoc, routes: readonly Route[] = ROUTES): OpenApiDoc => {
  const next = successors(routes);
  for (const path of NOT_ON_REST) delete doc.paths?.[path];
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const to = next.get(`${method.toUpperCase()} ${REST_PATH}${path}`) ?? [];
      const use = to.map((r) => `${r.method} ${V1_PATH}${r.path} (${r.operationId})`).join(' or ');
      op.deprecated = true;
      op.description = `Deprecated: ${use ? `use ${use}` : `see ${OPENAPI_JSON_PATH}`}. This route goes on ${REST_SUNSET_AT.toUTCString()}.${op.description ? `\n\n${op.description}` : ''}`;
    }
  }
  doc.info = {
    ...doc.info,
    description: `Deprecated: these routes are aliases kept for one release (until ${REST_SUNSET_AT.toUTCString()}); the REST API is ${V1_PATH} (${OPENAPI_JSON_PATH}).`,
  };
  return doc;
};

/** Marks every /rest response deprecated, and its OpenAPI document too. */
export const useRestDeprecation = (): Plugin => ({
  async onResponse({ request, response, setResponse }) {
    const path = new URL(request.url).pathname;
    if (path !== REST_PATH && !path.startsWith(`${REST_PATH}/`)) return;
    const headers = new Headers(response.headers);
    if (NOT_ON_REST.includes(path.slice(REST_PATH.length))) {
      setResponse(
        new Response(JSON.stringify({ code: 'NOT_FOUND', message: `No route ${path}: use ${V1_PATH} (${OPENAPI_JSON_PATH}).` }), {
          status: 404,
          headers: { 'content-type': 'application/json', ...deprecationHeaders() },
        }),
      );
      return;
    }
    for (const [name, value] of Object.entries(deprecationHeaders())) headers.set(name, value);
    if (path === OPENAPI_PATH && response.status === 200) {
      const doc = deprecateDocument((await response.json()) as OpenApiDoc);
      headers.delete('content-length');
      setResponse(new Response(JSON.stringify(doc), { status: 200, headers }));
      return;
    }
    setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
  },
});
