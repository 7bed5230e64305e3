import { getParameter } from '../rules/params.js';
import type { RuleSet } from '../rules/ruleset.js';
import { codeInfo } from './codes.js';
import { isAbsent, type DisputeKindSpec } from './kinds/index.js';
import { REMEDY_EFFECT_TYPES, type Effect, type Ruling } from './ruling.js';

const REMEDIES: ReadonlySet<string> = new Set(REMEDY_EFFECT_TYPES);

/** An effect that hands the outcome to the director. */
const namesDirector = (e: Effect): boolean =>
  e.type === 'director-decides' ||
  (e.type === 'challenge-allowed' && e.allowed === 'director-decides') ||
  (e.type === 'result-slip' && e.action === 'director-decides');

/**
 * What is wrong with a ruling's verdict, as sentences (empty when it is consistent): the verdict is one its
 * code allows; a FORBIDDEN ruling undoes or penalises something unless its code is NO_REMEDY_STATED or a
 * refusal; NO_RULE (and only NO_RULE) carries NOT_APPLICABLE and no effect, and one of the kind's gate
 * parameters is absent in the rule set; DIRECTOR_DECIDES goes with an effect naming the director, and only
 * it does.
 */
export const verdictProblems = (r: Ruling, spec: DisputeKindSpec, rs: RuleSet): string[] => {
  const problems: string[] = [];
  const info = codeInfo(r.ruling);
  if (!(info.verdicts as readonly string[]).includes(r.verdict))
    problems.push(`${r.ruling} may carry ${info.verdicts.join(' or ')}, not ${r.verdict}`);
  const remedies = r.effects.filter((e) => REMEDIES.has(e.type));
  if (r.verdict === 'FORBIDDEN' && remedies.length === 0 && r.ruling !== 'NO_REMEDY_STATED' && info.refusal !== true)
    problems.push(`FORBIDDEN with ${r.ruling} undoes nothing (effects: ${r.effects.map((e) => e.type).join(', ') || 'none'})`);
  if ((r.verdict === 'NO_RULE') !== (r.ruling === 'NOT_APPLICABLE')) problems.push(`${r.ruling} with verdict ${r.verdict}`);
  if (r.verdict === 'NO_RULE') {
    if (r.effects.length > 0) problems.push('NO_RULE with effects');
    const absent = spec.gates.filter((g) => isAbsent(g, getParameter(rs, g.path)));
    if (absent.length === 0)
      problems.push(
        `NO_RULE, but ${rs.id} has every parameter the kind needs (${spec.gates.map((g) => g.path).join(', ') || 'none declared'})`,
      );
  }
  if ((r.verdict === 'DIRECTOR_DECIDES') !== r.effects.some(namesDirector))
    problems.push(`verdict ${r.verdict} with ${r.effects.some(namesDirector) ? '' : 'no '}effect naming the director`);
  return problems;
};
