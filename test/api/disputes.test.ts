/**
 * Typed disputes and verdicts over the API (issue 13): `adjudicate(input: DisputeInput)` gives the same
 * ruling as the deprecated JSON form for every kind's example, the verdict and code are closed enums,
 * `disputeKinds` describes every kind, and the REST route takes the typed input too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULING_CODES, VERDICTS } from '../../engine/adjudication/codes.js';
import { DISPUTE_KINDS } from '../../engine/adjudication/dispute.js';
import { DISPUTE_SPECS, enumValueName, kindField, type FactSpec } from '../../engine/adjudication/kinds/index.js';
import { PROJECT_ROOT } from '../../store/lexicon-files.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const RULING_FIELDS = `__typename ... on Ruling { verdict ruling effects explanation ruleSet citations { source rule } } ... on ValidationError { issues { field message } } ... on Error { code message details }`;
const TYPED = `query($input: DisputeInput, $rs: String, $o: JSON) { adjudicate(input: $input, ruleSet: $rs, overrides: $o) { ${RULING_FIELDS} } }`;
const JSON_FORM = `query($d: JSON!, $rs: String) { adjudicate(dispute: $d, ruleSet: $rs) { ${RULING_FIELDS} } }`;

/** A fact value as a GraphQL variable: enum facts by their GraphQL names (written here, not by the code under test). */
const asVariable = (v: unknown, s: FactSpec | undefined): unknown => {
  if (s?.type === 'enum') return enumValueName(v as string);
  if (s?.type === 'enum-list') return (v as string[]).map(enumValueName);
  if (s?.type === 'object-list')
    return (v as Record<string, unknown>[]).map((item) =>
      Object.fromEntries(
        Object.entries(item).map(([k, x]) => [
          k,
          asVariable(
            x,
            s.item.find((i) => i.name === k),
          ),
        ]),
      ),
    );
  return v;
};
const typedInput = (json: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const { kind, ...facts } = json;
  const spec = DISPUTE_SPECS.find((s) => s.kind === kind)!;
  return {
    [kindField(kind as string)]: Object.fromEntries(
      Object.entries(facts).map(([k, v]) => [
        k,
        asVariable(
          v,
          spec.facts.find((f) => f.name === k),
        ),
      ]),
    ),
  };
};

describe.each(STORE_TARGETS.slice(0, 1))('adjudicate with typed disputes on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await api?.close();
  });
  const typed = async (input: unknown, rs?: string, o?: unknown) => (await api.gql(TYPED, { input, rs, o })).body;

  it.each(DISPUTE_SPECS.flatMap((s) => ['NSA_2008', 'WESPA', 'MATCH_VARIANT'].map((rs) => [s.kind, rs, s.example] as const)))(
    '%s under %s: the typed input rules as the JSON form does',
    async (_kind, rs, example) => {
      const viaJson = (await api.gql(JSON_FORM, { d: example, rs })).body.data!['adjudicate'];
      const viaInput = (await typed(typedInput(example), rs)).data!['adjudicate'];
      expect(viaInput.__typename).toBe('Ruling');
      expect(viaInput).toEqual(viaJson);
      expect(VERDICTS).toContain(viaInput.verdict);
      expect(RULING_CODES).toContain(viaInput.ruling);
    },
  );

  it('the issue’s case: an exchange larger than the bag under MATCH_VARIANT is FORBIDDEN with NO_REMEDY_STATED; a legal one ALLOWED', async () => {
    const over = await typed({ illegalExchange: { bagCount: 3, stage: 'ANNOUNCED', exchangedCount: 5 } }, 'MATCH_VARIANT');
    expect(over.data!['adjudicate']).toMatchObject({ __typename: 'Ruling', verdict: 'FORBIDDEN', ruling: 'NO_REMEDY_STATED', effects: [] });
    const legal = await typed({ illegalExchange: { bagCount: 5, stage: 'ANNOUNCED', exchangedCount: 3 } }, 'MATCH_VARIANT');
    expect(legal.data!['adjudicate']).toMatchObject({ verdict: 'ALLOWED', ruling: 'NO_PENALTY' });
  });

  it('defaults apply, and an override changes the ruling', async () => {
    const r = await typed({ challengeOutcome: { playValid: true } }, 'WESPA', { challenge: { points: 10 } });
    expect(r.data!['adjudicate']).toMatchObject({
      verdict: 'ALLOWED',
      ruling: 'CHALLENGE_POINTS',
      effects: [{ type: 'score-delta', party: 'player', points: 10 }],
    });
  });

  it('a misspelt fact, an unknown enum value or two kinds at once fail before any ruling', async () => {
    for (const input of [
      { overtime: { secondOver: 125 } },
      { illegalExchange: { bagCount: 3, stage: 'HALFWAY', exchangedCount: 2 } },
      { overtime: { secondsOver: 125 }, goingOut: { opponentRackValue: 3 } },
      {},
    ]) {
      const r = await typed(input);
      expect(r.data ?? null, JSON.stringify(input)).toBeNull();
      expect(r.errors!.length).toBeGreaterThan(0);
    }
    expect((await typed({ overtime: { secondOver: 125 } })).errors![0]!.message).toContain('secondOver');
    expect((await typed({ overtime: { secondsOver: 1 }, goingOut: { opponentRackValue: 3 } })).errors![0]!.message).toMatch(/exactly one/i);
  });

  it('impossible facts are refused by the engine, naming the field', async () => {
    const r = await typed({ illegalExchange: { bagCount: 9, stage: 'ANNOUNCED', exchangedCount: 2 } });
    expect(r.data!['adjudicate']).toMatchObject({ __typename: 'RuleViolation', code: 'INVALID_DISPUTE', details: { field: 'bagCount' } });
  });

  it('the dispute is given exactly once: input or the deprecated JSON', async () => {
    const both = await api.gql(
      `query { adjudicate(input: {goingOut: {opponentRackValue: 3}}, dispute: {kind: "going-out", opponentRackValue: 3}) { ${RULING_FIELDS} } }`,
    );
    expect(both.body.data!['adjudicate']).toMatchObject({ __typename: 'ValidationError', issues: [{ field: 'dispute' }] });
    const neither = await api.gql(`query { adjudicate { ${RULING_FIELDS} } }`);
    expect(neither.body.data!['adjudicate']).toMatchObject({ __typename: 'ValidationError', issues: [{ field: 'input' }] });
  });

  it('the schema: closed Verdict and RulingCode enums with descriptions, NOT_APPLICABLE and the JSON dispute deprecated', async () => {
    const q = `{
      verdict: __type(name: "Verdict") { enumValues { name description } }
      code: __type(name: "RulingCode") { enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } }
      query: __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated type { name kind } } } }
      input: __type(name: "DisputeInput") { isOneOf inputFields { name type { name } } }
    }`;
    const d = (await api.gql(q)).body.data!;
    expect(d['verdict'].enumValues.map((v: { name: string }) => v.name).sort()).toEqual([...VERDICTS].sort());
    expect(d['code'].enumValues.map((v: { name: string }) => v.name).sort()).toEqual([...RULING_CODES].sort());
    // Each names its rules (NOT_APPLICABLE cites the absent parameter's source in the ruling instead).
    for (const v of d['code'].enumValues)
      if (v.name !== 'NOT_APPLICABLE') expect(v.description, v.name).toMatch(/(WESPA|NASPA|NSA|seed-00\d|Woogles)/);
    expect(d['code'].enumValues.filter((v: { isDeprecated: boolean }) => v.isDeprecated).map((v: { name: string }) => v.name)).toEqual([
      'NOT_APPLICABLE',
    ]);
    const args = d['query'].fields.find((f: { name: string }) => f.name === 'adjudicate').args;
    expect(args.find((a: { name: string }) => a.name === 'dispute')).toMatchObject({ isDeprecated: true });
    expect(args.find((a: { name: string }) => a.name === 'input')).toMatchObject({ isDeprecated: false, type: { name: 'DisputeInput' } });
    expect(d['input'].isOneOf).toBe(true);
    expect(d['input'].inputFields.map((f: { name: string }) => f.name).sort()).toEqual(DISPUTE_KINDS.map(kindField).sort());
  });

  it('disputeKinds describes every kind: facts typed with units, rules, parameters and the example', async () => {
    const q = `{ disputeKinds { kind inputField inputType description act sources parameters noRuleWithout example
      facts { name type description unit min max required default values feeds } } }`;
    const kinds = (await api.gql(q)).body.data!['disputeKinds'] as {
      kind: string;
      inputField: string;
      inputType: string;
      sources: string[];
      parameters: string[];
      example: unknown;
      facts: {
        name: string;
        type: string;
        unit: string | null;
        min: number | null;
        max: number | null;
        required: boolean;
        default: unknown;
        values: string[] | null;
        feeds: string;
      }[];
    }[];
    expect(kinds.map((k) => k.kind)).toEqual([...DISPUTE_KINDS]);
    for (const k of kinds) {
      const file = JSON.parse(readFileSync(join(PROJECT_ROOT, 'examples', 'disputes', `${k.kind}.json`), 'utf8')) as unknown;
      expect(k.example, k.kind).toEqual(file);
      expect(k.sources.length, k.kind).toBeGreaterThan(0);
    }
    const ie = kinds.find((k) => k.kind === 'illegal-exchange')!;
    expect(ie).toMatchObject({ inputField: 'illegalExchange', inputType: 'IllegalExchangeDisputeInput' });
    expect(ie.parameters).toContain('exchange.illegalExchangeProcedure');
    expect(ie.facts.find((f) => f.name === 'bagCount')).toMatchObject({ type: 'Int!', unit: 'tiles', min: 0, max: 6, required: true });
    expect(ie.facts.find((f) => f.name === 'rackSize')).toMatchObject({ type: 'Int', default: 7, required: false });
    expect(ie.facts.find((f) => f.name === 'stage')).toMatchObject({
      type: 'IllegalExchangeStage!',
      values: expect.arrayContaining(['RACKING_STARTED']),
    });
  });

  it('the REST route takes the typed input, and the OpenAPI document holds its schemas', async () => {
    const res = await api.fetch('/rest/adjudicate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { overtime: { secondsOver: 125 } }, ruleSet: 'WESPA' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      verdict: 'FORBIDDEN',
      ruling: 'OVERTIME_PENALTY',
      effects: [{ type: 'score-delta', points: -30 }],
    });
    const doc = JSON.stringify(await (await api.fetch('/rest/openapi.json')).json());
    for (const name of ['DisputeInput', 'IllegalExchangeDisputeInput', 'IllegalExchangeStage', 'RulingCode', 'Verdict'])
      expect(doc, name).toContain(name);
    expect(doc).toContain('NO_REMEDY_STATED');
    const kinds = await api.fetch('/rest/dispute-kinds');
    expect([kinds.status, ((await kinds.json()) as unknown[]).length]).toEqual([200, DISPUTE_KINDS.length]);
  });
});
