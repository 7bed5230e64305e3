/**
 * Prints the generated tables of the manual: `npx tsx scripts/readme-rules.ts`. The first (every parameter under
 * every preset) belongs in docs/rules.md, the others (verdicts, ruling codes, one example per dispute kind) in
 * docs/adjudication.md; test/cli/readme-rules.test.ts fails until they match the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeTableMarkdown, disputeTableMarkdown, parameterTableMarkdown, verdictTableMarkdown } from '../cli/rule-tables.js';

const dir = fileURLToPath(new URL('../examples/disputes/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(dir + f, 'utf8')) as unknown }));
process.stdout.write(
  `${parameterTableMarkdown()}\n\n${verdictTableMarkdown()}\n\n${codeTableMarkdown()}\n\n${disputeTableMarkdown(examples)}\n`,
);
