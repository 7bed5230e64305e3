import ipaddr from 'ipaddr.js';

/**
 * The address a request comes from, for the per-address limits (issue 15). Taken from what the platform
 * measured, never from what the client says: API Gateway's `requestContext.http.sourceIp` on Lambda, the
 * socket's peer on the local server. `X-Forwarded-For` is read only when `trustedProxies` (the
 * `ARBITER_TRUST_PROXY` setting) says how many proxies in front of that peer append to it: the client is
 * then the entry that many places from the right; anything further left was written by the client.
 */

/** The parts of Yoga's server context this reads: the Lambda event (functions/lambda-handler.ts) or Node's request. */
export interface ServerContextLike {
  readonly request: Request;
  readonly event?: { readonly requestContext?: { readonly http?: { readonly sourceIp?: string } } };
  readonly req?: { readonly socket?: { readonly remoteAddress?: string | undefined } };
}

/**
 * The key an address is limited under: IPv4 as is (a mapped ::ffff:a.b.c.d too), IPv6 by its /64, since
 * one subscriber is handed a whole /64 and could walk through it. Null for what is not an address.
 */
export const addressKey = (text: string | undefined | null): string | null => {
  if (!text) return null;
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.process(text.trim().replace(/^\[|\]$/g, ''));
  } catch {
    return null;
  }
  if (a.kind() === 'ipv4') return a.toString();
  const prefix = (a as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(prefix).toString()}/64`;
};

/** The client's address key, or null when none is known (an in-process call, as tests make). */
export const clientAddress = (context: ServerContextLike, trustedProxies: number): string | null => {
  const peer = context.event?.requestContext?.http?.sourceIp ?? context.req?.socket?.remoteAddress ?? null;
  if (trustedProxies > 0) {
    const forwarded = (context.request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const client = forwarded[forwarded.length - trustedProxies];
    if (client !== undefined) return addressKey(client);
  }
  return addressKey(peer);
};

/** `ARBITER_TRUST_PROXY`: how many proxies in front of the server append to X-Forwarded-For (default 0: ignore the header). */
export const trustedProxiesFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): number => {
  const value = env['ARBITER_TRUST_PROXY'];
  if (value === undefined || value === '') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10)
    throw new Error(`ARBITER_TRUST_PROXY must be a number of proxies from 0 to 10, not "${value}"`);
  return n;
};
