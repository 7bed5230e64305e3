import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { disputeTableMarkdown, parameterTableMarkdown } from '../../cli/rule-tables.js';
import { DISPUTE_KINDS } from '../../engine/adjudication/dispute.js';
import { PARAMETERS } from '../../engine/rules/params.js';
import { RULE_SET_IDS } from '../../engine/rules/ruleset.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const section = (name: string): string => {
  const start = README.indexOf(`<!-- section:${name} -->`);
  const end = README.indexOf(`<!-- /section:${name} -->`);
  if (start < 0 || end < start) throw new Error(`README has no section ${name}`);
  return README.slice(start, end);
};
const dir = fileURLToPath(new URL('../../examples/disputes/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(dir + f, 'utf8')) as unknown }));

describe('README matches the code (regenerate with `npx tsx scripts/readme-rules.ts`)', () => {
  test('the rules section holds the parameter table as generated from PARAMETERS and the presets', () => {
    expect(section('rules')).toContain(parameterTableMarkdown());
  });

  test('the parameter table has one row per parameter and a column per preset', () => {
    const rows = section('rules')
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    for (const p of PARAMETERS)
      expect(
        rows.some((r) => r.startsWith(`| \`${p.path}\` |`)),
        p.path,
      ).toBe(true);
    for (const id of RULE_SET_IDS) expect(section('rules')).toContain(`| \`${id}\` |`);
  });

  test('the adjudication section holds the example table with the current rulings', () => {
    expect(section('adjudication')).toContain(disputeTableMarkdown(examples));
  });

  test('the adjudication section documents every dispute kind', () => {
    for (const kind of DISPUTE_KINDS) expect(section('adjudication'), kind).toContain(`| \`${kind}\` |`);
  });
});
