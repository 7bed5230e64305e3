/** Shared set-up for the lifecycle suites: players that act through API keys (which, unlike sign-in tokens, do not expire while a test moves the clock by days). */
import type { TestApi } from '../api/harness.js';
import { registerPlayer, type Player } from '../e2e/client.js';

export interface BotPlayer extends Player {
  readonly apiKeyId: string;
}

/** Registers `handle` and makes an API key with games:read and games:play; `token` is the key. */
export const botPlayer = async (api: TestApi, handle: string): Promise<BotPlayer> => {
  const p = await registerPlayer(api, handle);
  const r = await api.gql(
    `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key apiKey { id } } ... on Error { code message } } }`,
    { input: { name: `${handle}'s client`, scopes: ['games:read', 'games:play'] } },
    p.token,
  );
  const made = r.body.data?.['createApiKey'];
  if (made?.__typename !== 'NewApiKey') throw new Error(`createApiKey for ${handle}: ${JSON.stringify(r.body)}`);
  return { id: p.id, handle, token: made.key as string, apiKeyId: made.apiKey.id as string };
};
