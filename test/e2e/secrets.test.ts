/**
 * Hidden information (issue 4): no field, query, error message or REST route exposes another
 * player's rack, the bag seed or the bag order. The schema is introspected over HTTP and every
 * query field is asked for every field reachable from it (selection sets generated from the
 * introspection, to a bounded depth), as the opponent and as a spectator; then every REST route of
 * the OpenAPI document, and forbidden actions. The oracle is the true state read from the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTiles } from '../../engine/game/bag.js';
import { isGameEventType, type GameEvent } from '../../engine/game/events.js';
import { replay } from '../../engine/game/apply.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { joinTiles } from '../../engine/tiles.js';
import { DEFAULT_REQUEST_LIMITS } from '../../graph/armor.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { insertOrganization, setOrganizationDirector } from '../../store/organizations.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  act,
  asGame,
  CREATE_GAME,
  CREATE_MATCH,
  findPlay,
  graphql,
  readGame,
  registerPlayer,
  submit,
  type Action,
  type GameOrError,
  type Player,
} from './client.js';

const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;
const SEED = 'secrets-test-seed-do-not-leak-0123456789abcdef';
/** Each match game gets its own seed: with a shared seed one game's racks would repeat another's. */
const MATCH_SEED = 'secrets-test-match-seed-do-not-leak-fedcba9876543210';
let matchSeeds = 0;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface IField {
  name: string;
  args: { name: string; type: TypeRef; defaultValue: string | null }[];
  type: TypeRef;
}
interface IType {
  kind: string;
  name: string;
  fields: IField[] | null;
  possibleTypes: { name: string }[] | null;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const INTROSPECTION = `{ __schema { queryType { name } mutationType { name } types { kind name possibleTypes { name } fields { name args { name defaultValue type { ${TYPE_REF} } } type { ${TYPE_REF} } } } } }`;

const named = (t: TypeRef): string => t.name ?? named(t.ofType!);
const required = (t: TypeRef): boolean => t.kind === 'NON_NULL';

/**
 * Query fields that read nothing stored (they take no game): the walk may skip them when it cannot fill their
 * arguments. `adjudicate` has no required argument (the dispute is `input` or the deprecated `dispute`), so it
 * is walked and answers a ValidationError.
 */
const STATELESS = ['checkPlay'];

describe.each(STORE_TARGETS)('no response leaks a rack, the seed or the bag order, on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let bob: Player;
  let cat: Player;
  let gameId: string;
  let types: Map<string, IType>;
  let queryType: string;
  let bobExchanged: string;
  let tournamentId: string;
  let leagueGameIds: string[] = [];
  let matchId: string;
  let matchGameIds: string[];
  let challengeId: string;
  let seekId: string;

  beforeAll(async () => {
    // The walk aliases every field it reaches: lift the alias and token caps of graph/armor.ts along with the cost.
    api = await openTestApi(target, {
      limits: { maxDepth: 30, maxCost: 100_000_000, listFactor: 10 },
      requestLimits: { ...DEFAULT_REQUEST_LIMITS, maxAliases: 10_000, maxTokens: 1_000_000 },
    });
    setBagSeedSourceForTests(() => SEED);
    [ann, bob, cat] = [await registerPlayer(api, 'ann'), await registerPlayer(api, 'bob'), await registerPlayer(api, 'cat')];
    const g = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
    gameId = g.id;
    // A game in progress: a play, an exchange (its tiles are Bob's secret), a play, and Bob to move.
    await act(api, ann, gameId, { play: { move: findPlay(await readGame(api, ann, gameId), LEX, true)!.move } });
    bobExchanged = (await readGame(api, bob, gameId)).myRack!.slice(0, 3);
    await act(api, bob, gameId, { exchange: { tiles: bobExchanged } });
    await act(api, ann, gameId, { play: { move: findPlay(await readGame(api, ann, gameId), LEX, true)!.move } });
    // A match between the same two players, so the walk reaches `match` and its games' racks are secrets too.
    setBagSeedSourceForTests(() => `${MATCH_SEED}-${matchSeeds++}`);
    const match = await graphql<{ id: string; games: { game: { id: string } }[] }>(
      api,
      'createMatch',
      CREATE_MATCH,
      { input: { opponent: bob.handle } },
      ann.token,
    );
    matchId = match.id;
    matchGameIds = match.games.map((g) => g.game.id);
    // A challenge and a seek of the lobby (issue 33), so the walk reaches `challenge` and `seek` too.
    const challenge = await api.gql(
      `mutation($input: CreateChallengeInput!) { createChallenge(input: $input) { ... on Challenge { id } ... on Error { code message } } }`,
      { input: { opponent: ann.handle } },
      bob.token,
    );
    challengeId = (challenge.body.data!['createChallenge'] as { id: string }).id;
    const seek = await api.gql(
      `mutation($input: CreateSeekInput!) { createSeek(input: $input) { ... on Seek { id } ... on Error { code message } } }`,
      { input: {} },
      bob.token,
    );
    seekId = (seek.body.data!['createSeek'] as { id: string }).id;
    const schema = await api.gql(INTROSPECTION);
    const s = schema.body.data!['__schema'] as { queryType: { name: string }; types: IType[] };
    queryType = s.queryType.name;
    types = new Map(s.types.map((t) => [t.name, t]));
    // A public correspondence league of Ann and Bob with its game under way, so the walk reaches tournament,
    // tournamentDivision and tournamentRound, and that game's racks are secrets too.
    const dir = await registerPlayer(api, 'dir');
    const org = await insertOrganization(api.app.services.db.prisma, { kind: 'event', name: 'Secrets Open', createdBy: null });
    await setOrganizationDirector(api.app.services.db.prisma, org!.id, dir.id, true, null);
    const made = await api.gql(
      `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { ... on Tournament { id } ... on Error { code message } } }`,
      {
        input: {
          organizationId: org!.id,
          name: 'Secrets League',
          divisions: [
            {
              name: 'L',
              mode: 'CORRESPONDENCE',
              rounds: 1,
              method: 'ROUND_ROBIN',
              players: [
                { handle: 'ann', rating: 1800 },
                { handle: 'bob', rating: 1700 },
              ],
            },
          ],
        },
      },
      dir.token,
    );
    tournamentId = made.body.data!['createTournament'].id as string;
    for (const op of ['pairRound', 'startRound'])
      await api.gql(
        `mutation($t: ID!) { ${op}(tournamentId: $t, division: "L", round: 1) { __typename } }`,
        { t: tournamentId },
        dir.token,
      );
    const round = await api.gql(
      `query($t: ID!) { tournamentRound(tournamentId: $t, division: "L", round: 1) { ... on Round { pairings { gameId } } } }`,
      { t: tournamentId },
    );
    leagueGameIds = (round.body.data!['tournamentRound'].pairings as { gameId: string }[]).map((p) => p.gameId);
    expect(leagueGameIds).toHaveLength(1);
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await api?.close();
  });

  /** The truth, from the store: both racks, the seed, the next draws and the bag in its canonical order. */
  const oracle = async (id = gameId, expectedSeed: string | null = SEED) => {
    const db = api.app.services.db;
    const rows = await db.prisma.gameEvent.findMany({ where: { gameId: id }, orderBy: { seq: 'asc' } });
    const state = replay(rows.filter((r) => isGameEventType(r.type)).map((r) => r.payload as unknown as GameEvent));
    if (!state.ok) throw new Error(state.error.message);
    const seed = (await db.prisma.gameSecret.findUniqueOrThrow({ where: { gameId: id } })).bagSeed;
    if (expectedSeed !== null) expect(seed).toBe(expectedSeed);
    const s = state.value;
    const next = drawTiles(seed, s.drawCount, s.bag, 7).tiles;
    return { racks: [s.racks[0].tiles, s.racks[1].tiles] as const, seed, nextDraws: joinTiles(next), bag: joinTiles(s.bag) };
  };

  /** Every way a rack could be written: as the rack string, sorted, or as a JSON list. */
  const rackForms = (rack: readonly string[]): string[] => [joinTiles(rack), [...rack].sort().join(''), JSON.stringify(rack).slice(1, -1)];

  const forbiddenFor = async (viewer: 'opponent' | 'spectator'): Promise<string[]> => {
    const o = await oracle();
    const secrets = [o.seed, o.nextDraws, o.bag, `-${bobExchanged}`];
    // The opponent (Ann) must not see Bob's rack; a spectator sees neither.
    const hidden = viewer === 'opponent' ? [o.racks[1]] : [o.racks[0], o.racks[1]];
    // The match games: Ann holds seat 0 of each, Bob seat 1.
    for (const id of matchGameIds) {
      const m = await oracle(id, null);
      secrets.push(m.seed, m.nextDraws, m.bag);
      hidden.push(...(viewer === 'opponent' ? [m.racks[1]] : [m.racks[0], m.racks[1]]));
    }
    for (const id of leagueGameIds) {
      const l = await oracle(id, null);
      const annSeat = (await readGame(api, ann, id)).mySeat;
      secrets.push(l.seed, l.nextDraws, l.bag);
      hidden.push(...(viewer === 'opponent' ? [l.racks[annSeat === 0 ? 1 : 0]] : [l.racks[0], l.racks[1]]));
    }
    return [...new Set([...secrets, ...hidden.flatMap(rackForms)])];
  };

  const expectClean = (text: string, forbidden: readonly string[], what: string) => {
    for (const f of forbidden) expect(text.includes(f), `${what} contains "${f}"`).toBe(false);
  };

  // -------------------------------------------------------------------------------------------
  // Selection sets from the introspection

  const selection = (typeName: string, depth: number): string => {
    const t = types.get(typeName)!;
    if (t.kind === 'UNION' || t.kind === 'INTERFACE') {
      return `__typename ${(t.possibleTypes ?? []).map((p) => `... on ${p.name} { ${selection(p.name, depth)} }`).join(' ')}`;
    }
    const parts = ['__typename'];
    for (const f of t.fields ?? []) {
      if (f.args.some((a) => required(a.type) && a.defaultValue === null)) continue;
      const inner = types.get(named(f.type))!;
      // Aliases by type keep fields of the same name in different union members from conflicting.
      const alias = `${typeName}_${f.name}: ${f.name}`;
      if (inner.kind === 'SCALAR' || inner.kind === 'ENUM') parts.push(alias);
      else if (depth > 0) parts.push(`${alias} { ${selection(inner.name, depth - 1)} }`);
    }
    return parts.join(' ');
  };

  const ARGS: Readonly<Record<string, () => Record<string, unknown>>> = {
    game: () => ({ id: gameId }),
    gameRecord: () => ({ id: gameId }),
    ruleSet: () => ({ id: 'NSA_2008' }),
    match: () => ({ id: matchId }),
    checkWords: () => ({ words: ['QI'] }),
    // A game and a match by their ids as Nodes: the same views as game(id:) and match(id:).
    node: () => ({ id: gameId }),
    nodes: () => ({ ids: [gameId, matchId, ...matchGameIds] }),
    // Analysis of the live game: refused (ANALYSIS_NOT_ALLOWED) to both, so nothing of it may show.
    analyzePosition: () => ({ input: { gameId } }),
    gameAnalysis: () => ({ gameId }),
    // The league: its pairings name the game by id only; nothing of a rack may show.
    tournament: () => ({ id: tournamentId }),
    tournamentDivision: () => ({ tournamentId, division: 'L' }),
    tournamentRound: () => ({ tournamentId, division: 'L', round: 1 }),
    // The lobby and the players' pages (issue 33): the opponent's page lists the game in progress.
    challenge: () => ({ id: challengeId }),
    seek: () => ({ id: seekId }),
    playerProfile: () => ({ handle: bob.handle }),
    ratingHistory: () => ({ handle: bob.handle, category: 'tournament/correspondence' }),
    leaderboard: () => ({ category: 'tournament/correspondence' }),
  };

  // An input object is written as a GraphQL object literal (keys unquoted); everything else as JSON.
  const literal = (v: unknown): string =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? `{ ${Object.entries(v)
          .map(([k, x]) => `${k}: ${literal(x)}`)
          .join(', ')} }`
      : JSON.stringify(v);

  it('walks every query field and every field under it, as the opponent and as a spectator', async () => {
    const root = types.get(queryType)!;
    const asked: string[] = [];
    const skipped: string[] = [];
    for (const [who, viewer] of [
      [ann, 'opponent'],
      [cat, 'spectator'],
    ] as const) {
      const forbidden = await forbiddenFor(viewer);
      for (const f of root.fields!) {
        const needs = f.args.filter((a) => required(a.type) && a.defaultValue === null);
        const given = ARGS[f.name]?.() ?? {};
        if (needs.some((a) => !(a.name in given))) {
          skipped.push(f.name);
          continue;
        }
        const args = Object.entries(given);
        const argText = args.length ? `(${args.map(([k, v]) => `${k}: ${literal(v)}`).join(', ')})` : '';
        const inner = types.get(named(f.type))!;
        const body = inner.kind === 'SCALAR' || inner.kind === 'ENUM' ? '' : `{ ${selection(inner.name, 7)} }`;
        const r = await api.gql(`{ ${f.name}${argText} ${body} }`, {}, who.token);
        expect(r.body.errors, `${f.name} as ${viewer}: ${JSON.stringify(r.body.errors)}`).toBeUndefined();
        expectClean(JSON.stringify(r.body), forbidden, `${f.name} as ${viewer}`);
        asked.push(f.name);
      }
    }
    expect(asked).toEqual(
      expect.arrayContaining([
        'game',
        'gameRecord',
        'myGames',
        'me',
        'match',
        'myMatches',
        'node',
        'nodes',
        'tournament',
        'tournamentRound',
      ]),
    );
    expect([...new Set(skipped)].sort()).toEqual([...STATELESS].sort());
    // The walk did reach the game: Ann sees her own rack, Cat none.
    const o = await oracle();
    const mine = await api.gql(`query($id: ID!) { game(id: $id) { ... on Game { myRack } } }`, { id: gameId }, ann.token);
    expect(mine.body.data!['game'].myRack).toBe(joinTiles(o.racks[0]));
  });

  it('every REST route of the OpenAPI document, as the opponent and as a spectator', async () => {
    const doc = (await (await api.fetch('/rest/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; required?: boolean }[] }>>;
    };
    const paths = Object.entries(doc.paths);
    expect(paths.map(([p]) => p)).toEqual(
      expect.arrayContaining(['/game', '/game-record', '/my-games', '/create-game', '/join-game', '/submit-turn', '/import-game']),
    );
    const QUERY: Record<string, string> = { id: gameId, words: 'QI', first: '10' };
    const BODY: Record<string, unknown> = {
      '/join-game': { gameId },
      '/submit-turn': { input: { gameId, expectedVersion: 1, idempotencyKey: 'rest-k', action: { pass: true } } },
      '/rule-set': { id: 'NSA_2008' },
    };
    for (const [who, viewer] of [
      [ann, 'opponent'],
      [cat, 'spectator'],
    ] as const) {
      const forbidden = await forbiddenFor(viewer);
      for (const [path, methods] of paths) {
        for (const [method, op] of Object.entries(methods)) {
          const headers = { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' };
          let res: Response;
          if (method === 'get') {
            const q = new URLSearchParams((op.parameters ?? []).filter((p) => p.name in QUERY).map((p) => [p.name, QUERY[p.name]!]));
            res = await api.fetch(`/rest${path}${q.size ? `?${q}` : ''}`, { headers });
          } else {
            res = await api.fetch(`/rest${path}`, { method: method.toUpperCase(), headers, body: JSON.stringify(BODY[path] ?? {}) });
          }
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          expectClean(await res.text(), forbidden, `${method.toUpperCase()} /rest${path} as ${viewer}`);
        }
      }
    }
  });

  it('forbidden actions are refused with messages that leak nothing', async () => {
    const g = await readGame(api, bob, gameId);
    expect(g.isMyTurn).toBe(true);
    const o = await oracle();
    const annAttempts: Action[] = [{ pass: true }, { exchange: { tiles: 'QQ' } }, { play: { move: '8H QQ' } }, { challenge: {} }];
    for (const action of annAttempts) {
      const r = await submit(api, ann, gameId, g.version, action);
      expect(r.__typename, JSON.stringify(action)).not.toBe('Game');
      expectClean(JSON.stringify(r), await forbiddenFor('opponent'), `Ann's ${JSON.stringify(action)}`);
    }
    for (const action of [...annAttempts, { resign: true } as const]) {
      const r = await submit(api, cat, gameId, g.version, action);
      expect(r).toMatchObject({ code: 'NOT_SEATED' });
      expectClean(JSON.stringify(r), await forbiddenFor('spectator'), `Cat's ${JSON.stringify(action)}`);
    }
    // Wrong versions and unknown games say nothing about the racks either.
    const stale = await submit(api, ann, gameId, 1, { pass: true });
    expectClean(JSON.stringify(stale), await forbiddenFor('opponent'), 'a stale submission');
    expect((await readGame(api, bob, gameId)).version).toBe(g.version);
    expect(o.racks[1].length).toBe(7);
  });
});
