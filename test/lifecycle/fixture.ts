/** Shared set-up for the lifecycle suites: players that act through API keys (which, unlike sign-in tokens, do not expire while a test moves the clock by days). */
import type { TestApi } from '../api/harness.js';
import { registerPlayer, type Player } from '../e2e/client.js';
import { createApiKey } from '../e2e/fixture.js';

export interface BotPlayer extends Player {
  readonly apiKeyId: string;
}

/** Registers `handle` and makes an API key with games:read and games:play; `token` is the key. */
export const botPlayer = async (api: TestApi, handle: string): Promise<BotPlayer> => {
  const p = await registerPlayer(api, handle);
  const { key, id } = await createApiKey(api, p, `${handle}'s client`, ['games:read', 'games:play']);
  return { id: p.id, handle, token: key, apiKeyId: id };
};
