/** API Gateway's event as the request Yoga sees (functions/lambda-handler.ts eventToRequestInit). */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, test } from 'vitest';
import { eventToRequestInit } from '../../functions/lambda-handler.js';

const event = (over: Partial<APIGatewayProxyEventV2> & { method?: string }): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: '/graphql',
    rawQueryString: '',
    isBase64Encoded: false,
    headers: {},
    requestContext: {
      http: { method: over.method ?? 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
    },
    ...over,
  }) as unknown as APIGatewayProxyEventV2;

/** What a Fetch request built from the init carries (Node's own Request here: the same rules as Yoga's). */
const asRequest = (e: APIGatewayProxyEventV2) => new Request('https://example.test/graphql', eventToRequestInit(e));

describe('eventToRequestInit', () => {
  test('headers keep their values under lower-case names, the last of a name winning, and an undefined one is left out', () => {
    const init = eventToRequestInit(
      event({ headers: { 'Content-Type': 'application/json', authorization: 'Bearer a', Authorization: 'Bearer b', 'x-none': undefined } }),
    );
    expect(init.headers).toEqual([
      ['content-type', 'application/json'],
      ['authorization', 'Bearer b'],
    ]);
  });

  test("API Gateway's cookies array becomes one cookie header, replacing any cookie header sent alongside", () => {
    const r = asRequest(event({ headers: { cookie: 'stale=1' }, cookies: ['a=1', 'b=2'] }));
    expect(r.headers.get('cookie')).toBe('a=1; b=2');
  });

  test('a base64 body is decoded; GET and HEAD carry none', async () => {
    const r = asRequest(event({ body: Buffer.from('{"query":"{ __typename }"}').toString('base64'), isBase64Encoded: true }));
    expect(await r.text()).toBe('{"query":"{ __typename }"}');
    expect(eventToRequestInit(event({ method: 'GET', body: 'ignored' })).body).toBeUndefined();
    expect(eventToRequestInit(event({ method: 'head', body: 'ignored' })).method).toBe('HEAD');
  });

  test('a header named like an object property is a header like any other', () => {
    const headers = JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string>;
    expect(eventToRequestInit(event({ headers })).headers).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    expect(asRequest(event({ headers })).headers.get('constructor')).toBe('y');
  });
});
