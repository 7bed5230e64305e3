/**
 * Prints the generated tables of the manual: `npx tsx scripts/readme-rules.ts`. The first (every parameter under
 * every preset) belongs in docs/rules.md, the second (one example per dispute kind) in docs/adjudication.md;
 * test/cli/readme-rules.test.ts fails until both match the code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { disputeTableMarkdown, parameterTableMarkdown } from '../cli/rule-tables.js';

const dir = fileURLToPath(new URL('../examples/disputes/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(dir + f, 'utf8')) as unknown }));
process.stdout.write(`${parameterTableMarkdown()}\n\n${disputeTableMarkdown(examples)}\n`);
