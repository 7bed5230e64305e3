import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { SchemaComponents, type JsonSchema } from './json-schema.js';
import type { Operation } from './operation.js';
import { jsonBodySchema, parameterSchema } from './request-schema.js';

/**
 * REST requests checked against the operation's own JSON Schema (issue 34 item 2) before its GraphQL
 * operation runs: the body against the schema the OpenAPI document publishes for it, each path and query
 * parameter against its parameter's schema. A request that breaks it is a 400 `VALIDATION` problem whose
 * `issues` name each REST field as a JSON pointer (`/displayName`, `/action/play/move`) or a parameter,
 * the rule it broke (`required`, `type`, `additionalProperties`, `enum`, `minimum` …) and, for an enum or an
 * unknown field, the values allowed: never a GraphQL variable, argument path or type name.
 */

export interface RestIssue {
  /** The body field as a JSON pointer (`""` for the body itself), or the parameter's name. */
  readonly field: string;
  /** Where the field is: the JSON body, the path or the query string. */
  readonly in: 'body' | 'path' | 'query';
  /** The JSON Schema keyword it broke. */
  readonly rule: string;
  readonly message: string;
  /** For `enum`: the values allowed; for `additionalProperties`: the fields the object may have; for `oneOf`: the fields to choose one of. */
  readonly allowed?: readonly unknown[];
}

export class RestValidationProblem extends Error {
  constructor(readonly issues: readonly RestIssue[]) {
    super(
      issues.length === 1
        ? issues[0]!.message
        : `${issues.length} problems with the request: ${issues.map((i) => i.message.replace(/\.$/, '')).join('; ')}.`,
    );
  }
}

interface Checks {
  readonly body?: () => ValidateFunction;
  readonly bodyRequired: boolean;
  readonly params: readonly { readonly name: string; readonly in: 'path' | 'query'; readonly validate: () => ValidateFunction }[];
}

const A: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const typeWords = (type: unknown): string =>
  String(type)
    .split(',')
    .filter((t) => t !== 'null' || String(type) === 'null')
    .map((t) => A[t] ?? t)
    .join(' or ');

const named = (field: string, where: RestIssue['in']): string =>
  where === 'body' ? (field === '' ? 'The body' : field) : `The ${where} parameter ${field}`;

/** One ajv error in REST words; undefined for an error another one says better. */
const issueOf = (e: ErrorObject, where: RestIssue['in'], name: string): RestIssue => {
  const at = where === 'body' ? e.instancePath : name + e.instancePath.replace(/^\//, '.').replaceAll('/', '.');
  const child = (key: string) =>
    where === 'body' ? `${e.instancePath}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}` : `${at}.${key}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const field = child(String(p['missingProperty']));
      return { field, in: where, rule: 'required', message: `${named(field, where)} is required.` };
    }
    case 'additionalProperties': {
      const field = child(String(p['additionalProperty']));
      const allowed = Object.keys(((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}) as object);
      return {
        field,
        in: where,
        rule: 'additionalProperties',
        message: `${named(field, where)} is not a field of ${at === '' ? 'the body' : named(at, where)}${allowed.length ? `: it takes ${allowed.join(', ')}` : ''}.`,
        allowed,
      };
    }
    case 'type':
      return { field: at, in: where, rule: 'type', message: `${named(at, where)} must be ${typeWords(p['type'])}.` };
    case 'enum': {
      const allowed = (p['allowedValues'] as unknown[]).filter((v) => v !== null);
      return { field: at, in: where, rule: 'enum', message: `${named(at, where)} must be one of ${allowed.join(', ')}.`, allowed };
    }
    case 'oneOf': {
      const branches = (e.schema as { required?: string[] }[] | undefined) ?? [];
      const allowed = branches.flatMap((b) => b.required ?? []);
      return {
        field: at,
        in: where,
        rule: 'oneOf',
        message: `${named(at, where)} must have exactly one of ${allowed.join(', ')}.`,
        allowed,
      };
    }
    case 'discriminator': {
      // Only where the schema does not list the tag's values itself (the dispute unions do).
      const field = child(String(p['tag']));
      return { field, in: where, rule: 'enum', message: `${named(field, where)} must name one of the kinds.` };
    }
    default:
      return { field: at, in: where, rule: e.keyword, message: `${named(at, where)} ${e.message ?? 'is not allowed'}.` };
  }
};

/** Whether `x` is about the tag of the discriminator error `d` (the tag missing, or its value). */
const tagged = (x: ErrorObject, d: ErrorObject): boolean => {
  const tag = (d.params as { tag?: string })['tag'];
  return (
    x.instancePath === `${d.instancePath}/${tag}` ||
    (x.keyword === 'required' && x.instancePath === d.instancePath && x.params['missingProperty'] === tag)
  );
};

/**
 * The errors worth telling: for `T | null` (an `anyOf` with null), the branch that is not null; for a
 * `@oneOf` input (a `oneOf` of one-field objects), the branch the value chose when it names exactly one of
 * its fields, else one `oneOf` issue.
 */
const relevant = (errors: readonly ErrorObject[]): ErrorObject[] => {
  let out = [...errors];
  for (const one of errors.filter((e) => e.keyword === 'oneOf')) {
    const branches = (one.schema as { required?: string[] }[] | undefined) ?? [];
    const data = one.data;
    const keys = typeof data === 'object' && data !== null && !Array.isArray(data) ? Object.keys(data) : [];
    const chosen = keys.length === 1 ? branches.findIndex((b) => b.required?.[0] === keys[0]) : -1;
    const own = (e: ErrorObject) => e.schemaPath.startsWith(`${one.schemaPath}/`) && e.instancePath === one.instancePath;
    const under = (e: ErrorObject) => e.instancePath.startsWith(`${one.instancePath}/`);
    if (chosen >= 0) {
      out = out.filter((e) => e !== one && (!own(e) || e.schemaPath.startsWith(`${one.schemaPath}/${chosen}/`)));
    } else {
      out = out.filter((e) => !own(e) && !under(e));
    }
  }
  // A dispute's `kind` missing or unknown: its `required` or `enum` issue names the kinds; the discriminator's adds nothing.
  out = out.filter((e) => e.keyword !== 'discriminator' || !out.some((x) => x !== e && tagged(x, e)));
  const at = (path: string) => out.filter((e) => e.instancePath === path || e.instancePath.startsWith(`${path}/`));
  // A value that is not null, where null is allowed: the null branch's complaint says nothing.
  out = out.filter((e) => !(e.keyword === 'type' && e.params['type'] === 'null' && at(e.instancePath).length > 1));
  // An `anyOf` with other errors at or under it: those say what is wrong.
  out = out.filter((e) => !(e.keyword === 'anyOf' && at(e.instancePath).length > 1));
  return out;
};

const issuesOf = (errors: readonly ErrorObject[] | null | undefined, where: RestIssue['in'], name: string): RestIssue[] => {
  const seen = new Set<string>();
  return relevant(errors ?? [])
    .map((e) => issueOf(e, where, name))
    .filter((i) => {
      const key = `${i.in} ${i.field} ${i.rule}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
};

/**
 * The components as ajv takes them: a `discriminator` without its `mapping` (ajv picks the branch by the
 * `const` of each and refuses a mapping, which the document keeps for generated clients), the mapping's
 * values required as the tag's `enum` instead: a missing or unknown tag is then one `required` or `enum`
 * issue listing them, not a failure per branch.
 */
const forAjv = (schemas: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> =>
  Object.fromEntries(
    Object.entries(schemas).map(([name, s]) => {
      const d = s['discriminator'] as { propertyName: string; mapping?: Record<string, string> } | undefined;
      if (!d) return [name, s];
      const tag = d.propertyName;
      const values = d.mapping ? { properties: { [tag]: { type: 'string', enum: Object.keys(d.mapping) } }, required: [tag] } : {};
      return [name, { ...s, type: 'object', ...values, discriminator: { propertyName: tag } }];
    }),
  );

/** The validators of every route: the schemas built once, at the table's start, against one set of components. */
export class RestValidator {
  private readonly checks = new Map<Operation, Checks>();

  constructor(ops: readonly Operation[]) {
    const components = new SchemaComponents();
    const routes: Record<string, { body?: JsonSchema; params: Record<string, JsonSchema> }> = {};
    const plans = ops.map((op, i) => {
      const body = jsonBodySchema(op, components);
      const params = Object.entries(op.route.args).flatMap(([argPath, s]) =>
        s.from === 'path' || s.from === 'query' ? [{ name: s.name, in: s.from, schema: parameterSchema(op, argPath, components) }] : [],
      );
      routes[`r${i}`] = {
        ...(body ? { body: body.schema } : {}),
        params: Object.fromEntries(params.map((p) => [`${p.in}-${p.name}`, p.schema])),
      };
      return { op, key: `r${i}`, bodyRequired: body?.required ?? false, hasBody: !!body, params };
    });
    const ajv = new Ajv2020({
      strict: false,
      validateFormats: false,
      allErrors: true,
      verbose: true,
      validateSchema: false,
      discriminator: true,
    });
    ajv.addSchema({ components: { schemas: forAjv(components.schemas) }, routes }, 'rest');
    for (const plan of plans) {
      // Each validator is compiled on the route's first request (ajv caches it): 82 routes at once would
      // add some 0.3 s to the first /v1 answer of a cold start.
      const get = (pointer: string) => {
        let compiled: ValidateFunction | undefined;
        return () => (compiled ??= ajv.getSchema(`rest#/routes/${plan.key}${pointer}`)!);
      };
      this.checks.set(plan.op, {
        ...(plan.hasBody ? { body: get('/body') } : {}),
        bodyRequired: plan.bodyRequired,
        params: plan.params.map((p) => ({ name: p.name, in: p.in, validate: get(`/params/${p.in}-${p.name}`) })),
      });
    }
  }

  /**
   * Throws a RestValidationProblem naming every issue of the request: `body` as read (undefined when there
   * is none), `params` the path and query values as parsed for the route (`name` → value; absent ones left out).
   */
  check(op: Operation, body: unknown, params: Readonly<Record<string, unknown>>): void {
    const checks = this.checks.get(op);
    if (!checks) return;
    const issues: RestIssue[] = [];
    for (const p of checks.params) {
      const value = params[`${p.in}-${p.name}`];
      const validate = p.validate();
      if (value === undefined || validate(value)) continue;
      issues.push(...issuesOf(validate.errors, p.in, p.name));
    }
    if (checks.body) {
      // No body is `{}` where the body is required (what the operation then receives): each missing field is named.
      const value = body === undefined && checks.bodyRequired ? {} : body;
      const validate = checks.body();
      if (typeof value === 'object' && value !== null && !validate(value)) issues.push(...issuesOf(validate.errors, 'body', ''));
    }
    if (issues.length) throw new RestValidationProblem(issues);
  }
}
