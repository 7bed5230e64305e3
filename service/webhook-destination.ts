import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { err, ok, type Result } from '../engine/result.js';
import { webhookError, type WebhookError } from './webhook-errors.js';

/**
 * Where a webhook may be sent (issue 15, server-side request forgery). A subscriber names a URL; the
 * sender runs inside the VPC, next to the database proxy and the cloud's metadata and credentials
 * endpoints, so a URL that reaches inside would turn the sender into the subscriber's proxy. Every
 * destination is checked at creation *and* at every delivery: the host is resolved, every address it
 * resolves to must be a public unicast address, and the delivery then connects to the very address
 * that was checked (`pinnedFetch`), so a name whose answer changes between check and connection
 * (DNS rebinding) cannot slip through. Redirects are never followed.
 */

/** Why a destination is refused; named in WEBHOOK_URL_FORBIDDEN's `details.reason`, never with the address. */
export const FORBIDDEN_REASONS = {
  LOOPBACK: 'a loopback address',
  PRIVATE: 'a private-network address (RFC 1918)',
  CGNAT: 'a carrier-grade NAT address (RFC 6598)',
  LINK_LOCAL: 'a link-local address (this includes the cloud metadata and credentials endpoints)',
  UNIQUE_LOCAL: 'a unique-local IPv6 address',
  MULTICAST: 'a multicast address',
  BROADCAST: 'the broadcast address',
  UNSPECIFIED: 'an unspecified address (0.0.0.0 or ::)',
  RESERVED: 'a reserved or non-global address',
  BENCHMARKING: 'a benchmarking address (198.18.0.0/15, 2001:2::/48)',
  DOCUMENTATION: 'a documentation address',
  LOCAL_NAME: 'a local host name (localhost, .local, .internal …)',
  UNRESOLVABLE: 'a name that does not resolve',
} as const;
export type ForbiddenReason = keyof typeof FORBIDDEN_REASONS;

type Range = readonly [cidr: string, reason: ForbiddenReason | 'EMBEDS_IPV4'];

/** IPv4 ranges a webhook may not reach; the first match wins (broadcast before 240/4). Everything else is public. */
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0/8', 'UNSPECIFIED'],
  ['10.0.0.0/8', 'PRIVATE'],
  ['100.64.0.0/10', 'CGNAT'],
  ['127.0.0.0/8', 'LOOPBACK'],
  ['169.254.0.0/16', 'LINK_LOCAL'],
  ['172.16.0.0/12', 'PRIVATE'],
  ['192.0.0.0/24', 'RESERVED'],
  ['192.0.2.0/24', 'DOCUMENTATION'],
  ['192.88.99.0/24', 'RESERVED'],
  ['192.168.0.0/16', 'PRIVATE'],
  ['198.18.0.0/15', 'BENCHMARKING'],
  ['198.51.100.0/24', 'DOCUMENTATION'],
  ['203.0.113.0/24', 'DOCUMENTATION'],
  ['224.0.0.0/4', 'MULTICAST'],
  ['255.255.255.255/32', 'BROADCAST'],
  ['240.0.0.0/4', 'RESERVED'],
];

/**
 * IPv6 ranges; only global unicast (2000::/3) outside these is allowed. The forms that carry an IPv4
 * address (mapped, compatible, NAT64, 6to4) are judged by the IPv4 address they carry.
 */
const IPV6_RANGES: readonly Range[] = [
  ['::/128', 'UNSPECIFIED'],
  ['::1/128', 'LOOPBACK'],
  ['::ffff:0:0/96', 'EMBEDS_IPV4'],
  ['::/96', 'EMBEDS_IPV4'],
  ['64:ff9b::/96', 'EMBEDS_IPV4'],
  ['64:ff9b:1::/48', 'PRIVATE'],
  ['100::/64', 'RESERVED'],
  ['2001::/32', 'RESERVED'], // Teredo: the tunnel endpoint is not ours to check
  ['2001:2::/48', 'BENCHMARKING'],
  ['2001:10::/28', 'RESERVED'],
  ['2001:20::/28', 'RESERVED'],
  ['2001:db8::/32', 'DOCUMENTATION'],
  ['3fff::/20', 'DOCUMENTATION'],
  ['2002::/16', 'EMBEDS_IPV4'],
  ['fc00::/7', 'UNIQUE_LOCAL'],
  ['fe80::/10', 'LINK_LOCAL'],
  ['fec0::/10', 'PRIVATE'],
  ['ff00::/8', 'MULTICAST'],
];

const parsedRanges = (ranges: readonly Range[]) => ranges.map(([cidr, reason]) => ({ range: ipaddr.parseCIDR(cidr), reason }));
const V4 = parsedRanges(IPV4_RANGES);
const V6 = parsedRanges(IPV6_RANGES);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The IPv4 address an IPv6 address carries: the last 32 bits, or bits 16–48 for 6to4 (2002::/16). */
const embeddedIpv4 = (a: ipaddr.IPv6): ipaddr.IPv4 => {
  const p = a.parts;
  const [hi, lo] = p[0] === 0x2002 ? [p[1]!, p[2]!] : [p[6]!, p[7]!];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
};

/** Why `address` may not be reached, or null for a public unicast address. Any spelling ipaddr.js parses; unparsable is RESERVED. */
export const classifyAddress = (address: string): ForbiddenReason | null => {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.parse(address);
  } catch {
    return 'RESERVED';
  }
  if (a.kind() === 'ipv4') {
    const v4 = a as ipaddr.IPv4;
    const hit = V4.find(({ range }) => v4.match(range as [ipaddr.IPv4, number]));
    return (hit?.reason as ForbiddenReason | undefined) ?? null;
  }
  const v6 = a as ipaddr.IPv6;
  if (v6.zoneId !== undefined) return 'LINK_LOCAL'; // a zone id only means something on a local link
  const hit = V6.find(({ range }) => v6.match(range as [ipaddr.IPv6, number]));
  if (hit?.reason === 'EMBEDS_IPV4') return classifyAddress(embeddedIpv4(v6).toString());
  if (hit) return hit.reason;
  return v6.match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]) ? null : 'RESERVED';
};

/** Names that mean "this machine" or "this network" whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/;

/** Development only: what `allowLocal` lets through (still never metadata, multicast and the like). */
const LOCAL_REASONS: ReadonlySet<ForbiddenReason> = new Set(['LOOPBACK', 'PRIVATE', 'UNIQUE_LOCAL', 'CGNAT', 'LOCAL_NAME']);

/** Resolves a host name to every address it has (as getaddrinfo would for a connection). */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface DestinationPolicy {
  /**
   * Development only (`ARBITER_WEBHOOK_ALLOW_LOCAL=1`): allows `http:` and loopback, private, unique-local
   * and CGNAT addresses and local names, for a receiver on the developer's machine or network. Link-local
   * (metadata), multicast, reserved and documentation addresses stay refused. Refused on Lambda.
   */
  readonly allowLocal: boolean;
  readonly resolve: Resolver;
}

export const ALLOW_LOCAL_ENV = 'ARBITER_WEBHOOK_ALLOW_LOCAL';

/** The policy of this deployment: strict, resolving with the system resolver, unless the development setting is on (never on Lambda). */
export const destinationPolicyFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): DestinationPolicy => {
  const allowLocal = env[ALLOW_LOCAL_ENV] === '1' || env[ALLOW_LOCAL_ENV] === 'true';
  if (allowLocal && env['AWS_LAMBDA_FUNCTION_NAME']) {
    throw new Error(`${ALLOW_LOCAL_ENV} is a development setting and is refused on Lambda: webhooks there reach public addresses only.`);
  }
  return { allowLocal, resolve: systemResolver };
};

/** A destination that passed: connect to `address` (never re-resolve), send `Host`/SNI for the URL's host. */
export interface CheckedDestination {
  readonly url: string;
  readonly address: string;
  readonly family: 4 | 6;
}

/** The refusal, naming the host the subscriber wrote (a name) but never an address it resolved to. */
const forbidden = (reason: ForbiddenReason, name: string | null): WebhookError => {
  const what = FORBIDDEN_REASONS[reason];
  const subject =
    name === null
      ? `The url's host is ${what}`
      : `The url's host "${name}" ${reason === 'UNRESOLVABLE' || reason === 'LOCAL_NAME' ? 'is' : 'resolves to'} ${what}`;
  return webhookError('WEBHOOK_URL_FORBIDDEN', 'url', `${subject}; webhooks are sent to public addresses only.`, { reason });
};

/**
 * Checks `url` (already syntax-checked: absolute, http(s), no credentials) against `policy`: resolves
 * its host and refuses it when it is a local name or *any* of its addresses is not public. Answers the
 * first address to connect to.
 */
export const checkDestination = async (url: string, policy: DestinationPolicy): Promise<Result<CheckedDestination, WebhookError>> => {
  const parsed = new URL(url);
  // WHATWG URL parsing has already turned 127.1, 0x7f000001, 2130706433, 0177.0.0.1 into 127.0.0.1.
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname.replace(/\.+$/, '').toLowerCase();
  const allowed = (reason: ForbiddenReason | null) => reason === null || (policy.allowLocal && LOCAL_REASONS.has(reason));
  const literal = ipaddr.isValid(host);
  let addresses: readonly string[];
  if (literal) {
    addresses = [host];
  } else {
    if (LOCAL_NAME.test(host) && !allowed('LOCAL_NAME')) return err(forbidden('LOCAL_NAME', host));
    try {
      addresses = await policy.resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return err(forbidden('UNRESOLVABLE', host));
  }
  for (const address of addresses) {
    const reason = classifyAddress(address);
    if (!allowed(reason)) return err(forbidden(reason!, literal ? null : host));
  }
  const first = ipaddr.parse(addresses[0]!);
  return ok({ url: parsed.toString(), address: first.toString(), family: first.kind() === 'ipv4' ? 4 : 6 });
};

/** A `lookup` that answers the checked address whatever name it is asked for: the connection goes where the check said. */
export const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** What `pinnedFetch` needs besides fetch's own arguments. */
export interface PinnedInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly signal: AbortSignal;
  readonly destination: CheckedDestination;
}

/**
 * POSTs over node:http(s) to the checked address (a custom `lookup`, so no second DNS answer is ever
 * used), with the URL's host name for `Host`, TLS SNI and certificate checks. Redirects are answered
 * as they are (a 3xx is a failed attempt), never followed.
 */
export const pinnedFetch = (url: string, init: PinnedInit): Promise<Response> =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: init.method,
      headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
      lookup: pinnedLookup(init.destination.address, init.destination.family),
      signal: init.signal,
    });
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) {
        res.destroy();
        reject(new Error(`unexpected HTTP status ${status}`));
        return;
      }
      const body = status === 204 || status === 205 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
