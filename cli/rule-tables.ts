/**
 * Markdown tables for docs/rules.md and docs/adjudication.md, generated from `PARAMETERS`, the
 * presets and the example disputes so the manual cannot drift from the code (test/cli/readme-rules.test.ts
 * checks it; `npx tsx scripts/readme-rules.ts` prints fresh tables).
 */
import { adjudicate } from '../engine/adjudication/adjudicate.js';
import { RULING_CODE_INFO, RULING_CODES, VERDICT_INFO, VERDICTS, type RulingCode, type Verdict } from '../engine/adjudication/codes.js';
import { isDisputeKind } from '../engine/adjudication/dispute.js';
import { enumValueName, kindField, specOf, type FactSpec } from '../engine/adjudication/kinds/index.js';
import { parseDispute } from '../engine/adjudication/parse.js';
import type { Ruling } from '../engine/adjudication/ruling.js';
import { formatCitationTagged } from '../engine/errors.js';
import { formatParameterValue, getParameter, PARAMETERS, resolveRuleSet } from '../engine/rules/params.js';
import { PRESETS } from '../engine/rules/presets.js';
import { RULE_SET_IDS } from '../engine/rules/ruleset.js';
import { CODE_EXAMPLES, type CodeExample } from './code-examples.js';

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
      return r.ok ? `\`${r.value.ruling}\` ${r.value.verdict}` : `error: ${r.error.code}`;
    });
    return `| \`${name}\` | \`${cell(JSON.stringify(facts))}\` | ${codes.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
};

/** A value as a GraphQL literal; enum facts (by their description) as enum names. */
const literal = (v: unknown, fact?: FactSpec): string => {
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, fact?.type === 'object-list' ? fact : fact)).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    const item = fact?.type === 'object-list' ? fact.item : [];
    return `{ ${Object.entries(v)
      .map(
        ([k, x]) =>
          `${k}: ${literal(
            x,
            item.find((i) => i.name === k),
          )}`,
      )
      .join(', ')} }`;
  }
  if (typeof v === 'string') return fact?.type === 'enum' || fact?.type === 'enum-list' ? enumValueName(v) : JSON.stringify(v);
  return String(v);
};

/** The `adjudicate` query for an example, with the typed input (`input: {overtime: {secondsOver: 125}}`). */
export const exampleQuery = (e: CodeExample): string => {
  const { kind, description: _d, ...facts } = e.dispute;
  if (!isDisputeKind(kind)) return `error: unknown kind ${String(kind)}`;
  const spec = specOf(kind);
  const fields = Object.entries(facts).map(
    ([k, v]) =>
      `${k}: ${literal(
        v,
        spec.facts.find((x) => x.name === k),
      )}`,
  );
  const overrides = e.overrides ? `, overrides: ${literal(e.overrides)}` : '';
  return `adjudicate(ruleSet: "${e.rules}"${overrides}, input: { ${kindField(kind)}: { ${fields.join(', ')} } })`;
};

/** The ruling an example gets, or the reason it cannot be answered. */
export const exampleRuling = (e: CodeExample): Ruling | string => {
  const rs = resolveRuleSet(e.rules, e.overrides);
  if (!rs.ok) return rs.error.code;
  const d = parseDispute(e.dispute);
  if (!d.ok) return d.error.code;
  const r = adjudicate(d.value, rs.value);
  return r.ok ? r.value : r.error.code;
};

const answered = (e: CodeExample): string => {
  const r = exampleRuling(e);
  return typeof r === 'string' ? `error: ${r}` : `\`${r.ruling}\` ${r.verdict}`;
};

/** code | verdicts | meaning and rules | an example query and what it answers. */
export const codeTableMarkdown = (): string => {
  const rows = RULING_CODES.map((code: RulingCode) => {
    const info = RULING_CODE_INFO[code];
    const note = 'deprecated' in info ? ` **Deprecated:** ${info.deprecated}` : '';
    const e = CODE_EXAMPLES[code];
    return `| \`${code}\` | ${info.verdicts.join(', ')} | ${cell(info.description + note)} | \`${cell(exampleQuery(e))}\` → ${answered(e)} |`;
  });
  return ['| code | verdicts | meaning (rules) | example query → answer |', '| --- | --- | --- | --- |', ...rows].join('\n');
};

/** The code whose example shows each verdict. */
const VERDICT_EXAMPLES: { readonly [V in Verdict]: RulingCode } = {
  ALLOWED: 'NO_PENALTY',
  FORBIDDEN: 'NO_REMEDY_STATED',
  NO_RULE: 'NOT_APPLICABLE',
  DIRECTOR_DECIDES: 'DIRECTOR_DISCRETION',
};

/** verdict | meaning | an example query and what it answers. */
export const verdictTableMarkdown = (): string => {
  const rows = VERDICTS.map((v) => {
    const e = CODE_EXAMPLES[VERDICT_EXAMPLES[v]];
    return `| \`${v}\` | ${cell(VERDICT_INFO[v])} | \`${cell(exampleQuery(e))}\` → ${answered(e)} |`;
  });
  return ['| verdict | meaning | example query → answer |', '| --- | --- | --- |', ...rows].join('\n');
};
