import type { Plugin } from 'graphql-yoga';

/**
 * The pages a person opens in a browser (issue 20): the play page at /play, GraphiQL at /graphql and
 * the API docs (Swagger UI) at /rest/docs. Every script, style, worker and icon they use is served
 * from here, out of installed packages (swagger-ui-dist, @graphql-yoga/render-graphiql) and the
 * esbuild bundle of web/, never from a CDN: the pages work on a network without the internet, and no
 * stranger's code runs in the operator's browser. Each page is sent with a Content-Security-Policy
 * that allows only this origin (`'self'`), so a page that tried to load anything else would be
 * refused by the browser, not just by the network.
 *
 * The files themselves come from `StaticFiles` (functions/ decides where: the bundle's folder on
 * Lambda, node_modules and an on-the-fly esbuild build locally); this module holds only the routes,
 * the HTML and the headers.
 */

export interface StaticFile {
  readonly body: Uint8Array<ArrayBuffer> | string;
  readonly type: string;
}

/** Looks a file up by its name in the list below; null when it is not available. */
export type StaticFiles = (name: StaticFileName) => Promise<StaticFile | null>;

export const STATIC_FILE_NAMES = [
  'play/app.js',
  'play/app.css',
  'play/push-sw.js',
  'swagger/swagger-ui-bundle.js',
  'swagger/swagger-ui.css',
  'graphiql/graphiql.js',
  'graphiql/graphiql.css',
  'graphiql/editor.worker.js',
  'graphiql/json.worker.js',
  'graphiql/graphql.worker.js',
] as const;
export type StaticFileName = (typeof STATIC_FILE_NAMES)[number];

/**
 * The play page's policy: everything from this origin only, no inline script or style, no data: URL.
 * Workers (GraphiQL's editor) also come from this origin as files.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GraphiQL's and Swagger UI's policy: the same origin rule for every script, request and worker, with
 * two allowances their packaged code needs: inline styles (Monaco and Swagger UI write `<style>`
 * elements and style attributes as they run) and `data:` images and fonts (their own CSS embeds its
 * icons and fonts as data URLs). Neither reaches another host or runs code.
 */
export const TOOLS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  .replace("img-src 'self'", "img-src 'self' data:")
  .replace("font-src 'self'", "font-src 'self' data:");

const pageHeaders = (csp: string): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
});

/** The tab icon of every page: one tile. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="1" width="30" height="30" rx="5" fill="#f0d9a0" stroke="#a8894a"/><text x="14" y="23" font-family="DejaVu Sans, Verdana, sans-serif" font-size="20" font-weight="bold" text-anchor="middle" fill="#1b1b1b">A</text><text x="27" y="28" font-family="DejaVu Sans, Verdana, sans-serif" font-size="8" text-anchor="end" fill="#1b1b1b">1</text></svg>';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside a `<script type="application/json">` data block: never closes the element. */
const jsonData = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const page = (title: string, head: string, body: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">${head}</head><body>${body}</body></html>\n`;

export const PLAY_PAGE = page(
  'Arbiter — play',
  '<link rel="stylesheet" href="/play/app.css"><script src="/play/app.js" defer></script>',
  '<main id="app"><p>Loading the play page…</p></main><noscript>The play page needs JavaScript.</noscript>',
);

export const API_DOCS_PAGE = (openApiUrl: string): string =>
  page(
    'Arbiter REST API',
    '<link rel="stylesheet" href="/rest/docs/swagger-ui.css"><script src="/rest/docs/swagger-ui-bundle.js" defer></script><script src="/rest/docs/start.js" defer></script>',
    `<div id="swagger-ui"></div><script type="application/json" id="swagger-options">${jsonData({ url: openApiUrl })}</script>`,
  );

/** Starts Swagger UI from the options block of the page (no inline script: the CSP forbids it). */
const SWAGGER_START = `(function () {
  var options = JSON.parse(document.getElementById('swagger-options').textContent);
  window.ui = SwaggerUIBundle({ url: options.url, dom_id: '#swagger-ui', deepLinking: true });
})();
`;

/** GraphiQL (Yoga's build), its options in a data block; called by Yoga's `renderGraphiQL`. */
export const graphiqlPage = (options: unknown): string => {
  const title = (options as { title?: string } | null)?.title ?? 'GraphiQL';
  return page(
    title,
    '<link rel="stylesheet" href="/graphiql/graphiql.css">',
    `<div id="root"></div><script type="application/json" id="graphiql-options">${jsonData(options ?? {})}</script>` +
      '<script src="/graphiql/env.js"></script><script src="/graphiql/graphiql.js"></script><script src="/graphiql/start.js"></script>',
  );
};

/** Monaco (GraphiQL's editor) asks for its workers by label; they are files of this origin, not blob: URLs. */
const GRAPHIQL_ENV = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (_moduleId, label) {
    return { editorWorkerService: '/graphiql/editor.worker.js', json: '/graphiql/json.worker.js', graphql: '/graphiql/graphql.worker.js' }[label];
  },
};
`;
const GRAPHIQL_START = `YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), JSON.parse(document.getElementById('graphiql-options').textContent));
`;

const JS = 'text/javascript; charset=utf-8';

/** Routes → what they serve: a page, a script written here, or a file of `StaticFiles`. */
type Route = { readonly page: string; readonly csp: string } | { readonly inline: StaticFile } | { readonly file: StaticFileName };

const routes = (openApiUrl: string, docsPath: string): ReadonlyMap<string, Route> =>
  new Map<string, Route>([
    ['/play', { page: PLAY_PAGE, csp: CONTENT_SECURITY_POLICY }],
    ['/play/', { page: PLAY_PAGE, csp: CONTENT_SECURITY_POLICY }],
    ['/play/app.js', { file: 'play/app.js' }],
    ['/play/app.css', { file: 'play/app.css' }],
    // The push service worker (web/push-sw.ts) at the root, so that it may control the scope /play (a worker's scope is at most its own folder).
    ['/push-sw.js', { file: 'play/push-sw.js' }],
    ['/favicon.svg', { inline: { body: FAVICON_SVG, type: 'image/svg+xml' } }],
    [docsPath, { page: API_DOCS_PAGE(openApiUrl), csp: TOOLS_CONTENT_SECURITY_POLICY }],
    [`${docsPath}/start.js`, { inline: { body: SWAGGER_START, type: JS } }],
    [`${docsPath}/swagger-ui-bundle.js`, { file: 'swagger/swagger-ui-bundle.js' }],
    [`${docsPath}/swagger-ui.css`, { file: 'swagger/swagger-ui.css' }],
    ['/graphiql/env.js', { inline: { body: GRAPHIQL_ENV, type: JS } }],
    ['/graphiql/start.js', { inline: { body: GRAPHIQL_START, type: JS } }],
    ['/graphiql/graphiql.js', { file: 'graphiql/graphiql.js' }],
    ['/graphiql/graphiql.css', { file: 'graphiql/graphiql.css' }],
    ['/graphiql/editor.worker.js', { file: 'graphiql/editor.worker.js' }],
    ['/graphiql/json.worker.js', { file: 'graphiql/json.worker.js' }],
    ['/graphiql/graphql.worker.js', { file: 'graphiql/graphql.worker.js' }],
  ]);

const asset = (file: StaticFile): Response =>
  new Response(file.body, {
    headers: { 'content-type': file.type, 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' },
  });

/**
 * Serves the pages and their files before Yoga sees the request, and puts the CSP on GraphiQL (which
 * Yoga renders with `graphiqlPage`).
 */
export const usePages = (
  files: StaticFiles,
  paths: { readonly openApi: string; readonly docs: string; readonly graphql: string },
): Plugin => {
  const table = routes(paths.openApi, paths.docs);
  return {
    onRequest: async ({ url, request, endResponse }) => {
      const route = table.get(url.pathname);
      if (!route || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      if ('page' in route) return endResponse(new Response(route.page, { headers: pageHeaders(route.csp) }));
      if ('inline' in route) return endResponse(asset(route.inline));
      const file = await files(route.file);
      endResponse(file ? asset(file) : new Response('Not found: this server was built without the page’s files.', { status: 404 }));
    },
    onResponse: ({ request, response }) => {
      if (new URL(request.url).pathname !== paths.graphql) return;
      if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return;
      for (const [k, v] of Object.entries(pageHeaders(TOOLS_CONTENT_SECURITY_POLICY))) response.headers.set(k, v);
    },
  };
};
