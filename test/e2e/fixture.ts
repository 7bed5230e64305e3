/**
 * Shared set-up for the end-to-end and lifecycle suites, so that each suite states only what it needs:
 * the API on a store target with bags drawn from fixed seeds (racks repeat from run to run), players
 * registered in a fixed order, roles set on the database as `arbiter director` does (no API call makes an
 * admin), API keys, and the opening every dispute suite starts from (the first mover exchanges two tiles).
 */
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { setRole, type Role } from '../../store/roles.js';
import { openTestApi, type StoreTarget, type TestApi } from '../api/harness.js';
import {
  asGame,
  CREATE_GAME,
  freshKey,
  graphql,
  readGame,
  registerPlayer,
  submit,
  type GameOrError,
  type GameView,
  type Player,
} from './client.js';

/** Bags drawn from `${prefix}-1-…`, `${prefix}-2-…`, one seed per game created, until {@link closeSuite}. */
export const seedBags = (prefix: string): void => {
  let n = 0;
  setBagSeedSourceForTests(() => `${prefix}-${++n}-0123456789abcdef`);
};

/** A suite's API on `target` with bags seeded from `seedPrefix` (see {@link seedBags}). */
export const openSuite = async (target: StoreTarget, seedPrefix: string, options?: Parameters<typeof openTestApi>[1]): Promise<TestApi> => {
  const api = await openTestApi(target, options);
  seedBags(seedPrefix);
  return api;
};

/** Undoes {@link openSuite}: the bag seeds go back to random and the database is dropped. */
export const closeSuite = async (api: TestApi | undefined): Promise<void> => {
  setBagSeedSourceForTests(null);
  await api?.close();
};

type Players<H extends readonly string[]> = { -readonly [K in keyof H]: Player };

/** Registers the handles one after another (ids and handle order are then the same every run). */
export const registerPlayers = async <const H extends readonly string[]>(api: TestApi, ...handles: H): Promise<Players<H>> => {
  const players: Player[] = [];
  for (const handle of handles) players.push(await registerPlayer(api, handle));
  return players as Players<H>;
};

/** What `arbiter director grant|revoke` does: the role is set on the database, not through the API. */
export const giveRole = async (api: TestApi, player: Player, role: Role): Promise<void> => {
  await setRole(api.app.services.db.prisma, player.handle, role);
};

const CREATE_API_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) {
  __typename ... on NewApiKey { key apiKey { id } } ... on Error { code message } } }`;

/** Makes `owner` an API key with `scopes`; its secret and id. */
export const createApiKey = async (
  api: TestApi,
  owner: Player,
  name: string,
  scopes: readonly string[],
): Promise<{ key: string; id: string }> => {
  const r = await api.gql(CREATE_API_KEY, { input: { name, scopes } }, owner.token);
  const made = r.body.data?.['createApiKey'];
  if (made?.__typename !== 'NewApiKey') throw new Error(`createApiKey for ${owner.handle}: ${JSON.stringify(r.body)}`);
  return { key: made.key as string, id: made.apiKey.id as string };
};

/** A mutation taking `input`, sent by `p` with a fresh idempotency key in the input; the field's answer. */
export const mutate = <T>(api: TestApi, p: Player, field: string, doc: string, input: Record<string, unknown>): Promise<T> =>
  graphql<T>(api, field, doc, { input: { idempotencyKey: freshKey(), ...input } }, p.token);

/** createGame as `creator`, expected to make a game. */
export const createGameAs = async (api: TestApi, creator: Player, input: Record<string, unknown>): Promise<GameView> =>
  asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input }, creator.token));

/**
 * On a new game between `creator` and `opponent`, whoever moves first exchanges the first two tiles of
 * its rack (a bracketed multi-letter tile left out): the mover, the other player, the game as the mover
 * saw it before, and the game after the exchange.
 */
export const exchangeFirst = async (
  api: TestApi,
  game: { readonly id: string; readonly whoseTurn: number | null; readonly mySeat: number | null },
  creator: Player,
  opponent: Player,
): Promise<{ mover: Player; other: Player; seen: GameView; after: GameView }> => {
  const [mover, other] = game.whoseTurn === game.mySeat ? [creator, opponent] : [opponent, creator];
  const seen = await readGame(api, mover, game.id);
  const tiles = seen.myRack!.replace(/\[[^\]]+\]/g, '').slice(0, 2);
  const after = asGame(await submit(api, mover, game.id, seen.version, { exchange: { tiles } }));
  return { mover, other, seen, after };
};
