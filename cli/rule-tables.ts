/**
 * Markdown tables for docs/rules.md and docs/adjudication.md, generated from `PARAMETERS`, the
 * presets and the example disputes so the manual cannot drift from the code (test/cli/readme-rules.test.ts
 * checks it; `npx tsx scripts/readme-rules.ts` prints fresh tables).
 */
import { adjudicate } from '../engine/adjudication/adjudicate.js';
import { parseDispute } from '../engine/adjudication/parse.js';
import { formatCitationTagged } from '../engine/errors.js';
import { formatParameterValue, getParameter, PARAMETERS } from '../engine/rules/params.js';
import { PRESETS } from '../engine/rules/presets.js';
import { RULE_SET_IDS } from '../engine/rules/ruleset.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** parameter | meaning | one column per preset with "`value` — source [tag]". */
export const parameterTableMarkdown = (): string => {
  const head = `| parameter | meaning | ${RULE_SET_IDS.join(' | ')} |`;
  const rule = `| --- | --- | ${RULE_SET_IDS.map(() => '---').join(' | ')} |`;
  const rows = PARAMETERS.map((p) => {
    const cells = RULE_SET_IDS.map((id) => {
      const rs = PRESETS[id];
      const src = (rs.sources[p.path] ?? []).map(formatCitationTagged).join('; ');
      return cell(`\`${formatParameterValue(getParameter(rs, p.path))}\` — ${src}`);
    });
    return `| \`${p.path}\` | ${cell(p.description)} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
};

/** kind | example (the file's JSON, minus its description) | the ruling code under each preset. */
export const disputeTableMarkdown = (examples: readonly { readonly name: string; readonly json: unknown }[]): string => {
  const head = `| example | facts | ${RULE_SET_IDS.join(' | ')} |`;
  const rule = `| --- | --- | ${RULE_SET_IDS.map(() => '---').join(' | ')} |`;
  const rows = examples.map(({ name, json }) => {
    const { description: _d, ...facts } = json as Record<string, unknown>;
    const d = parseDispute(json);
    const codes = RULE_SET_IDS.map((id) => {
      if (!d.ok) return `error: ${d.error.code}`;
      const r = adjudicate(d.value, PRESETS[id]);
      return r.ok ? `\`${r.value.ruling}\`` : `error: ${r.error.code}`;
    });
    return `| \`${name}\` | \`${cell(JSON.stringify(facts))}\` | ${codes.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
};
