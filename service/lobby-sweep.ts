import type { ServiceDeps } from './context.js';
import { sweepExpiredOAuthRecords } from './oauth-sweep.js';
import { sweepPairing } from './pairing-requests.js';
import { expireOpenSeeks } from './seeks.js';

/**
 * The lobby's sweep (docs/lobby.md), run with the robot sweep (service/robot-worker.ts every 30 s in-process;
 * on AWS the robot Lambda's schedule, functions/robots.ts): closes the seeks whose expiry has passed (each
 * announced once on the seek stream), then offers robots and pairs what the pairing requests missed. Answers
 * the games paired. The authorization server's expired records are deleted last (service/oauth-sweep.ts):
 * this is the one periodic run both the local server and AWS have, and a failure there pairs no game less.
 */
export async function sweepLobby(deps: ServiceDeps): Promise<number> {
  await expireOpenSeeks(deps);
  const paired = await sweepPairing(deps);
  await sweepExpiredOAuthRecords(deps);
  return paired;
}
