/**
 * The lobby's surface (issue 33): GraphQL fields and their typed errors, the /v1 routes and their statuses,
 * on every store target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

describe.each(STORE_TARGETS)('the lobby over GraphQL and REST on $kind', (target) => {
  let api: TestApi;
  let amy: { id: string; token: string };
  let bob: { id: string; token: string };
  let cat: { id: string; token: string };
  beforeAll(async () => {
    api = await openTestApi(target);
    [amy, bob, cat] = [await api.register('la-amy'), await api.register('la-bob'), await api.register('la-cat')];
  });
  afterAll(async () => {
    await api?.close();
  });

  const rest = (path: string, token: string | null, method = 'GET', body?: unknown) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it('createSeek and acceptSeek over GraphQL; seeks is open to anyone; the loser of the race gets a ConflictError', async () => {
    const created = await api.gql(
      `mutation { createSeek(input: { preset: WESPA, daysPerMove: 5, rated: true, ratingMax: 2000 }) { __typename ... on Seek { id state preset daysPerMove rated category ratingMax authorHandle } ... on Error { code message } } }`,
      {},
      amy.token,
    );
    const seek = created.body.data!['createSeek'];
    expect(seek).toMatchObject({
      __typename: 'Seek',
      state: 'OPEN',
      preset: 'WESPA',
      daysPerMove: 5,
      rated: true,
      ratingMax: 2000,
      authorHandle: 'la-amy',
    });
    const listed = await api.gql(
      `{ seeks(first: 5, filter: { preset: WESPA }) { edges { node { id authorHandle authorRating { rating } } } pageInfo { hasNextPage } } }`,
    );
    expect(listed.body.data!['seeks'].edges).toEqual([{ node: { id: seek.id, authorHandle: 'la-amy', authorRating: null } }]);
    const accept = (token: string) =>
      api.gql(
        `mutation($id: ID!) { acceptSeek(id: $id) { __typename ... on Game { id state } ... on Error { code } } }`,
        { id: seek.id },
        token,
      );
    const [a, b] = await Promise.all([accept(bob.token), accept(cat.token)]);
    const answers = [a.body.data!['acceptSeek'], b.body.data!['acceptSeek']];
    expect(answers.map((x) => x.__typename).sort()).toEqual(['ConflictError', 'Game']);
    expect(answers.find((x) => x.__typename === 'ConflictError').code).toBe('SEEK_TAKEN');
    const own = await api.gql(
      `mutation { createSeek(input: { daysPerMove: 30 }) { __typename ... on ValidationError { issues { field } } } }`,
      {},
      amy.token,
    );
    expect(own.body.data!['createSeek']).toEqual({ __typename: 'ValidationError', issues: [{ field: 'input.daysPerMove' }] });
  });

  it('REST: list, create, accept, withdraw with their statuses and problem codes', async () => {
    expect((await rest('/seeks', null, 'POST', { daysPerMove: 3 })).status).toBe(401);
    const made = await rest('/seeks', amy.token, 'POST', { daysPerMove: 3 });
    expect(made.status).toBe(201);
    const seek = (await made.json()) as { id: string; state: string };
    expect(made.headers.get('location')).toBe(`/v1/seeks/${seek.id}`);
    const page = (await (await rest('/seeks?first=10', null)).json()) as { items: { id: string }[] };
    expect(page.items.map((s) => s.id)).toContain(seek.id);
    const filtered = (await (await rest('/seeks?rated=true&daysPerMove=3&author=la-amy', null)).json()) as { items: { id: string }[] };
    expect(filtered.items).toEqual([]);
    const casual = (await (await rest('/seeks?rated=false&daysPerMove=3&author=la-amy', null)).json()) as { items: { id: string }[] };
    expect(casual.items.map((s) => s.id)).toEqual([seek.id]);
    const own = await rest(`/seeks/${seek.id}/accept`, amy.token, 'POST');
    expect([own.status, ((await own.json()) as { code: string }).code]).toEqual([422, 'SEEK_OWN']);
    const notMine = await rest(`/seeks/${seek.id}`, bob.token, 'DELETE');
    expect([notMine.status, ((await notMine.json()) as { code: string }).code]).toEqual([403, 'NOT_SEEK_AUTHOR']);
    const withdrawn = await rest(`/seeks/${seek.id}`, amy.token, 'DELETE');
    expect([withdrawn.status, ((await withdrawn.json()) as { state: string }).state]).toEqual([200, 'WITHDRAWN']);
    const late = await rest(`/seeks/${seek.id}/accept`, bob.token, 'POST');
    expect([late.status, ((await late.json()) as { code: string }).code]).toEqual([409, 'SEEK_WITHDRAWN']);
    const missing = await rest(`/seeks/00000000-0000-4000-8000-000000000000/accept`, bob.token, 'POST');
    expect(missing.status).toBe(404);
  });

  it('REST: a challenge accepted into a game, and a rematch of it asked for once', async () => {
    const made = await rest('/challenges', amy.token, 'POST', { opponent: 'la-bob', timeControl: { type: 'UNTIMED' } });
    expect(made.status).toBe(201);
    const challenge = (await made.json()) as { id: string; challenged: { handle: string } };
    expect(challenge.challenged.handle).toBe('la-bob');
    const listed = (await (await rest('/challenges', bob.token)).json()) as { items: { id: string }[] };
    expect(listed.items.map((c) => c.id)).toContain(challenge.id);
    const accepted = await rest(`/challenges/${challenge.id}/accept`, bob.token, 'POST');
    expect(accepted.status).toBe(201);
    const game = (await accepted.json()) as { id: string; version: number };
    const early = await rest(`/games/${game.id}/rematch`, amy.token, 'POST');
    expect([early.status, ((await early.json()) as { code: string }).code]).toEqual([409, 'GAME_NOT_ENDED']);
    const self = await rest('/challenges', amy.token, 'POST', { opponent: 'la-amy' });
    expect([self.status, ((await self.json()) as { code: string }).code]).toEqual([422, 'CHALLENGE_SELF']);
    const nobody = await rest('/challenges', amy.token, 'POST', { opponent: 'la-nobody' });
    expect([nobody.status, ((await nobody.json()) as { code: string }).code]).toEqual([422, 'PLAYER_NOT_FOUND']);
    const robot = await rest('/challenges', amy.token, 'POST', { opponent: 'robot:equity', rated: true });
    expect([robot.status, ((await robot.json()) as { code: string }).code]).toEqual([422, 'RATED_ROBOT']);
  });
});
