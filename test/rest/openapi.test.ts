/**
 * The /v1 OpenAPI document: it passes Redocly's linter (every recommended rule as an error, examples
 * checked against their schemas), it is served as JSON and YAML, every operation is complete, every
 * route's GraphQL operation is valid against the schema and inside the query limits, and the old
 * /rest routes are marked deprecated, each pointing at its successor.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, specifiedRules, validate } from '../../graph/graphql.js';
import { queryLimitsRule } from '../../graph/limits.js';
import { schema } from '../../graph/schema.js';
import { successors } from '../../rest/legacy.js';
import { compileOperation } from '../../rest/operation.js';
import { ROUTES } from '../../rest/routes/index.js';
import { IMAGE_PATHS } from '../../rest/images.js';
import { STREAM_PATHS } from '../../rest/events-openapi.js';
import { openTestApi, type TestApi } from '../api/harness.js';

type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  responses: Record<string, unknown>;
  parameters?: { in: string }[];
  deprecated?: boolean;
  description?: string;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; info: { description: string } };

describe('the /v1 OpenAPI document', () => {
  let api: TestApi;
  let doc: Doc;
  beforeAll(async () => {
    api = await openTestApi({ kind: 'pglite' });
    doc = (await (await api.fetch('/v1/openapi.json')).json()) as Doc;
  });
  afterAll(async () => api?.close());

  const operations = () => Object.entries(doc.paths).flatMap(([path, ms]) => Object.entries(ms).map(([m, op]) => ({ path, m, op })));

  it('passes the Redocly linter with every recommended rule as an error: no problem at all', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/v1/openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('the linter finds an example that does not match its schema (the check above is live)', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, any> };
    broken.paths['/games/{id}']!.get.responses['200'].content['application/json'].example.version = 'three';
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(broken), absoluteRef: '/v1/openapi.json', config });
    expect(problems.map((p) => p.ruleId)).toContain('no-invalid-media-type-examples');
  });

  it('is OpenAPI 3.1, and the YAML is the same document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const yaml = await api.fetch('/v1/openapi.yaml');
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    expect(parseYaml(await yaml.text())).toEqual(doc);
  });

  it('every operation has a unique operationId, one tag, a summary, an example, and more than one status', () => {
    const ops = operations();
    // Every route, plus the three picture operations (rest/images.ts), which answer images rather than a GraphQL
    // value, and the event streams (rest/events-openapi.ts).
    expect(ops).toHaveLength(ROUTES.length + Object.keys(IMAGE_PATHS).length + Object.keys(STREAM_PATHS).length);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    for (const { path, m, op } of ops) {
      expect(op.tags, `${m} ${path}`).toHaveLength(1);
      expect(op.summary.length, `${m} ${path}`).toBeGreaterThan(5);
      expect(Object.keys(op.responses).length, `${m} ${path}`).toBeGreaterThan(2);
      const success = Object.entries(op.responses).find(([s]) => s.startsWith('2'))![1] as {
        content?: Record<string, { example?: unknown }>;
      };
      const [mediaType, media] = Object.entries(success.content ?? {})[0] ?? [];
      if (media && !mediaType!.startsWith('image/')) expect(media.example, `example of ${op.operationId}`).toBeDefined();
    }
    // Body-only inputs: no operation takes its input in the query string besides paging and filters.
    const queried = ops.flatMap((o) => (o.op.parameters ?? []).filter((p) => p.in === 'query').map(() => o.op.operationId));
    // importTshDivision: the body is the .t file itself, so the new division's settings come in the query.
    expect([...new Set(queried)].sort()).toEqual([
      'exportAccount',
      'getBoardPng',
      'getBoardSvg',
      'getLeaderboard',
      'importTshDivision',
      'listMyGames',
      'listMyMatches',
      'listNotifications',
      'listSeeks',
      'listTournaments',
      'listWebhookDeliveries',
      'streamGameEvents',
      'streamMyEvents',
      'streamSeekEvents',
    ]);
  });

  it('every route runs a GraphQL operation that is valid and inside the default query limits', () => {
    for (const route of ROUTES) {
      const op = compileOperation(schema, route);
      const errors = validate(schema, parse(op.document), [...specifiedRules, queryLimitsRule()]);
      expect(
        errors.map((e) => e.message),
        route.operationId,
      ).toEqual([]);
    }
  });

  it('the old /rest document marks every operation deprecated and names its /v1 successor', async () => {
    const res = await api.fetch('/rest/openapi.json');
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(res.headers.get('sunset')).toMatch(/GMT$/);
    const old = (await res.json()) as Doc;
    const ops = Object.entries(old.paths).flatMap(([path, ms]) =>
      Object.entries(ms).map(([m, op]) => ({ key: `${m.toUpperCase()} /rest${path}`, op })),
    );
    expect(ops.length).toBeGreaterThan(30);
    for (const { key, op } of ops) {
      expect(op.deprecated, key).toBe(true);
      expect(op.description, key).toMatch(/^Deprecated: use (GET|POST|PUT|PATCH|DELETE) \/v1\//);
    }
    // Every route that says it replaces one names a route that exists.
    for (const key of successors().keys()) expect(ops.map((o) => o.key)).toContain(key);
    const alias = await api.fetch('/rest/rule-sets');
    expect(alias.status).toBe(200);
    expect(alias.headers.get('link')).toBe('</v1/openapi.json>; rel="successor-version"');
  });

  it('both REST layers follow the schema in name order, though the schema keeps its definition order: reply keys, documents', async () => {
    const inNameOrder = (o: object, where: string) => expect(Object.keys(o), where).toEqual(Object.keys(o).sort());
    // The schema is built without the re-sort (a cold start's 10–20 ms, graph/schema.ts)…
    const fields = Object.keys(schema.getQueryType()!.getFields());
    expect(fields).not.toEqual([...fields].sort());
    // …and the REST layers read its copy in name order: the selections they send, hence the keys of their replies…
    const v1 = (await (await api.fetch('/v1/rule-sets')).json()) as { items: { parameters: object[] }[] };
    const old = (await (await api.fetch('/rest/rule-sets')).json()) as { parameters: object[] }[];
    for (const [where, o] of Object.entries({
      v1: v1.items[0]!,
      'v1 parameter': v1.items[0]!.parameters[0]!,
      rest: old[0]!,
      'rest parameter': old[0]!.parameters[0]!,
    }))
      inNameOrder(o, where);
    // …and the properties of the documents' schemas (Problem, RFC 9457's, is written by hand).
    const oldDoc = (await (await api.fetch('/rest/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties?: object }> };
    };
    const v1Schemas = (doc as unknown as { components: { schemas: Record<string, { properties?: object }> } }).components.schemas;
    for (const [docName, schemas] of Object.entries({ v1: v1Schemas, rest: oldDoc.components.schemas }))
      for (const [name, s] of Object.entries(schemas))
        if (s.properties && name !== 'Problem') inNameOrder(s.properties, `${docName} ${name}`);
  });
});
