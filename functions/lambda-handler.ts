import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import type { App } from './app.js';
import { flushEmf } from './observability/metrics.js';
import { observeRequest } from './observability/request-log.js';

/**
 * API Gateway HTTP API (payload v2) ⇄ Fetch: the event becomes a `Request` for the shared Yoga
 * instance, its `Response` becomes the proxy result. Kept apart from functions/graphql.ts (the entry
 * point, which builds the app at cold start) so tests can drive it with their own app.
 */

/** Content types sent as text; anything else is base64 (API Gateway decodes it). */
const TEXTUAL = /^(text\/|application\/(json|graphql-response\+json|javascript|xml|[\w.+-]*\+(json|xml))\b)/i;

/** The URL of the request, without the stage prefix a named stage adds to `rawPath`. */
export const eventUrl = (event: APIGatewayProxyEventV2): string => {
  const { stage, domainName } = event.requestContext;
  let path = event.rawPath || '/';
  if (stage && stage !== '$default' && (path === `/${stage}` || path.startsWith(`/${stage}/`))) path = path.slice(stage.length + 1) || '/';
  const host = domainName || event.headers['host'] || 'localhost';
  return `https://${host}${path}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
};

/**
 * The headers as plain pairs (names lower-cased, the last of a name kept, as `Headers#set` does), not a
 * `Headers`: Node's global fetch classes load its bundled undici on first touch (~10 ms of a cold start), and
 * Yoga makes its request from these with its own fetch classes anyway.
 */
export const eventToRequestInit = (event: APIGatewayProxyEventV2): RequestInit => {
  const method = event.requestContext.http.method.toUpperCase();
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) byName.set(name.toLowerCase(), value);
  if (event.cookies?.length) byName.set('cookie', event.cookies.join('; '));
  const headers = [...byName];
  const hasBody = event.body !== undefined && event.body !== null && method !== 'GET' && method !== 'HEAD';
  return {
    method,
    headers,
    ...(hasBody ? { body: event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body } : {}),
  };
};

export const responseToResult = async (response: Response): Promise<APIGatewayProxyStructuredResultV2> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, rawName) => {
    const name = rawName.toLowerCase(); // some Headers implementations keep the case they were given
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const textual = TEXTUAL.test(response.headers.get('content-type') ?? 'text/plain');
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: textual ? bytes.toString('utf8') : bytes.toString('base64'),
    isBase64Encoded: !textual,
  };
};

export type Handler = (event: APIGatewayProxyEventV2, context: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * A Lambda handler over the app `getApp` gives (built once, outside the handler). Each invocation is
 * one observed request (a log line, a span, the request metrics; functions/observability/) with API
 * Gateway's request id, and ends by writing this invocation's metrics as EMF lines.
 */
export const createHandler =
  (getApp: () => Promise<App>): Handler =>
  async (event, lambdaContext) => {
    const info = {
      requestId: event.requestContext?.requestId ?? lambdaContext.awsRequestId,
      method: event.requestContext?.http?.method ?? 'GET',
      path: new URL(eventUrl(event)).pathname,
      runtime: 'api',
    };
    try {
      return await observeRequest(
        info,
        async () => {
          const { yoga } = await getApp();
          return responseToResult(await yoga.fetch(eventUrl(event), eventToRequestInit(event), { event, lambdaContext }));
        },
        (result) => result.statusCode ?? 200,
      );
    } finally {
      flushEmf();
    }
  };
