/**
 * The description of each dispute kind as plain data: its facts (type, unit, range, default, the rule each
 * feeds), the rule-set parameters its ruling reads, the act its verdict judges, the rules it comes from and
 * an example. One source for the parser (`parse.ts` reads the facts from it), the API's typed inputs and the
 * `disputeKinds` query (graph/disputes.ts), and the docs.
 */

/** A GraphQL-safe name for a closed vocabulary of fact values, shared by every kind that uses it. */
export interface FactEnum {
  readonly name: string;
  readonly description: string;
  readonly values: readonly string[];
}

export type FactType =
  /** An integer in [min, max]. */
  | { readonly type: 'int'; readonly min: number; readonly max: number }
  /** A non-negative number (fractions allowed) up to max. */
  | { readonly type: 'number'; readonly max: number }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly enum: FactEnum }
  /** `{player, opponent}`, integers. */
  | { readonly type: 'scores' }
  /** Tiles in notation: capitals, `?` a blank, `[CH]` a digraph; between min and max tiles. */
  | { readonly type: 'tiles'; readonly min: number; readonly max: number }
  /** One letter tile in capitals (`E`, `CH`). */
  | { readonly type: 'letter' }
  /** A list of enum values, at least minItems. */
  | { readonly type: 'enum-list'; readonly enum: FactEnum; readonly minItems: number }
  /** A list of `{player, opponent}` scores, at least minItems. */
  | { readonly type: 'scores-list'; readonly minItems: number }
  /** A list of objects with the given facts, at least minItems; `itemName` names the item type. */
  | { readonly type: 'object-list'; readonly itemName: string; readonly item: readonly FactSpec[]; readonly minItems: number };

export type FactSpec = FactType & {
  readonly name: string;
  readonly description: string;
  /** What the number counts: tiles, seconds, minutes, points, plays, events, requests, words. */
  readonly unit?: string;
  /** Used when the fact is left out. Absent with `optional` unset: the fact is required. */
  readonly default?: number | boolean | readonly string[];
  /** May be left out (or null) with no fixed default: the kind's parser decides (said in `description`). */
  readonly optional?: true;
  /** The rule or rule-set parameter this fact feeds. */
  readonly feeds: string;
};

/**
 * A rule-set parameter whose absence means the rule set has no rule for the kind: null and `none` always
 * count as absent; `absent` adds the values that also do (`online` for the medium, `void` for the challenge
 * mode, 0 for a number that switches a procedure off). A NO_RULE verdict needs one of them absent.
 */
export interface Gate {
  readonly path: string;
  readonly absent: readonly (string | number | boolean)[];
}

export interface DisputeKindSpec {
  readonly kind: string;
  /** What happened, in one sentence. */
  readonly description: string;
  /** The act the verdict judges: ALLOWED if it stands, FORBIDDEN if it broke a rule or the request is refused. */
  readonly act: string;
  /** The seed documents and researched rules it comes from. */
  readonly sources: readonly string[];
  /** Every rule-set parameter the ruling reads (a test checks that changing any other leaves the ruling alone). */
  readonly parameters: readonly string[];
  readonly gates: readonly Gate[];
  readonly facts: readonly FactSpec[];
  /** One dispute of the kind, the same as `examples/disputes/<kind>.json` (a test checks). */
  readonly example: Readonly<Record<string, unknown>>;
}

export const gate = (path: string, ...absent: (string | number | boolean)[]): Gate => ({ path, absent });

/** Over-the-board irregularities have no rule online: the server deals, times and scores (platform-differences §3.2). */
export const ONLINE = gate('play.medium', 'online');
/** Under VOID there are no challenges (Woogles). */
export const VOID = gate('challenge.mode', 'void');

/** Whether `value` of the gate's parameter means "no rule". */
export const isAbsent = (g: Gate, value: unknown): boolean =>
  value === null || value === undefined || value === 'none' || g.absent.includes(value as string | number | boolean);

export const MAX_RACK = 21;
export const DEFAULT_RACK = 7;

const fact = (name: string, type: FactType, description: string, feeds: string, more: Partial<FactSpec> = {}): FactSpec =>
  ({ name, ...type, description, feeds, ...more }) as FactSpec;

/** Constructors that keep the family files short; `more` carries unit, default and optional. */
export const f = {
  int: (name: string, min: number, max: number, description: string, feeds: string, more?: Partial<FactSpec>) =>
    fact(name, { type: 'int', min, max }, description, feeds, more),
  number: (name: string, max: number, description: string, feeds: string, more?: Partial<FactSpec>) =>
    fact(name, { type: 'number', max }, description, feeds, more),
  bool: (name: string, description: string, feeds: string, more?: Partial<FactSpec>) =>
    fact(name, { type: 'boolean' }, description, feeds, more),
  oneOf: (name: string, e: FactEnum, description: string, feeds: string, more?: Partial<FactSpec>) =>
    fact(name, { type: 'enum', enum: e }, description, feeds, more),
  scores: (name: string, description: string, feeds: string, more?: Partial<FactSpec>) =>
    fact(name, { type: 'scores' }, description, feeds, more),
  rackSize: (feeds: string): FactSpec =>
    fact('rackSize', { type: 'int', min: 1, max: MAX_RACK }, 'Tiles on a full rack.', feeds, { unit: 'tiles', default: DEFAULT_RACK }),
};

export const enumOf = (name: string, values: readonly string[], description: string): FactEnum => ({ name, values, description });

/** The API's name for a fact value: `drawn-not-racked` → `DRAWN_NOT_RACKED` (GraphQL enum values are names). */
export const enumValueName = (value: string): string => value.toUpperCase().replace(/-/g, '_');
