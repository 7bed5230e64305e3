/**
 * `arbiter adjudicate DISPUTE.json [--rules PRESET] [--set path=value]… [--json]`: answers a dispute read
 * from a file (the JSON the API takes) under one preset, or under every preset when `--rules` is not
 * given, with its verdict (ALLOWED, FORBIDDEN, NO_RULE, DIRECTOR_DECIDES) and code. Exit 0, or 2 for bad input: unreadable file, invalid JSON, invalid dispute (the message names the
 * field), unknown preset or bad override.
 */
import { readFile } from 'node:fs/promises';
import { adjudicate } from '../engine/adjudication/adjudicate.js';
import { parseDispute } from '../engine/adjudication/parse.js';
import type { Ruling } from '../engine/adjudication/ruling.js';
import { formatCitationTagged } from '../engine/errors.js';
import { RULE_SET_IDS } from '../engine/rules/ruleset.js';
import type { CliIo } from './io.js';
import { resolveWithSets } from './rule-options.js';

const USAGE = 'usage: arbiter adjudicate DISPUTE.json [--rules PRESET] [--set path=value]... [--json]';

const describeEffect = (e: Ruling['effects'][number]): string => {
  const { type, ...rest } = e;
  return `${type} ${Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join(' ')}`;
};

const formatText = (rules: string, r: Ruling): string =>
  [
    `${rules}: ${r.ruling} (${r.verdict})`,
    `  ${r.explanation}`,
    ...r.effects.map((e) => `  - ${describeEffect(e)}`),
    `  cites: ${r.citations.map(formatCitationTagged).join('; ')}`,
  ].join('\n');

export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  let rules: string | undefined;
  let file: string | undefined;
  const sets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--rules' || a === '--set') {
      const v = args[++i];
      if (v === undefined) {
        io.err(`arbiter adjudicate: ${a} needs a value\n${USAGE}`);
        return 2;
      }
      if (a === '--rules') rules = v;
      else sets.push(v);
    } else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return 0;
    } else if (a.startsWith('-') || file !== undefined) {
      io.err(`arbiter adjudicate: unexpected argument "${a}"\n${USAGE}`);
      return 2;
    } else file = a;
  }
  if (file === undefined) {
    io.err(`arbiter adjudicate: no dispute file given\n${USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    io.err(`arbiter adjudicate: cannot read ${file}: ${(e as Error).message}`);
    return 2;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    io.err(`arbiter adjudicate: ${file} is not valid JSON: ${(e as Error).message}`);
    return 2;
  }
  const dispute = parseDispute(data);
  if (!dispute.ok) {
    io.err(`arbiter adjudicate: ${file}: ${dispute.error.code}: ${dispute.error.message}`);
    return 2;
  }
  const answers: { rules: string; ruling: Ruling }[] = [];
  for (const id of rules === undefined ? RULE_SET_IDS : [rules]) {
    const rs = resolveWithSets(id, sets);
    if (!rs.ok) {
      io.err(`arbiter adjudicate: ${rs.error.code}: ${rs.error.message}`);
      return 2;
    }
    const r = adjudicate(dispute.value, rs.value);
    if (!r.ok) {
      io.err(`arbiter adjudicate: ${file}: ${r.error.code}: ${r.error.message}`);
      return 2;
    }
    answers.push({ rules: id, ruling: r.value });
  }
  if (json) {
    const shaped = answers.map((a) => ({ rules: a.rules, ...a.ruling }));
    io.out(JSON.stringify(rules === undefined ? shaped : shaped[0], null, 2));
  } else {
    io.out(answers.map((a) => formatText(a.rules, a.ruling)).join('\n\n'));
  }
  return 0;
}
