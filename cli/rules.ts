/**
 * `arbiter rules [PRESET] [--set path=value]… [--json]`: the presets and every parameter with its value
 * and source. Exit 0, or 2 for an unknown preset or a bad override.
 */
import { formatCitationTagged } from '../engine/errors.js';
import { describeParameterType, formatParameterValue, getParameter, PARAMETERS } from '../engine/rules/params.js';
import { RULE_SET_IDS, type RuleSet } from '../engine/rules/ruleset.js';
import type { CliIo } from './io.js';
import { resolveWithSets } from './rule-options.js';

const USAGE = 'usage: arbiter rules [PRESET] [--set path=value]... [--json]';

const describe = (rs: RuleSet) => ({
  id: rs.id,
  name: rs.name,
  description: rs.description,
  parameters: PARAMETERS.map((p) => ({
    path: p.path,
    description: p.description,
    type: p.type,
    value: getParameter(rs, p.path),
    sources: rs.sources[p.path] ?? [],
  })),
});

const formatText = (rs: RuleSet): string => {
  const width = Math.max(...PARAMETERS.map((p) => p.path.length));
  const lines = [`${rs.id} — ${rs.name}`, `  ${rs.description}`, ''];
  for (const p of PARAMETERS) {
    const src = (rs.sources[p.path] ?? []).map(formatCitationTagged).join('; ');
    lines.push(`  ${p.path.padEnd(width)}  ${formatParameterValue(getParameter(rs, p.path)).padEnd(28)}  ${src}`);
  }
  return lines.join('\n');
};

export async function run(args: string[], io: CliIo): Promise<number> {
  let json = false;
  let preset: string | undefined;
  const sets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--set') {
      const v = args[++i];
      if (v === undefined) {
        io.err(`arbiter rules: --set needs path=value\n${USAGE}`);
        return 2;
      }
      sets.push(v);
    } else if (a === '--help' || a === '-h') {
      io.out(
        `${USAGE}\n\npresets: ${RULE_SET_IDS.join(', ')}\nparameters:\n${PARAMETERS.map((p) => `  ${p.path}: ${p.description} (${describeParameterType(p.type)})`).join('\n')}`,
      );
      return 0;
    } else if (a.startsWith('-') || preset !== undefined) {
      io.err(`arbiter rules: unexpected argument "${a}"\n${USAGE}`);
      return 2;
    } else preset = a;
  }
  if (sets.length && preset === undefined) {
    io.err(`arbiter rules: --set needs a PRESET to override\n${USAGE}`);
    return 2;
  }
  const ruleSets: RuleSet[] = [];
  for (const id of preset === undefined ? RULE_SET_IDS : [preset]) {
    const r = resolveWithSets(id, sets);
    if (!r.ok) {
      io.err(`arbiter rules: ${r.error.code}: ${r.error.message}`);
      return 2;
    }
    ruleSets.push(r.value);
  }
  if (json) {
    io.out(JSON.stringify(preset === undefined ? { presets: ruleSets.map(describe) } : describe(ruleSets[0]!), null, 2));
  } else {
    io.out(ruleSets.map(formatText).join('\n\n'));
  }
  return 0;
}
