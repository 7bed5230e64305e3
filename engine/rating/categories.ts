import { ruleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { RULE_SET_IDS, type RuleSetId } from '../rules/ruleset.js';

/**
 * Rating categories: rule-set family × pace. Platforms keep separate ratings where the game differs
 * enough to change who wins (Woogles by lexicon/variant and time control, lichess by variant and speed);
 * here the rule set decides the family and the pace is how the game is played.
 */
export const PACES = ['correspondence', 'recorded'] as const;
export type Pace = (typeof PACES)[number];

export const FAMILIES = ['tournament', 'friendly', 'match', 'void'] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * NSA 2008 and WESPA share one family: both are double-challenge tournament Scrabble, and their
 * differences (challenge penalty, procedures) do not make a different game to rate. The friendly house
 * rules (free challenges, free trades), the two-game match variant (scored as matches) and void-challenge
 * play (no phonies on the board) are each a different game. A `Record` over every id, so a new preset
 * does not compile until it is given a family.
 */
export const FAMILY_OF: Readonly<Record<RuleSetId, Family>> = {
  NSA_2008: 'tournament',
  WESPA: 'tournament',
  FRIENDLY: 'friendly',
  MATCH_VARIANT: 'match',
  ONLINE_VOID: 'void',
};

export interface Category {
  /** `family/pace`, e.g. `tournament/correspondence`: the key a rating is stored under. */
  readonly id: string;
  readonly family: Family;
  readonly pace: Pace;
}

export const CATEGORIES: readonly Category[] = FAMILIES.flatMap((family) =>
  PACES.map((pace) => ({ id: `${family}/${pace}`, family, pace })),
);

/** The category a game is rated in, from its rule-set id and pace. */
export function categoryOf(ruleSetId: string, pace: string): Result<Category> {
  if (!(RULE_SET_IDS as readonly string[]).includes(ruleSetId)) {
    return err(ruleError('UNKNOWN_PRESET', `No rule set "${ruleSetId}" to rate.`, { ruleSetId, known: RULE_SET_IDS }));
  }
  if (!(PACES as readonly string[]).includes(pace)) {
    return err(ruleError('UNKNOWN_PACE', `No pace "${pace}"; the paces are ${PACES.join(', ')}.`, { pace, known: PACES }));
  }
  const family = FAMILY_OF[ruleSetId as RuleSetId];
  return ok({ id: `${family}/${pace}`, family, pace: pace as Pace });
}
