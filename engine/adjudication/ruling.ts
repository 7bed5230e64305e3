import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import { codeInfo, type RulingCode, type Verdict } from './codes.js';
import type { Party } from './dispute.js';

export { RULING_CODES, VERDICTS, type RulingCode, type Verdict } from './codes.js';

/** What the opponent's choice of tiles is for. */
export const CHOICE_PURPOSES = ['give-to-player', 'keep-on-player-rack', 'return-to-bag'] as const;
export type ChoicePurpose = (typeof CHOICE_PURPOSES)[number];

export const CLOCK_ACTIONS = ['charge', 'start', 'restart', 'neutralise'] as const;
export type ClockAction = (typeof CLOCK_ACTIONS)[number];

/** A concrete consequence of a ruling. Tile sets are described in words; counts are numbers where the rule gives one. */
export type Effect =
  | { readonly type: 'score-delta'; readonly party: Party; readonly points: number }
  | { readonly type: 'turn-becomes-pass'; readonly party: Party }
  | { readonly type: 'tiles-exchanged'; readonly party: Party; readonly count: number }
  | { readonly type: 'play-withdrawn'; readonly party: Party }
  /** A play wrongly taken off the board goes back on it, with its score. */
  | { readonly type: 'play-restored'; readonly party: Party }
  | { readonly type: 'play-again'; readonly party: Party }
  | { readonly type: 'tiles-shown'; readonly to: Party | 'both'; readonly tiles: string; readonly count: number | null }
  | { readonly type: 'tiles-returned-to-bag'; readonly tiles: string; readonly count: number | null }
  | { readonly type: 'tiles-returned-to-rack'; readonly party: Party; readonly tiles: string }
  | {
      readonly type: 'opponent-chooses';
      readonly chooser: Party;
      readonly from: string;
      readonly count: number | null;
      readonly purpose: ChoicePurpose;
      readonly withinSeconds: number | null;
    }
  | { readonly type: 'clock'; readonly party: Party; readonly action: ClockAction; readonly seconds: number | null; readonly when: string }
  | { readonly type: 'forfeit-option'; readonly party: Party }
  | { readonly type: 'game-forfeited'; readonly loser: Party; readonly margin: number | null }
  | { readonly type: 'game-ends'; readonly reason: string }
  | { readonly type: 'winner'; readonly party: Party | 'tie' }
  | { readonly type: 'challenge-allowed'; readonly allowed: boolean | 'director-decides' }
  | { readonly type: 'result-slip'; readonly action: 'correct' | 'stands' | 'director-decides' }
  | { readonly type: 'recount'; readonly allowed: boolean }
  | { readonly type: 'first-second'; readonly round: number; readonly position: 'first' | 'second' | 'neither' }
  | { readonly type: 'director-decides'; readonly question: string }
  | { readonly type: 'tiles-drawn'; readonly party: Party; readonly count: number | null }
  | { readonly type: 'tiles-in-game'; readonly total: number }
  | { readonly type: 'blank-substituted'; readonly party: Party; readonly letter: string }
  | {
      readonly type: 'free-trade-option';
      readonly tile: string;
      /** How Y is read for this option (null when the rack has no Y). */
      readonly yAs: 'vowel' | 'consonant' | null;
      readonly conditions: readonly string[];
    };

export type EffectType = Effect['type'];

/**
 * Effects that undo or penalise an act (or settle what follows it): a FORBIDDEN ruling carries at least one,
 * unless its code is NO_REMEDY_STATED or a refusal. The others only inform (the director's question, the
 * tiles in the game, free-trade options, firsts and seconds, a blank substituted, a play again, a recount).
 */
export const REMEDY_EFFECT_TYPES = [
  'score-delta',
  'turn-becomes-pass',
  'tiles-exchanged',
  'play-withdrawn',
  'play-restored',
  'tiles-shown',
  'tiles-returned-to-bag',
  'tiles-returned-to-rack',
  'opponent-chooses',
  'clock',
  'forfeit-option',
  'game-forfeited',
  'game-ends',
  'winner',
  'challenge-allowed',
  'result-slip',
  'tiles-drawn',
] as const satisfies readonly EffectType[];

/** The answer to a dispute: whether the act was allowed, a stable code, concrete effects, the rules relied on, and one or two plain sentences. */
export interface Ruling {
  readonly verdict: Verdict;
  readonly ruling: RulingCode;
  readonly effects: readonly Effect[];
  readonly citations: readonly Citation[];
  readonly explanation: string;
}

/** The citations behind the named parameters of a rule set (overridden ones cite the override). */
export const citeParams = (rs: RuleSet, ...paths: string[]): Citation[] => mergeCitations(...paths.map((path) => rs.sources[path] ?? []));

/** Citation lists joined, each citation once (by source and rule). */
export const mergeCitations = (...lists: readonly (readonly Citation[])[]): Citation[] => {
  const seen = new Set<string>();
  return lists.flat().filter((c) => {
    const key = `${c.source}|${c.rule}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
};

/** A ruling; its verdict is the code's usual one (codes.ts) unless the act in dispute calls for another the code allows. */
export const ruling = (
  code: RulingCode,
  effects: readonly Effect[],
  citations: readonly Citation[],
  explanation: string,
  verdict: Verdict = codeInfo(code).verdicts[0],
): Ruling => ({ verdict, ruling: code, effects, citations, explanation });

/** The rule set has no rule for this dispute (verdict NO_RULE); `reason` says why, citing the absent parameters. */
export const noRule = (reason: string, citations: readonly Citation[]): Ruling =>
  ruling('NOT_APPLICABLE', [], citations, reason, 'NO_RULE');

/**
 * Online play (the server deals tiles, keeps the clock and the score) cannot produce the physical
 * irregularities of over-the-board play (platform-differences §3.2).
 */
export const onlineNoRule = (rs: RuleSet, what: string): Ruling | undefined =>
  rs.play.medium === 'online'
    ? noRule(
        `${rs.name} is played online: the server deals the tiles and keeps the clock and the score, so ${what} cannot happen.`,
        citeParams(rs, 'play.medium'),
      )
    : undefined;

/** Under VOID no challenge exists (Woogles macondo game/challenge.go; platform-differences §3.4). */
export const voidNoRule = (rs: RuleSet): Ruling | undefined =>
  rs.challenge.mode === 'void'
    ? noRule(`Under ${rs.name} words are checked when the move is submitted, so there are no challenges.`, citeParams(rs, 'challenge.mode'))
    : undefined;

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
