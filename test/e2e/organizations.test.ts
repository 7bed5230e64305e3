/**
 * Directors per club or event (issue 14, item 4) over HTTP, on PGlite and on Postgres: an admin makes
 * clubs and events and grants their director role; a game is placed under one when it is created; a
 * director of that organization rules on its disputes only (the ruling attributed to the director and the
 * organization in the log), while a global director rules anywhere; the refusals name why. REST routes too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { ERROR_FIELDS, graphql, type Player } from './client.js';
import { closeSuite, exchangeFirst, giveRole, mutate, openSuite, registerPlayers } from './fixture.js';

const ORG = `id kind name directors`;
const CREATE_ORG = `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { __typename ... on Organization { ${ORG} } ${ERROR_FIELDS} } }`;
const GRANT = `mutation($h: String!, $o: ID) { grantDirector(handle: $h, organization: $o) { __typename ... on RoleGrant { handle role organization { ${ORG} } } ${ERROR_FIELDS} } }`;
const REVOKE = `mutation($h: String!, $o: ID) { revokeDirector(handle: $h, organization: $o) { __typename ... on RoleGrant { handle role organization { name directors } } ${ERROR_FIELDS} } }`;
const LIST = `query { organizations { ${ORG} } }`;
const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename
  ... on Game { id version whoseTurn mySeat organization { id name kind } } ${ERROR_FIELDS} } }`;
const GAME_ORG = `query($id: ID!) { game(id: $id) { ... on Game { organization { name } } } }`;
const RECORDED = `mutation($input: CreateRecordedGameInput!) { createRecordedGame(input: $input) { __typename ... on Game { organization { name } } ${ERROR_FIELDS} } }`;
const AFTER = `... on FiledDispute { dispute { status ruling { code directorId } } game { version } } ${ERROR_FIELDS}`;
const FILE = `mutation($input: FileDisputeInput!) { fileDispute(input: $input) { __typename ${AFTER} } }`;
const APPEAL = `mutation($input: AppealDisputeInput!) { appealDispute(input: $input) { __typename ${AFTER} } }`;
const RULE = `mutation($input: RuleOnDisputeInput!) { ruleOnDispute(input: $input) { __typename ${AFTER} } }`;

interface Org {
  __typename?: string;
  id: string;
  kind: string;
  name: string;
  directors: string[];
  code?: string;
}
interface After {
  __typename: string;
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
  dispute: { status: string; ruling: { code: string; directorId: string | null } | null };
  game: { version: number };
}
interface Created {
  __typename: string;
  id: string;
  version: number;
  whoseTurn: number;
  mySeat: number;
  organization: { id: string; name: string; kind: string } | null;
  code?: string;
}

describe.each(STORE_TARGETS)('directors per club or event on $kind', (target) => {
  let api: TestApi;
  let ann: Player, ben: Player, dee: Player, fay: Player, gus: Player, admin: Player;
  let club: Org;
  let event: Org;
  beforeAll(async () => {
    api = await openSuite(target, 'e2e-orgs-seed');
    [ann, ben, dee, fay, gus, admin] = await registerPlayers(api, 'ann', 'ben', 'dee', 'fay', 'gus', 'eve');
    await giveRole(api, admin, 'admin');
  });
  afterAll(() => closeSuite(api));

  const call = (p: Player, op: string, query: string, input: Record<string, unknown>) => mutate<After>(api, p, op, query, input);

  /** A game (under `organization`, if given) where the first mover exchanged and was penalised 30 for overtime, then appealed (dispute 1, APPEALED). */
  const appealedGame = async (organization?: string) => {
    const g = await graphql<Created>(
      api,
      'createGame',
      CREATE_GAME,
      { input: { opponent: ben.handle, preset: 'NSA_2008', ...(organization ? { organization } : {}) } },
      ann.token,
    );
    expect(g.__typename).toBe('Game');
    const { mover, other, seen, after } = await exchangeFirst(api, g, ann, ben);
    const filed = await call(other, 'fileDispute', FILE, {
      gameId: g.id,
      expectedVersion: after.version,
      dispute: { kind: 'overtime', concerns: seen.version + 1, facts: { secondsOver: 125 } },
    });
    const appealed = await call(mover, 'appealDispute', APPEAL, { gameId: g.id, dispute: 1, expectedVersion: filed.game.version });
    expect(appealed.dispute.status).toBe('APPEALED');
    return { game: g, version: appealed.game.version };
  };
  const rule = (p: Player, gameId: string, version: number) =>
    call(p, 'ruleOnDispute', RULE, { gameId, dispute: 1, expectedVersion: version, ruling: { remedy: 'NO_PENALTY', note: 'Dismissed.' } });

  it('an admin makes clubs and events and grants their director role; the list is public', async () => {
    const make = (p: Player, input: Record<string, unknown>) => graphql<Org>(api, 'createOrganization', CREATE_ORG, { input }, p.token);
    expect(await make(ann, { kind: 'CLUB', name: 'Riverside' })).toMatchObject({ code: 'NOT_ADMIN' });
    club = await make(admin, { kind: 'CLUB', name: 'Riverside' });
    event = await make(admin, { kind: 'EVENT', name: 'Nationals 2026' });
    expect(club).toMatchObject({ __typename: 'Organization', kind: 'CLUB', name: 'Riverside', directors: [] });
    expect(await make(admin, { kind: 'CLUB', name: 'Riverside' })).toMatchObject({ code: 'ORGANIZATION_EXISTS' });
    // The same name may be a club and an event.
    expect(await make(admin, { kind: 'EVENT', name: 'Riverside' })).toMatchObject({ kind: 'EVENT', name: 'Riverside' });

    expect(await graphql(api, 'grantDirector', GRANT, { h: dee.handle, o: club.id }, ann.token)).toMatchObject({ code: 'NOT_ADMIN' });
    expect(
      await graphql(api, 'grantDirector', GRANT, { h: dee.handle, o: '00000000-0000-0000-0000-000000000000' }, admin.token),
    ).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
    expect(await graphql(api, 'grantDirector', GRANT, { h: dee.handle, o: club.id }, admin.token)).toMatchObject({
      handle: 'dee',
      role: 'DIRECTOR',
      organization: { name: 'Riverside', directors: ['dee'] },
    });
    expect(await graphql(api, 'grantDirector', GRANT, { h: fay.handle, o: event.id }, admin.token)).toMatchObject({
      organization: { name: 'Nationals 2026', directors: ['fay'] },
    });
    // The global role is untouched by a grant in a club.
    expect((await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { handle: 'dee' } })).role).toBe('player');

    const listed = await graphql<Org[]>(api, 'organizations', LIST, {});
    expect(listed.map((o) => [o.kind, o.name, o.directors])).toEqual([
      ['CLUB', 'Riverside', ['dee']],
      ['EVENT', 'Nationals 2026', ['fay']],
      ['EVENT', 'Riverside', []],
    ]);
  });

  it('a game under a club: its director rules, attributed with the club; others are refused, naming why', async () => {
    expect(
      await graphql<Created>(
        api,
        'createGame',
        CREATE_GAME,
        { input: { opponent: ben.handle, organization: '00000000-0000-0000-0000-000000000000' } },
        ann.token,
      ),
    ).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
    const { game, version } = await appealedGame(club.id);
    expect(game.organization).toEqual({ id: club.id, name: 'Riverside', kind: 'CLUB' });
    // Both players see it on the game.
    expect(await graphql(api, 'game', GAME_ORG, { id: game.id }, ben.token)).toEqual({ organization: { name: 'Riverside' } });

    expect(await rule(gus, game.id, version)).toMatchObject({ code: 'NOT_DIRECTOR', details: { reason: 'NOT_A_DIRECTOR' } });
    const other = await rule(fay, game.id, version);
    expect(other).toMatchObject({ code: 'NOT_DIRECTOR', details: { reason: 'NOT_DIRECTOR_OF_ORGANIZATION', organizationId: club.id } });
    expect(other.message).toContain('Riverside');

    const ruled = await rule(dee, game.id, version);
    expect(ruled.dispute).toMatchObject({ status: 'RULED', ruling: { code: 'NO_PENALTY', directorId: dee.id } });
    const events = await api.app.services.db.prisma.gameEvent.findMany({
      where: { gameId: game.id, type: 'ruling-applied' },
      orderBy: { seq: 'asc' },
    });
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ by: null }),
      expect.objectContaining({ by: dee.id, organization: club.id }),
    ]);
  });

  it('a game under no organization is for global directors only; a revoked club director is refused', async () => {
    const plain = await appealedGame();
    expect(plain.game.organization).toBeNull();
    expect(await rule(dee, plain.game.id, plain.version)).toMatchObject({
      code: 'NOT_DIRECTOR',
      details: { reason: 'GAME_HAS_NO_ORGANIZATION' },
    });
    // A global director (and an admin) still rules anywhere, attributed without an organization.
    await giveRole(api, gus, 'director');
    expect((await rule(gus, plain.game.id, plain.version)).dispute.ruling).toMatchObject({ directorId: gus.id });
    const payload = (
      await api.app.services.db.prisma.gameEvent.findFirstOrThrow({
        where: { gameId: plain.game.id, type: 'ruling-applied' },
        orderBy: { seq: 'desc' },
      })
    ).payload as Record<string, unknown>;
    expect(payload['organization']).toBeUndefined();
    const underClub = await appealedGame(club.id);
    expect((await rule(admin, underClub.game.id, underClub.version)).dispute.status).toBe('RULED');

    expect(await graphql(api, 'revokeDirector', REVOKE, { h: dee.handle, o: club.id }, admin.token)).toMatchObject({
      role: 'PLAYER',
      organization: { name: 'Riverside', directors: [] },
    });
    const again = await appealedGame(club.id);
    expect(await rule(dee, again.game.id, again.version)).toMatchObject({ code: 'NOT_DIRECTOR', details: { reason: 'NOT_A_DIRECTOR' } });
  });

  it('a recorded game may be placed under an event; REST lists organizations and grants beside the director routes', async () => {
    const rec = await graphql(
      api,
      'createRecordedGame',
      RECORDED,
      { input: { organization: event.id, players: [{ handle: ann.handle }, { name: 'Visitor' }] } },
      ann.token,
    );
    expect(rec).toMatchObject({ __typename: 'Game', organization: { name: 'Nationals 2026' } });

    const list = await api.fetch('/v1/organizations');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: Org[] }).items.map((o) => o.name)).toEqual(['Riverside', 'Nationals 2026', 'Riverside']);
    const auth = (p: Player) => ({ authorization: `Bearer ${p.token}` });
    expect((await api.fetch(`/v1/organizations/${event.id}/directors/dee`, { method: 'POST', headers: auth(ann) })).status).toBe(403);
    const granted = await api.fetch(`/v1/organizations/${event.id}/directors/dee`, { method: 'POST', headers: auth(admin) });
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ handle: 'dee', role: 'DIRECTOR', organization: { directors: ['dee', 'fay'] } });
    const revoked = await api.fetch(`/v1/organizations/${event.id}/directors/dee`, { method: 'DELETE', headers: auth(admin) });
    expect(await revoked.json()).toMatchObject({ role: 'PLAYER', organization: { directors: ['fay'] } });
    const made = await api.fetch('/v1/organizations', {
      method: 'POST',
      headers: { ...auth(admin), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'CLUB', name: 'Hillside' }),
    });
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ kind: 'CLUB', name: 'Hillside', directors: [] });
    expect(
      (await api.fetch(`/v1/organizations/00000000-0000-0000-0000-000000000000/directors/dee`, { method: 'POST', headers: auth(admin) }))
        .status,
    ).toBe(404);
  });
});
