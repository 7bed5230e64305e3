import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { Party } from './dispute.js';

/** Stable ruling codes; clients switch on these. */
export const RULING_CODES = [
  'NOT_APPLICABLE',
  'NO_PENALTY',
  'TURN_IS_PASS',
  'TURN_LOST',
  'ZERO_TILE_EXCHANGE',
  'TILES_SHOWN_AND_RETURNED',
  'OPPONENT_CHOOSES_TILES',
  'SCORE_PENALTY',
  'FACE_DOWN_COUNT_EXCHANGED',
  'ALL_TILES_EXCHANGED',
  'BREAK_ALLOWANCE',
  'CLOCK_CHARGED',
  'GAME_FORFEITED',
  'OVERTIME_PENALTY',
  'PLAY_WITHDRAWN',
  'PLAY_AGAIN',
  'PLAY_STANDS',
  'CHALLENGER_LOSES_TURN',
  'CHALLENGE_POINTS',
  'CHALLENGER_LOSES_GAME',
  'CHALLENGER_WINS_GAME',
  'OVERDRAW_PROCEDURE',
  'DIRECTOR_MAY_ALLOW_CHALLENGE',
  'CHALLENGE_ALLOWED',
  'PLAY_ACCEPTED',
  'WINDOW_OPEN',
  'HOLD_VALID',
  'CHALLENGE_VALID',
  'GAME_OVER',
  'OPPONENT_CLOCK_RESTARTS',
  'OPPONENT_GIVES_TILES',
  'NO_CORRECTION',
  'SCORE_CORRECTED',
  'CORRECTION_ALLOWED',
  'SLIP_CORRECTED',
  'RESULT_STANDS',
  'DIRECTOR_DISCRETION',
  'RECOUNT_ALLOWED',
  'RECOUNT_REFUSED',
  'GAME_ENDS',
  'GAME_CONTINUES',
  'GOING_OUT_BONUS',
  'RESIGNATION_SCORED',
  'GAME_RESIGNED',
  'FIRSTS_ASSIGNED',
  'TIE_STANDS',
  'TIE_BROKEN',
  'MATCH_DECIDED',
  'MATCH_TIED',
  'TILES_COUNT_AS_DRAWN',
  'RULING_CORRECTED',
  'CHALLENGE_REISSUED',
  'RESULT_RECALCULATED',
  'BLANK_DECLARATION_DEMANDED',
  'DESIGNATION_STANDS',
  'REQUEST_REFUSED',
  'GAME_ABORTED',
  'SUBSTITUTION_ALLOWED',
  'SUBSTITUTION_REFUSED',
  'FREE_TRADE_ALLOWED',
  'FREE_TRADE_REFUSED',
] as const;
export type RulingCode = (typeof RULING_CODES)[number];

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

/** The answer to a dispute: a stable code, concrete effects, the rules relied on, and one or two plain sentences. */
export interface Ruling {
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

export const ruling = (code: RulingCode, effects: readonly Effect[], citations: readonly Citation[], explanation: string): Ruling => ({
  ruling: code,
  effects,
  citations,
  explanation,
});

/** The rule set has no rule for this dispute; `reason` says why, citing the parameters that show it. */
export const notApplicable = (reason: string, citations: readonly Citation[]): Ruling => ruling('NOT_APPLICABLE', [], citations, reason);

/**
 * Online play (the server deals tiles, keeps the clock and the score) cannot produce the physical
 * irregularities of over-the-board play (platform-differences §3.2).
 */
export const onlineNotApplicable = (rs: RuleSet, what: string): Ruling | undefined =>
  rs.play.medium === 'online'
    ? notApplicable(
        `${rs.name} is played online: the server deals the tiles and keeps the clock and the score, so ${what} cannot happen.`,
        citeParams(rs, 'play.medium'),
      )
    : undefined;

/** Under VOID no challenge exists (Woogles macondo game/challenge.go; platform-differences §3.4). */
export const voidNotApplicable = (rs: RuleSet): Ruling | undefined =>
  rs.challenge.mode === 'void'
    ? notApplicable(
        `Under ${rs.name} words are checked when the move is submitted, so there are no challenges.`,
        citeParams(rs, 'challenge.mode'),
      )
    : undefined;

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
