/**
 * The schema as a document (docs/api.md, "Schema conventions"): the committed schema.graphql is the one
 * the code builds, the schema linter of `npm run lint` passes it and fails a schema that breaks its
 * rules, its ignore list hides nothing but deprecated values, and every deprecation names a replacement
 * that exists.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../store/lexicon-files.js';
import { isEnumType, isInputObjectType, isObjectType, type GraphQLArgument, type GraphQLInputField } from '../../graph/graphql.js';
import { printArbiterSchema, schema } from '../../graph/schema.js';

const LINTER = join(PROJECT_ROOT, 'node_modules', 'graphql-schema-linter', 'lib', 'cli.js');

/** The linter's findings (default rules and the project's .graphql-schema-linterrc) on an SDL text. */
const lint = (sdl: string): { message: string; rule: string }[] => {
  let out: string;
  try {
    out = execFileSync(process.execPath, [LINTER, '--stdin', '--format', 'json'], { cwd: PROJECT_ROOT, input: sdl, encoding: 'utf8' });
  } catch (e) {
    // Findings exit 1 with the report on stdout.
    out = (e as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { errors: { message: string; rule: string }[] }).errors;
};

describe('schema.graphql', () => {
  it('is the schema the code builds', () => {
    const committed = readFileSync(join(PROJECT_ROOT, 'schema.graphql'), 'utf8');
    expect(committed === printArbiterSchema(), 'schema.graphql is out of date with graph/: run `npm run print-schema` and commit it').toBe(
      true,
    );
  });

  it('passes the schema linter with no finding', () => {
    expect(lint(readFileSync(join(PROJECT_ROOT, 'schema.graphql'), 'utf8'))).toEqual([]);
  });

  it('the linter fails a type, field or value without a description, and a lower-case enum value', () => {
    const rules = lint('type Query {\n  """Capitalised."""\n  a: Color\n  b: Int\n}\n\nenum Color {\n  red\n}\n').map((f) => f.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'types-have-descriptions',
        'fields-have-descriptions',
        'enum-values-have-descriptions',
        'enum-values-all-caps',
      ]),
    );
  });
});

describe('schema conventions', () => {
  it('the linter ignores nothing but deprecated enum values of the first release', () => {
    const config = JSON.parse(readFileSync(join(PROJECT_ROOT, '.graphql-schema-linterrc'), 'utf8')) as { ignore: Record<string, string[]> };
    expect(Object.keys(config.ignore)).toEqual(['enum-values-all-caps']);
    for (const member of config.ignore['enum-values-all-caps']!) {
      const [typeName, valueName] = member.split('.');
      const type = schema.getType(typeName!);
      expect(isEnumType(type), member).toBe(true);
      const value = isEnumType(type) ? type.getValue(valueName!) : undefined;
      expect(value?.deprecationReason, `${member} is ignored by the linter, so it must be deprecated`).toMatch(/^Use \w+\.[A-Z_]+\.$/);
    }
  });

  it('every deprecated field, argument and input field names a replacement beside it', () => {
    const deprecated: string[] = [];
    const check = (where: string, reason: string | null | undefined, siblings: readonly string[]) => {
      if (!reason) return;
      deprecated.push(where);
      const replacement = /^Use (\w+)/.exec(reason)?.[1];
      expect(replacement && siblings.includes(replacement), `${where}: "${reason}" names no field beside it`).toBe(true);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isObjectType(type)) {
        const fields = Object.values(type.getFields());
        for (const f of fields) {
          check(
            `${type.name}.${f.name}`,
            f.deprecationReason,
            fields.map((x) => x.name),
          );
          for (const a of f.args as readonly GraphQLArgument[])
            check(
              `${type.name}.${f.name}(${a.name})`,
              a.deprecationReason,
              f.args.map((x) => x.name),
            );
        }
      }
      if (isInputObjectType(type)) {
        const fields: GraphQLInputField[] = Object.values(type.getFields());
        for (const f of fields)
          check(
            `${type.name}.${f.name}`,
            f.deprecationReason,
            fields.map((x) => x.name),
          );
      }
    }
    // The deprecations of docs/api.md's table ("Deprecations"), and no other.
    expect(deprecated.sort()).toEqual(
      [
        'ApiKey.scopes',
        'CheckPlayInput.ruleSet',
        'Citation.verification',
        'CreateApiKeyInput.scopes',
        'CreateGameInput.ruleSet',
        'CreateMatchInput.ruleSet',
        'CreateWebhookSubscriptionInput.kinds',
        'EndAdjustment.kind',
        'FirstSecondTally.positions',
        'Game.legalActions',
        'Game.status',
        'GameMove.kind',
        'GameOutcome.reason',
        'Match.ruleSetId',
        'Match.status',
        'MatchOutcome.decidedBy',
        'Query.adjudicate(dispute)',
        'Query.adjudicate(ruleSet)',
        'Query.ruleSet(id)',
        'Query.webhookDeliveries(status)',
        'RuleSet.challengeMode',
        'RuleSet.id',
        'Ruling.ruleSet',
        'ScoredLetter.premium',
        'ScoredPlay.ruleSet',
        'TimeControl.kind',
        'TimeControlInput.kind',
        'WebhookDelivery.kind',
        'WebhookDelivery.status',
        'WebhookSubscription.kinds',
      ].sort(),
    );
  });

  it('every enum value is UPPER_SNAKE but the deprecated ones', () => {
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isEnumType(type) || type.name.startsWith('__')) continue;
      for (const v of type.getValues()) if (!v.deprecationReason) expect(v.name, `${type.name}.${v.name}`).toMatch(/^[A-Z][A-Z0-9_]*$/);
    }
  });
});
