/**
 * Disputes typed per kind over /v1 (issue 34 item 4), with the client generated from the document
 * (generated/rest/v1.ts, openapi-fetch): the document publishes one schema per kind, discriminated by `kind`,
 * so the client's types know the 37 kinds and their facts. One dispute of each kind (its example in
 * examples/disputes/) is adjudicated over REST under every preset and must get the ruling GraphQL's typed
 * `adjudicate(input:)` gives the same dispute; two are filed on a stored game. A bad dispute is a 400 in REST
 * words: an unknown kind (`enum` at `/kind`, listing the kinds), a missing fact (`required` at
 * `/facts/<name>`), a fact of the wrong type or out of range, each one issue, never one per kind.
 */
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { DISPUTE_KINDS, type DisputeKind } from '../../engine/adjudication/dispute.js';
import { enumValueName, kindField, specOf, type FactSpec } from '../../engine/adjudication/kinds/index.js';
import { RULE_SET_IDS } from '../../engine/rules/ruleset.js';
import type { components, paths } from '../../generated/rest/v1.js';
import { openTestApi, type TestApi } from '../api/harness.js';

type Dispute = components['schemas']['Dispute'];
type Claim = components['schemas']['DisputeClaim'];
interface Issue {
  field: string;
  in: string;
  rule?: string;
  message: string;
  allowed?: unknown[];
}

const example = (kind: DisputeKind): Dispute =>
  JSON.parse(readFileSync(new URL(`../../examples/disputes/${kind}.json`, import.meta.url), 'utf8')) as Dispute;

/** A fact as GraphQL's typed input writes it: enum values as names (`racking-started` → `RACKING_STARTED`). */
const graphValue = (s: FactSpec, v: unknown): unknown => {
  if (s.type === 'enum') return enumValueName(v as string);
  if (s.type === 'enum-list') return (v as string[]).map(enumValueName);
  if (s.type === 'object-list') return (v as Record<string, unknown>[]).map((item) => graphFacts(s.item, item));
  return v;
};
const graphFacts = (specs: readonly FactSpec[], facts: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(facts).map(([name, v]) => [
      name,
      graphValue(
        specs.find((s) => s.name === name)!,
        v,
      ),
    ]),
  );

/** The example as GraphQL's `DisputeInput`: one field named for the kind. */
const graphInput = (d: Dispute): Record<string, unknown> => {
  const { kind, description: _text, ...facts } = d as Dispute & Record<string, unknown>;
  return { [kindField(kind)]: graphFacts(specOf(kind).facts, facts) };
};

const ADJUDICATE = `query($input: DisputeInput!, $preset: RuleSetPreset) { adjudicate(input: $input, preset: $preset) {
  __typename ... on Ruling { verdict ruling effects } ... on Error { code message } } }`;

describe('disputes typed per kind with a generated client', () => {
  let api: TestApi;
  let client: ReturnType<typeof createClient<paths>>;
  beforeAll(async () => {
    // 37 kinds × 5 presets, twice: past the default per-client limits of an open route.
    api = await openTestApi({ kind: 'pglite' }, { rateLimits: { buckets: {}, loginBackoff: { handle: null, address: null } } });
    client = createClient<paths>({ baseUrl: 'http://arbiter.test/v1', fetch: async (request: Request) => api.app.yoga.fetch(request) });
  });
  afterAll(async () => api?.close());

  it('the client types know every kind, and each kind its facts', () => {
    expectTypeOf<Dispute['kind']>().toEqualTypeOf<DisputeKind>();
    expectTypeOf<Claim['kind']>().toEqualTypeOf<DisputeKind>();
    expectTypeOf<components['schemas']['IllegalExchangeDispute']['stage']>().toEqualTypeOf<
      'announced' | 'drawn-not-racked' | 'old-returned-new-not-racked' | 'racking-started' | 'after-opponent-turn'
    >();
    const overtime = { kind: 'overtime', secondsOver: 125 } satisfies Dispute;
    // @ts-expect-error secondsOver is a number
    const typo: Dispute = { kind: 'overtime', secondsOver: '125' };
    // @ts-expect-error bagCount is a fact of illegal-exchange, not of overtime
    const other: Dispute = { kind: 'overtime', secondsOver: 125, bagCount: 3 };
    expect([overtime, typo, other]).toHaveLength(3);
  });

  it('adjudicates one dispute of each of the 37 kinds under every preset: the ruling of GraphQL’s typed input', async () => {
    expect(DISPUTE_KINDS).toHaveLength(37);
    const answered: string[] = [];
    for (const kind of DISPUTE_KINDS) {
      const dispute = example(kind);
      for (const preset of RULE_SET_IDS) {
        const rest = await client.POST('/adjudications', { body: { dispute, preset } });
        expect(rest.response.status, `${kind} under ${preset}: ${JSON.stringify(rest.error)}`).toBe(200);
        const gql = await api.gql(ADJUDICATE, { input: graphInput(dispute), preset });
        const ruling = gql.body.data?.['adjudicate'] as { __typename: string; verdict: string; ruling: string; effects: unknown[] };
        expect(ruling.__typename, `${kind} under ${preset} over GraphQL: ${JSON.stringify(gql.body)}`).toBe('Ruling');
        expect({ kind, preset, ...rest.data }).toMatchObject({
          kind,
          preset,
          verdict: ruling.verdict,
          ruling: ruling.ruling,
          effects: ruling.effects,
        });
        answered.push(`${kind} ${preset} ${rest.data!.ruling}`);
      }
    }
    expect(answered).toHaveLength(37 * RULE_SET_IDS.length);
    // Rulings the rules state (test/cli/rules-adjudicate.test.ts), whatever both paths say.
    expect(answered).toEqual(
      expect.arrayContaining([
        'exchange-count-mismatch NSA_2008 FACE_DOWN_COUNT_EXCHANGED',
        'exchange-unspecified WESPA TURN_IS_PASS',
        'challenge-outcome WESPA CHALLENGE_POINTS',
        'forfeit-order NSA_2008 FIRSTS_ASSIGNED',
        'free-trade FRIENDLY FREE_TRADE_ALLOWED',
        'abort-request ONLINE_VOID GAME_ABORTED',
        'spilled-tiles ONLINE_VOID NOT_APPLICABLE',
      ]),
    );
  });

  it('files typed disputes on a stored game: the log supplies its facts, the claim only the rest', async () => {
    const reg = async (handle: string) =>
      (await client.POST('/players', { body: { handle, displayName: handle, password: `${handle}-password-1` } })).data!.token;
    const ann = { authorization: `Bearer ${await reg('ann')}` };
    const ben = { authorization: `Bearer ${await reg('ben')}` };
    const created = await client.POST('/games', { body: { ruleSet: 'NSA_2008', opponent: 'ben' }, headers: ann });
    const id = created.data!.id;
    const view = async (who: typeof ann) => (await client.GET('/games/{id}', { params: { path: { id } }, headers: who })).data!;
    const mover = (await view(ann)).mySeat === (await view(ann)).whoseTurn ? ann : ben;
    const other = mover === ann ? ben : ann;
    const seen = await view(mover);
    const exchanged = await client.POST('/games/{id}/turns', {
      params: { path: { id }, header: { 'If-Match': `"${seen.version}"` } },
      headers: mover,
      body: { exchange: { tiles: seen.myRack!.slice(0, 2) } },
    });
    expect(exchanged.response.status).toBe(200);
    const line = (await client.GET('/games/{id}/turns', { params: { path: { id } }, headers: other })).data!.items[0]!;

    // placedFaceDown (2) and rackSize come from the log; the claim says what was announced.
    const mismatch = { kind: 'exchange-count-mismatch', concerns: line.event, facts: { announced: 3 } } satisfies Claim;
    const filed = await client.POST('/games/{id}/disputes', {
      params: { path: { id }, header: { 'If-Match': `"${exchanged.data!.version}"` } },
      headers: other,
      body: mismatch,
    });
    expect(filed.response.status, JSON.stringify(filed.error)).toBe(201);
    expect(filed.data!.dispute.automaticRuling.code).toBe('FACE_DOWN_COUNT_EXCHANGED');
    expect(filed.data!.dispute.facts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'placedFaceDown', value: 2, source: 'LOG' }),
        expect.objectContaining({ name: 'announced', value: 3, source: 'CLAIMANT' }),
      ]),
    );

    // Overtime: every fact is the claimant's. NSA_2008 takes 10 points per started minute: 2:05 over is −30.
    const overtime = await client.POST('/games/{id}/disputes', {
      params: { path: { id }, header: { 'If-Match': `"${filed.data!.game.version}"` } },
      headers: other,
      body: { kind: 'overtime', concerns: line.event, facts: { secondsOver: 125 } },
    });
    expect(overtime.response.status, JSON.stringify(overtime.error)).toBe(201);
    expect(overtime.data!.dispute.automaticRuling).toMatchObject({
      code: 'OVERTIME_PENALTY',
      effects: [expect.objectContaining({ points: -30 })],
    });
  });

  it('a claim of each of the 37 kinds with its example’s facts passes the schema (the game is then looked up: 404)', async () => {
    const token = (await api.register('filer')).token;
    const statuses: string[] = [];
    for (const kind of DISPUTE_KINDS) {
      const { kind: _kind, description: _text, ...facts } = example(kind) as Dispute & Record<string, unknown>;
      const claim = { kind, concerns: 4, facts } as Claim;
      const filed = await client.POST('/games/{id}/disputes', {
        params: { path: { id: '00000000-0000-0000-0000-000000000000' }, header: { 'If-Match': '"4"' } },
        headers: { authorization: `Bearer ${token}` },
        body: claim,
      });
      statuses.push(`${kind} ${filed.response.status} ${filed.error?.code}`);
    }
    expect(statuses).toEqual(DISPUTE_KINDS.map((k) => `${k} 404 GAME_NOT_FOUND`));
  });

  describe('a bad dispute is one issue in REST words', () => {
    let claimant = '';
    beforeAll(async () => {
      claimant = (await api.register('claimant')).token;
    });
    const issuesOf = (error: unknown): Issue[] => {
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION' });
      return (error as { issues: Issue[] }).issues;
    };
    const adjudicate = async (dispute: unknown) =>
      issuesOf((await client.POST('/adjudications', { body: { dispute: dispute as Dispute } })).error);
    const file = async (body: unknown) =>
      issuesOf(
        (
          await client.POST('/games/{id}/disputes', {
            params: { path: { id: '00000000-0000-0000-0000-000000000000' }, header: { 'If-Match': '"3"' } },
            headers: { authorization: `Bearer ${claimant}` },
            body: body as Claim,
          })
        ).error,
      );

    it('an unknown kind: enum at /kind, listing the 37 kinds', async () => {
      const [issue, ...more] = await file({ kind: 'coffee-spill', concerns: 3, facts: {} });
      expect(more).toEqual([]);
      expect(issue).toMatchObject({ field: '/kind', in: 'body', rule: 'enum', allowed: [...DISPUTE_KINDS] });
      expect(issue!.message).toMatch(/^\/kind must be one of illegal-exchange, /);
      expect(await adjudicate({ kind: 'coffee-spill' })).toEqual([
        expect.objectContaining({ field: '/dispute/kind', rule: 'enum', allowed: [...DISPUTE_KINDS] }),
      ]);
      expect(await adjudicate({ secondsOver: 125 })).toEqual([
        { field: '/dispute/kind', in: 'body', rule: 'required', message: '/dispute/kind is required.' },
      ]);
    });

    it('a missing fact: required at /facts/<name> (a fact the log holds is not required of a claim)', async () => {
      expect(await file({ kind: 'overtime', concerns: 3, facts: {} })).toEqual([
        { field: '/facts/secondsOver', in: 'body', rule: 'required', message: '/facts/secondsOver is required.' },
      ]);
      // bagCount and exchangedCount come from the log; the stage only the table knows.
      expect(await file({ kind: 'illegal-exchange', concerns: 3, facts: { oldTilesInBag: true } })).toEqual([
        expect.objectContaining({ field: '/facts/stage', rule: 'required' }),
      ]);
      expect(await adjudicate({ kind: 'illegal-exchange', stage: 'announced', exchangedCount: 3 })).toEqual([
        expect.objectContaining({ field: '/dispute/bagCount', rule: 'required' }),
      ]);
    });

    it('a fact of the wrong type, out of range, or not one of its values', async () => {
      expect(await file({ kind: 'overtime', concerns: 3, facts: { secondsOver: 'soon' } })).toEqual([
        { field: '/facts/secondsOver', in: 'body', rule: 'type', message: '/facts/secondsOver must be a number.' },
      ]);
      expect(await file({ kind: 'overtime', concerns: 3, facts: { secondsOver: 100_000 } })).toEqual([
        expect.objectContaining({ field: '/facts/secondsOver', rule: 'maximum', message: '/facts/secondsOver must be <= 86400.' }),
      ]);
      expect(await adjudicate({ kind: 'illegal-exchange', bagCount: 7, stage: 'announced', exchangedCount: 3 })).toEqual([
        expect.objectContaining({ field: '/dispute/bagCount', rule: 'maximum' }),
      ]);
      expect(await adjudicate({ kind: 'illegal-exchange', bagCount: 3, stage: 'ANNOUNCED', exchangedCount: 3 })).toEqual([
        expect.objectContaining({
          field: '/dispute/stage',
          rule: 'enum',
          allowed: expect.arrayContaining(['announced', 'racking-started']),
        }),
      ]);
      expect(await adjudicate({ kind: 'forfeit-order', games: [{ round: 0, role: 'forfeiter' }] })).toEqual([
        expect.objectContaining({ field: '/dispute/games/0/round', rule: 'minimum' }),
      ]);
      expect(await adjudicate({ kind: 'overtime', secondsOver: 125, bagCount: 3 })).toEqual([
        expect.objectContaining({
          field: '/dispute/bagCount',
          rule: 'additionalProperties',
          allowed: ['description', 'kind', 'scores', 'secondsOver'],
        }),
      ]);
    });
  });
});
