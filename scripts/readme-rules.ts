/** Prints the README tables for the "rules" and "adjudication" sections: `npx tsx scripts/readme-rules.ts`. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { disputeTableMarkdown, parameterTableMarkdown } from '../cli/rule-tables.js';

const dir = fileURLToPath(new URL('../examples/disputes/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(dir + f, 'utf8')) as unknown }));
process.stdout.write(`${parameterTableMarkdown()}\n\n${disputeTableMarkdown(examples)}\n`);
