/**
 * The rule documents Arbiter implements. `seed-000`..`seed-003` are the product's founding documents;
 * the others are the researched references (see README "Rule sets").
 */
export const RULE_SOURCES = {
  'seed-000': 'Tile exchange: when you can swap, disputes and penalties',
  'seed-001': 'NSA rules changes, 25 July 2008',
  'seed-002': 'Rules for Friendly (non-tournament) Scrabble rev4',
  'seed-003': 'Two-game match variant: rules and scoring',
  'wespa-3.0': 'WESPA Rules, version 3.0',
  naspa: 'NASPA Official Tournament Rules (2009–2015 numbering)',
  woogles: 'Woogles.io (liwords/macondo source code)',
  gcg: 'GCG file format (poslfit.com, as implemented by macondo/MAGPIE/Quackle)',
  override: 'A rule-set parameter overridden for this game or tournament',
} as const;
export type RuleSource = keyof typeof RULE_SOURCES;

/** A pointer into a rule document: which document, which rule, how well it is sourced. */
export interface Citation {
  readonly source: RuleSource;
  /** Rule number or section inside the document, e.g. `"rule 5"`, `"scoring 3"`, `"§6"`, `"3.10.15(i)"`. */
  readonly rule: string;
  /** Verification tag from the reference documents: V read in primary text, P primary excerpt, S secondary, Seed, U unverified. */
  readonly verification?: 'V' | 'P' | 'S' | 'Seed' | 'U';
}

export const cite = (source: RuleSource, rule: string, verification?: Citation['verification']): Citation =>
  verification ? { source, rule, verification } : { source, rule };

/** Formats a citation for messages: `seed-003 rule 5`. */
export const formatCitation = (c: Citation): string => `${c.source} ${c.rule}`;

/** As {@link formatCitation}, with the verification tag when there is one: `wespa-3.0 3.10.15(i) [V]`. */
export const formatCitationTagged = (c: Citation): string => `${formatCitation(c)}${c.verification ? ` [${c.verification}]` : ''}`;

/**
 * Every expected failure in the engine. `code` is stable (clients switch on it); `message` is a
 * sentence for people that names the offending field, square or tile; `details` carries the data.
 */
export interface RuleError {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly citation?: Citation;
}

export const ruleError = (code: string, message: string, details?: Record<string, unknown>, citation?: Citation): RuleError => {
  const e: { code: string; message: string; details?: Record<string, unknown>; citation?: Citation } = { code, message };
  if (details !== undefined) e.details = details;
  if (citation !== undefined) e.citation = citation;
  return e;
};
