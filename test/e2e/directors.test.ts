/**
 * Directors (issue 14, item 4) over HTTP, on PGlite and on Postgres: an appeal of an automatic ruling
 * (once per dispute), the director role granted by an admin, a director's ruling chosen among the remedies
 * the rules allow and attributed in the log, replacing what the automatic ruling applied; REST routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { ERROR_FIELDS, freshKey, graphql, type Player } from './client.js';
import { closeSuite, createApiKey, createGameAs, exchangeFirst, giveRole, mutate, openSuite, registerPlayers } from './fixture.js';

const DISPUTE = `number status appealedBySeat appealedAtVersion
  ruling { code verdict explanation directorId version scoreChanges { seat points } citations { source rule } }`;
const AFTER = `... on FiledDispute { dispute { ${DISPUTE} } game { version scores } } ${ERROR_FIELDS}`;
const FILE = `mutation($input: FileDisputeInput!) { fileDispute(input: $input) { __typename ${AFTER} } }`;
const APPEAL = `mutation($input: AppealDisputeInput!) { appealDispute(input: $input) { __typename ${AFTER} } }`;
const RULE = `mutation($input: RuleOnDisputeInput!) { ruleOnDispute(input: $input) { __typename ${AFTER} } }`;
const GRANT = `mutation($h: String!) { grantDirector(handle: $h) { __typename ... on RoleGrant { handle role } ${ERROR_FIELDS} } }`;

interface After {
  __typename: string;
  code?: string;
  details?: Record<string, unknown>;
  dispute: {
    number: number;
    status: string;
    appealedBySeat: number | null;
    ruling: {
      code: string;
      directorId: string | null;
      explanation: string;
      scoreChanges: { seat: number; points: number }[];
      citations: { source: string; rule: string }[];
    } | null;
  };
  game: { version: number; scores: number[] };
}

describe.each(STORE_TARGETS)('directors on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  let dir: Player;
  let admin: Player;
  beforeAll(async () => {
    api = await openSuite(target, 'e2e-directors-seed');
    [a, b, dir, admin] = await registerPlayers(api, 'ann', 'ben', 'dee', 'eve');
    // The bootstrap `arbiter director grant eve --admin` does: an admin is made on the database, never through the API.
    await giveRole(api, admin, 'admin');
  });
  afterAll(() => closeSuite(api));

  const call = (p: Player, op: string, query: string, input: Record<string, unknown>) => mutate<After>(api, p, op, query, input);

  /** An NSA_2008 game where the first mover exchanged and was given a 30-point overtime penalty (dispute 1). */
  const penalised = async () => {
    const g = await createGameAs(api, a, { opponent: b.handle, preset: 'NSA_2008' });
    const { mover, other, seen, after } = await exchangeFirst(api, g, a, b);
    const filed = await call(other, 'fileDispute', FILE, {
      gameId: g.id,
      expectedVersion: after.version,
      dispute: { kind: 'overtime', concerns: seen.version + 1, facts: { secondsOver: 125 } },
    });
    expect(filed.dispute.ruling).toMatchObject({ code: 'OVERTIME_PENALTY', scoreChanges: [{ seat: seen.mySeat, points: -30 }] });
    return { id: g.id, mover, moverSeat: seen.mySeat!, version: filed.game.version };
  };

  it('an appeal holds the dispute APPEALED, once; a director’s ruling replaces the automatic one and is attributed', async () => {
    const { id, mover, moverSeat, version } = await penalised();
    const appealed = await call(mover, 'appealDispute', APPEAL, {
      gameId: id,
      dispute: 1,
      expectedVersion: version,
      appeal: { note: 'I was not over.' },
    });
    expect(appealed.dispute).toMatchObject({ status: 'APPEALED', appealedBySeat: moverSeat });
    expect(appealed.game.version).toBe(version + 1);
    const again = await call(mover, 'appealDispute', APPEAL, { gameId: id, dispute: 1, expectedVersion: version + 1 });
    expect(again).toMatchObject({ code: 'ALREADY_APPEALED' });

    const ruling = { remedy: 'NO_PENALTY', note: 'The clock was faulty.', citation: { source: 'wespa-3.0', rule: '3.8' } };
    // Not a director yet: refused, whatever the key's scopes.
    expect(await call(dir, 'ruleOnDispute', RULE, { gameId: id, dispute: 1, expectedVersion: version + 1, ruling })).toMatchObject({
      code: 'NOT_DIRECTOR',
    });
    // Only an admin grants the role.
    expect(await graphql(api, 'grantDirector', GRANT, { h: dir.handle }, a.token)).toMatchObject({ code: 'NOT_ADMIN' });
    expect(await graphql(api, 'grantDirector', GRANT, { h: dir.handle }, admin.token)).toMatchObject({
      handle: dir.handle,
      role: 'DIRECTOR',
    });

    const bogus = await call(dir, 'ruleOnDispute', RULE, {
      gameId: id,
      dispute: 1,
      expectedVersion: version + 1,
      ruling: { ...ruling, remedy: 'GAME_FORFEITED_BY_WHIM' },
    });
    expect(bogus.code).toBe('REMEDY_NOT_ALLOWED');
    expect(bogus.details?.['allowed']).toEqual(expect.arrayContaining(['OVERTIME_PENALTY', 'NO_PENALTY']));

    const ruled = await call(dir, 'ruleOnDispute', RULE, { gameId: id, dispute: 1, expectedVersion: version + 1, ruling });
    expect(ruled.dispute).toMatchObject({
      status: 'RULED',
      ruling: {
        code: 'NO_PENALTY',
        directorId: dir.id,
        explanation: 'The clock was faulty.',
        scoreChanges: [{ seat: moverSeat, points: 30 }],
      },
    });
    expect(ruled.dispute.ruling!.citations[0]).toEqual({ source: 'wespa-3.0', rule: '3.8' });
    expect(ruled.game.scores[moverSeat]).toBe(0);
    // A director's ruling is final: no second ruling, no further appeal.
    expect(await call(dir, 'ruleOnDispute', RULE, { gameId: id, dispute: 1, expectedVersion: version + 2, ruling })).toMatchObject({
      code: 'DISPUTE_ALREADY_RULED',
    });
    expect(await call(mover, 'appealDispute', APPEAL, { gameId: id, dispute: 1, expectedVersion: version + 2 })).toMatchObject({
      code: 'ALREADY_APPEALED',
    });
    // Every action is an event in the log, attributed; dispute-ruled went out for both rulings.
    const events = await api.app.services.db.prisma.gameEvent.findMany({ where: { gameId: id }, orderBy: { seq: 'asc' } });
    const appeal = events.find((e) => e.type === 'dispute-appealed')!.payload as Record<string, unknown>;
    expect(appeal).toMatchObject({ dispute: 1, seat: moverSeat, by: mover.id });
    const rulings = events.filter((e) => e.type === 'ruling-applied').map((e) => (e.payload as Record<string, unknown>)['by']);
    expect(rulings).toEqual([null, dir.id]);
    expect(await api.app.services.db.prisma.outboxMessage.count({ where: { gameId: id, kind: 'dispute-ruled' } })).toBe(2);
  });

  it('a director’s API key needs the scope disputes:rule to rule', async () => {
    const { id, version } = await penalised();
    await graphql(api, 'grantDirector', GRANT, { h: dir.handle }, admin.token);
    const { key } = await createApiKey(api, dir, 'plays-only', ['games:play']);
    const ruling = { remedy: 'NO_PENALTY', note: 'no' };
    const refused = await call({ ...dir, token: key }, 'ruleOnDispute', RULE, { gameId: id, dispute: 1, expectedVersion: version, ruling });
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('REST: POST …/disputes/{n}/appeal and …/ruling, with If-Match; a stale version is 412', async () => {
    const { id, mover, version } = await penalised();
    await graphql(api, 'grantDirector', GRANT, { h: dir.handle }, admin.token);
    const post = (p: Player, path: string, v: number, body: unknown) =>
      api.fetch(`/v1/games/${id}/disputes/1/${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${p.token}`,
          'content-type': 'application/json',
          'if-match': `"${v}"`,
          'idempotency-key': freshKey(),
        },
        body: JSON.stringify(body),
      });
    const appeal = await post(mover, 'appeal', version, { note: 'no' });
    expect(appeal.status).toBe(200);
    expect(((await appeal.json()) as After).dispute.status).toBe('APPEALED');
    expect((await post(dir, 'ruling', version, { remedy: 'NO_PENALTY', note: 'stale' })).status).toBe(412);
    const ruled = await post(dir, 'ruling', version + 1, { remedy: 'OVERTIME_PENALTY', note: 'Upheld.' });
    expect(ruled.status).toBe(200);
    const body = (await ruled.json()) as After;
    expect(body.dispute.ruling).toMatchObject({ code: 'OVERTIME_PENALTY', directorId: dir.id, scoreChanges: [] });
  });
});
