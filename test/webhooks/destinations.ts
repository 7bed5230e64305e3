/**
 * Destinations a webhook must never reach (issue 15, deliverable 1), with what creation answers for each
 * under the production policy and the stub DNS below: the table of test/webhooks/destination.test.ts and
 * of the hostile-input bench (bench/security.ts).
 */
import { PUBLIC_ADDRESS } from './fixture.js';

/** Names and what the stub DNS answers for them. */
export const DNS: Record<string, string[]> = {
  'private.example': ['10.0.0.7'],
  'mixed.example': [PUBLIC_ADDRESS, '127.0.0.1'],
  'mixed6.example': ['2606:2800:220:1::1', 'fd00::1'],
  'meta.example': ['169.254.169.254'],
  'ecs-creds.example': ['169.254.170.2'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'cgnat.example': ['100.100.100.100'],
  'empty.example': [],
  'public6.example': ['2606:4700::1111'],
};
/** [url, what creation answers: the error code, and for WEBHOOK_URL_FORBIDDEN the reason]. */
export const HOSTILE_DESTINATIONS: readonly (readonly [string, string])[] = [
  // The cloud's metadata and credentials endpoints
  ['https://169.254.169.254/latest/meta-data/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://169.254.170.2/v2/credentials', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://[::ffff:a9fe:a9fe]/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://[64:ff9b::a9fe:a9fe]/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://[fe80::1]/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://[fe80::1%25eth0]/', 'WEBHOOK_URL_INVALID'], // a zone id: not a URL host at all
  // Loopback in every spelling
  ['https://127.0.0.1/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://127.1/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://127.0.1/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://0x7f000001/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://0x7f.1/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://2130706433/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://017700000001/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://0177.0.0.1/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://127.0.0.1./', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://127.255.255.254:8443/x', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://[::1]/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://[0:0:0:0:0:0:0:1]/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://[::ffff:127.0.0.1]/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://[::7f00:1]/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`], // IPv4-compatible
  ['https://[2002:7f00:1::1]/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`], // 6to4 of 127.0.0.1
  ['https://localhost/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['https://LOCALHOST./', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['https://api.localhost/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['http://127.0.0.1:9001/', 'WEBHOOK_URL_NOT_HTTPS'],
  // Private, CGNAT, unique-local
  ['https://10.0.0.5/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://10.255.255.255/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://172.16.0.1/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://172.31.255.254/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://192.168.1.1/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://0xc0a80101/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://[::ffff:10.0.0.1]/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://[2002:c0a8:101::]/', `WEBHOOK_URL_FORBIDDEN PRIVATE`], // 6to4 of 192.168.1.1
  ['https://100.64.0.1/', `WEBHOOK_URL_FORBIDDEN CGNAT`],
  ['https://100.127.255.255/', `WEBHOOK_URL_FORBIDDEN CGNAT`],
  ['https://[fc00::1]/', `WEBHOOK_URL_FORBIDDEN UNIQUE_LOCAL`],
  ['https://[fd12:3456::1]/', `WEBHOOK_URL_FORBIDDEN UNIQUE_LOCAL`],
  // Unspecified, broadcast, multicast, reserved, benchmarking, documentation
  ['https://0.0.0.0/', `WEBHOOK_URL_FORBIDDEN UNSPECIFIED`],
  ['https://0/', `WEBHOOK_URL_FORBIDDEN UNSPECIFIED`],
  ['https://[::]/', `WEBHOOK_URL_FORBIDDEN UNSPECIFIED`],
  ['https://255.255.255.255/', `WEBHOOK_URL_FORBIDDEN BROADCAST`],
  ['https://224.0.0.1/', `WEBHOOK_URL_FORBIDDEN MULTICAST`],
  ['https://[ff02::1]/', `WEBHOOK_URL_FORBIDDEN MULTICAST`],
  ['https://240.0.0.1/', `WEBHOOK_URL_FORBIDDEN RESERVED`],
  ['https://192.0.0.8/', `WEBHOOK_URL_FORBIDDEN RESERVED`],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', `WEBHOOK_URL_FORBIDDEN RESERVED`], // Teredo
  ['https://[100::1]/', `WEBHOOK_URL_FORBIDDEN RESERVED`],
  ['https://198.18.0.1/', `WEBHOOK_URL_FORBIDDEN BENCHMARKING`],
  ['https://198.19.255.255/', `WEBHOOK_URL_FORBIDDEN BENCHMARKING`],
  ['https://[2001:2::1]/', `WEBHOOK_URL_FORBIDDEN BENCHMARKING`],
  ['https://192.0.2.1/', `WEBHOOK_URL_FORBIDDEN DOCUMENTATION`],
  ['https://198.51.100.7/', `WEBHOOK_URL_FORBIDDEN DOCUMENTATION`],
  ['https://203.0.113.9/', `WEBHOOK_URL_FORBIDDEN DOCUMENTATION`],
  ['https://[2001:db8::1]/', `WEBHOOK_URL_FORBIDDEN DOCUMENTATION`],
  // Local names, whatever DNS would say
  ['https://metadata.google.internal/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['https://ip-10-0-0-1.ec2.internal/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['https://printer.local/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  ['https://router.home.arpa/', `WEBHOOK_URL_FORBIDDEN LOCAL_NAME`],
  // Names through the stubbed DNS: private, mixed (one bad address is enough), embedded forms, nothing
  ['https://private.example/', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://private.example./', `WEBHOOK_URL_FORBIDDEN PRIVATE`],
  ['https://mixed.example/hook', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://mixed6.example/', `WEBHOOK_URL_FORBIDDEN UNIQUE_LOCAL`],
  ['https://meta.example/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://ecs-creds.example/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://mapped.example/', `WEBHOOK_URL_FORBIDDEN LOOPBACK`],
  ['https://nat64.example/', `WEBHOOK_URL_FORBIDDEN LINK_LOCAL`],
  ['https://cgnat.example/', `WEBHOOK_URL_FORBIDDEN CGNAT`],
  ['https://empty.example/', `WEBHOOK_URL_FORBIDDEN UNRESOLVABLE`],
  ['https://nowhere.example/', `WEBHOOK_URL_FORBIDDEN UNRESOLVABLE`],
];
