import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CODE_EXAMPLES } from '../../cli/code-examples.js';
import {
  codeTableMarkdown,
  disputeTableMarkdown,
  exampleRuling,
  parameterTableMarkdown,
  verdictTableMarkdown,
} from '../../cli/rule-tables.js';
import { RULING_CODE_INFO, RULING_CODES } from '../../engine/adjudication/codes.js';
import { DISPUTE_KINDS } from '../../engine/adjudication/dispute.js';
import { PARAMETERS } from '../../engine/rules/params.js';
import { RULE_SET_IDS } from '../../engine/rules/ruleset.js';

/** The manual pages that hold the generated tables (they lived in README.md before issue 12). */
const doc = (name: string): string => readFileSync(fileURLToPath(new URL(`../../docs/${name}.md`, import.meta.url)), 'utf8');
const RULES = doc('rules');
const ADJUDICATION = doc('adjudication');
const dir = fileURLToPath(new URL('../../examples/disputes/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(dir + f, 'utf8')) as unknown }));

describe('docs/rules.md and docs/adjudication.md match the code (regenerate with `npx tsx scripts/readme-rules.ts`)', () => {
  test('docs/rules.md holds the parameter table as generated from PARAMETERS and the presets', () => {
    expect(RULES).toContain(parameterTableMarkdown());
  });

  test('the parameter table has one row per parameter and a column per preset', () => {
    const rows = RULES.split('\n').filter((l) => l.startsWith('| `'));
    for (const p of PARAMETERS)
      expect(
        rows.some((r) => r.startsWith(`| \`${p.path}\` |`)),
        p.path,
      ).toBe(true);
    for (const id of RULE_SET_IDS) expect(RULES).toContain(`| \`${id}\` |`);
  });

  test('docs/adjudication.md holds the example table with the current rulings', () => {
    expect(ADJUDICATION).toContain(disputeTableMarkdown(examples));
  });

  test('docs/adjudication.md holds the verdict and code tables, each with an example query', () => {
    expect(ADJUDICATION).toContain(verdictTableMarkdown());
    expect(ADJUDICATION).toContain(codeTableMarkdown());
  });

  test.each(RULING_CODES)('the example of %s answers that code with a verdict it allows', (code) => {
    const r = exampleRuling(CODE_EXAMPLES[code]);
    if (typeof r === 'string') throw new Error(r);
    expect(r.ruling).toBe(code);
    expect(RULING_CODE_INFO[code].verdicts).toContain(r.verdict);
  });

  test('docs/adjudication.md documents every dispute kind', () => {
    for (const kind of DISPUTE_KINDS) expect(ADJUDICATION, kind).toContain(`| \`${kind}\` |`);
  });
});
