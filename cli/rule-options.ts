/**
 * Options shared by `arbiter rules` and `arbiter adjudicate`: `--set path=value` (repeatable) overrides a
 * rule-set parameter; the result goes through `resolveRuleSet`, so errors name the parameter.
 */
import type { RuleError } from '../engine/errors.js';
import { overridesFromAssignments, parseParameterAssignment, resolveRuleSet } from '../engine/rules/params.js';
import { err, ok, type Result } from '../engine/result.js';
import type { RuleSet } from '../engine/rules/ruleset.js';

export const resolveWithSets = (presetId: string, sets: readonly string[]): Result<RuleSet, RuleError> => {
  const assignments: { path: string; value: unknown }[] = [];
  for (const s of sets) {
    const a = parseParameterAssignment(s);
    if (!a.ok) return err(a.error);
    assignments.push(a.value);
  }
  const r = resolveRuleSet(presetId, assignments.length ? overridesFromAssignments(assignments) : undefined);
  return r.ok ? ok(r.value) : r;
};
