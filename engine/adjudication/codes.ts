/**
 * The closed vocabularies of a ruling: its verdict (was the act in dispute allowed?) and its code (what
 * follows). Both are data with a description naming the rules they come from; the API's enums, the CLI and
 * the docs read them from here.
 */

/** Whether the act in dispute was allowed, apart from what follows (the code and effects). */
export const VERDICTS = ['ALLOWED', 'FORBIDDEN', 'NO_RULE', 'DIRECTOR_DECIDES'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const VERDICT_INFO: { readonly [V in Verdict]: string } = {
  ALLOWED:
    'The act in dispute stands: it was within the rules, the rules let it pass without penalty, or the request in dispute is granted. Effects are only its ordinary consequences (a challenger losing a turn, end-of-game scoring).',
  FORBIDDEN:
    'The act broke a rule of the rule set, or the request is refused. The code and the effects give the remedy or penalty; NO_REMEDY_STATED when the rule set forbids the act but names no remedy; a refusal code (…_REFUSED, RESULT_STANDS) when nothing happened that needs undoing.',
  NO_RULE:
    'The rule set has no rule for this question: the rule-set parameter that would decide it is absent (none, null) or the medium rules it out (online play, void challenges). Its code is NOT_APPLICABLE.',
  DIRECTOR_DECIDES:
    'The rules leave the outcome to the tournament director; an effect names the question (director-decides, or challenge-allowed / result-slip with "director-decides").',
};

interface CodeInfo {
  /** The verdicts a ruling with this code may carry; the first is the usual one. */
  readonly verdicts: readonly [Verdict, ...Verdict[]];
  readonly description: string;
  /** A refused request: nothing happened, so a FORBIDDEN ruling with this code undoes nothing and needs no effect. */
  readonly refusal?: true;
  /** Kept for clients that switch on it; say why and what replaces it. */
  readonly deprecated?: string;
}

const A = 'ALLOWED';
const F = 'FORBIDDEN';
const D = 'DIRECTOR_DECIDES';

/** Every ruling code, with its verdicts and the rules it comes from. Clients switch on these. */
export const RULING_CODE_INFO = {
  NOT_APPLICABLE: {
    verdicts: ['NO_RULE'],
    description: 'The rule set has no rule for this dispute (verdict NO_RULE); the explanation says why and cites the absent parameter.',
    deprecated:
      'Switch on `verdict`: NOT_APPLICABLE now appears only with verdict NO_RULE. A legal act is ALLOWED (e.g. NO_PENALTY); an act forbidden without a remedy is FORBIDDEN with NO_REMEDY_STATED.',
  },
  NO_REMEDY_STATED: {
    verdicts: [F],
    description:
      'The rule set forbids the act but names no remedy or penalty (seed-003 rule 11: no more tiles exchanged than the bag holds, with no penalty given).',
  },
  NO_PENALTY: {
    verdicts: [A],
    description:
      'Nothing follows: the act was legal, or the rules expressly let it pass (seed-000 "Disputes"; WESPA 3.9.9, 3.10.15(c)–(d), 4.4).',
  },
  TURN_IS_PASS: { verdicts: [F], description: 'The turn counts as a pass (seed-000 "Penalties"; WESPA 3.10.15(b), (i)(ii)–(v)).' },
  TURN_LOST: { verdicts: [F], description: 'The player loses the turn and may not exchange (seed-000 "Penalties").' },
  ZERO_TILE_EXCHANGE: { verdicts: [A], description: 'An exchange of no tiles is a legal turn (seed-003 rule 11).' },
  TILES_SHOWN_AND_RETURNED: {
    verdicts: [F],
    description:
      'The tiles in question are shown and returned to the bag (seed-000 "Penalties"; seed-001 §2; WESPA 3.9.9, 3.10.6, 3.10.15(d); NASPA IV.B.3).',
  },
  OPPONENT_CHOOSES_TILES: {
    verdicts: [F],
    description: 'The opponent chooses tiles for the player (seed-000 "Penalties"; WESPA 3.10.15(i), 4.4).',
  },
  SCORE_PENALTY: {
    verdicts: [F],
    description: 'Points are deducted (seed-000 "Penalties" −30 for an illegal exchange found late; NASPA IV.J.2 improper lookup).',
  },
  FACE_DOWN_COUNT_EXCHANGED: {
    verdicts: [F],
    description: 'Only as many tiles as were placed face down are exchanged (seed-000 "Disputes"; WESPA 3.10.15(e)).',
  },
  ALL_TILES_EXCHANGED: {
    verdicts: [A],
    description: 'A whole-rack exchange left on the rack exchanges all the tiles (seed-000; seed-001 §6.2).',
  },
  BREAK_ALLOWANCE: { verdicts: [A], description: 'Without an announced start, players are owed a break between games (seed-001 §1).' },
  CLOCK_CHARGED: { verdicts: [F], description: 'Time is charged to the late player’s clock (seed-001 §1; WESPA 2.3).' },
  GAME_FORFEITED: {
    verdicts: [F, A],
    description:
      'The game is forfeited: late arrival (seed-001 §1; WESPA 2.3), overtime (WESPA 5.3.3; Woogles), a hold past the overtime limit (WESPA 3.10.5), or an unanswered nudge (Woogles; verdict ALLOWED: the nudge is upheld).',
  },
  OVERTIME_PENALTY: { verdicts: [F], description: 'Points per started minute of overtime (WESPA 5.3.2; NASPA ref. B7; Woogles).' },
  PLAY_WITHDRAWN: {
    verdicts: [F],
    description: 'The play comes off the board and scores zero (seed-001 §2; WESPA 3.10.13; NASPA ref. B3.1).',
  },
  PLAY_AGAIN: { verdicts: [F], description: 'The invalid play is withdrawn and the same player plays again (seed-002).' },
  PLAY_STANDS: { verdicts: [A], description: 'The play stays on the board (seed-001 §2; WESPA 3.10.6, 3.10.14).' },
  CHALLENGER_LOSES_TURN: {
    verdicts: [A],
    description: 'The play is valid and the challenger loses the turn (double challenge, seed-001 §2).',
  },
  CHALLENGE_POINTS: { verdicts: [A], description: 'The play is valid and an unsuccessful challenge costs points (WESPA 3.10.13).' },
  CHALLENGER_LOSES_GAME: { verdicts: [A], description: 'The play is valid and the challenger loses the game (Woogles triple challenge).' },
  CHALLENGER_WINS_GAME: {
    verdicts: [F],
    description: 'The play is invalid and the challenged player loses the game (Woogles triple challenge).',
  },
  OVERDRAW_PROCEDURE: {
    verdicts: [F],
    description: 'The overdraw procedure: the opponent sees X + 2 tiles and returns X (WESPA 3.9.5; NSA ref. B5.1).',
  },
  DIRECTOR_MAY_ALLOW_CHALLENGE: {
    verdicts: [D],
    description: 'The player drew inside the challenge window; the director decides whether to allow the challenge (seed-001 §8).',
  },
  CHALLENGE_ALLOWED: {
    verdicts: [F, A],
    description:
      'The challenge may still be made: after flash-drawing (WESPA 3.10.2, verdict FORBIDDEN) or because a hold was called before the draw (WESPA 3.10.1, verdict ALLOWED).',
  },
  PLAY_ACCEPTED: { verdicts: [A], description: 'Drawing accepted the play; a later challenge is void (seed-001 §8; WESPA 3.10.1–3.10.2).' },
  WINDOW_OPEN: {
    verdicts: [A],
    description: 'Time remains to act: to hold or challenge an out play (seed-001 §9), or to answer a request (Woogles).',
  },
  HOLD_VALID: { verdicts: [A], description: 'The hold stands (seed-001 §9; WESPA 3.10.5, 5.1).' },
  CHALLENGE_VALID: {
    verdicts: [A],
    description: 'The challenge of the out play was made in time and is adjudicated (seed-001 §9; WESPA 5.1).',
  },
  GAME_OVER: {
    verdicts: [A, F],
    description:
      'The out play was not held or challenged in time, so the game is over (seed-001 §9); FORBIDDEN when a hold or challenge came too late.',
  },
  OPPONENT_CLOCK_RESTARTS: { verdicts: [A], description: 'The player may restart the opponent’s clock after the out play (WESPA 5.1.3).' },
  OPPONENT_GIVES_TILES: { verdicts: [F], description: 'The opponent gives the underdrawn player tiles from their own rack (WESPA 3.9.8).' },
  NO_CORRECTION: {
    verdicts: [A],
    description: 'Too late to correct: the result as played stands (WESPA 3.9.8, 3.10.10–3.10.11; NASPA IV.J.1.n).',
  },
  SCORE_CORRECTED: { verdicts: [F], description: 'The wrongly scored turn is corrected (seed-001 §3; WESPA 3.5(d)).' },
  CORRECTION_ALLOWED: { verdicts: [A], description: 'The slip is not yet final, so it may be corrected (seed-001 §3; WESPA 3.5(d)).' },
  SLIP_CORRECTED: { verdicts: [A], description: 'The signed slip is corrected (seed-001 §3: agreed score; WESPA 5.4.1: reversed scores).' },
  RESULT_STANDS: {
    verdicts: [A, F],
    description:
      'The result as recorded stands (seed-001 §3; WESPA 5.4.1); FORBIDDEN when a change to the slip was asked for and is refused.',
    refusal: true,
  },
  DIRECTOR_DISCRETION: {
    verdicts: [D],
    description: 'The director decides (WESPA 3.8, 3.10.5, 3.10.14, 5.7; seed-001 §3 unethical conduct).',
  },
  RECOUNT_ALLOWED: { verdicts: [A], description: 'The game is recounted (seed-001 §3; WESPA 5.5).' },
  RECOUNT_REFUSED: {
    verdicts: [F],
    description: 'No recount: too late, or the margin is too large (seed-001 §3; WESPA 5.5).',
    refusal: true,
  },
  GAME_ENDS: {
    verdicts: [A],
    description: 'The run of scoreless turns or exchanges ends the game (WESPA 5.2; NASPA ref. B6.1; seed-003 rule 12b).',
  },
  GAME_CONTINUES: { verdicts: [A], description: 'The game goes on (WESPA 4.3, 4.5, 4.6, 5.2; Woogles).' },
  GOING_OUT_BONUS: { verdicts: [A], description: 'The points for going out (NASPA ref. B6.5, WESPA 5.1.4; seed-003 scoring 9).' },
  RESIGNATION_SCORED: { verdicts: [A], description: 'An emergency resignation, recorded with its margin (WESPA 5.7).' },
  GAME_RESIGNED: { verdicts: [A], description: 'Resigning loses the game at once; the scores stand (Woogles).' },
  FIRSTS_ASSIGNED: { verdicts: [A], description: 'Firsts and seconds for forfeited games (seed-001 §4).' },
  TIE_STANDS: { verdicts: [A], description: 'The game is a tie (seed-003 scoring 10).' },
  TIE_BROKEN: { verdicts: [A], description: 'The tie is broken on the score before end-of-game adjustments (seed-003 scoring 10).' },
  MATCH_DECIDED: { verdicts: [A], description: 'The match goes to the higher combined score (seed-003 rule 1, scoring 11).' },
  MATCH_TIED: { verdicts: [A], description: 'Combined match points are equal (seed-003 scoring 11).' },
  TILES_COUNT_AS_DRAWN: {
    verdicts: [A],
    description: 'Tiles spilled during the player’s own draw are part of that draw (WESPA 4.4; NASPA IV.B.3).',
  },
  RULING_CORRECTED: { verdicts: [F], description: 'The wrong adjudication is corrected (WESPA 3.10.11; NASPA IV.J.1.n).' },
  CHALLENGE_REISSUED: { verdicts: [F], description: 'The wrongly entered challenge is reissued (WESPA 3.10.10).' },
  RESULT_RECALCULATED: { verdicts: [A], description: 'Tiles found after the end: the result is recalculated (WESPA 4.3, 4.5).' },
  BLANK_DECLARATION_DEMANDED: {
    verdicts: [F],
    description: 'The clock is restarted until the blank is designated (WESPA 3.8(b); NASPA IV.F.1).',
  },
  DESIGNATION_STANDS: { verdicts: [A], description: 'The blank’s designation stands (seed-003 rule 10; NASPA IV.F.2.b).' },
  REQUEST_REFUSED: {
    verdicts: [F],
    description: 'An abort request or nudge that the rules do not allow (Woogles meta-events).',
    refusal: true,
  },
  GAME_ABORTED: { verdicts: [A], description: 'The game is cancelled with no winner (Woogles meta-events).' },
  SUBSTITUTION_ALLOWED: { verdicts: [A], description: 'The blank substitution is allowed (seed-002 Blank Substitution).' },
  SUBSTITUTION_REFUSED: {
    verdicts: [F],
    description: 'No blank substitution (seed-002 Blank Substitution conditions; WESPA 3.6.1, Appendix 1).',
    refusal: true,
  },
  FREE_TRADE_ALLOWED: { verdicts: [A], description: 'The rack may be traded free (seed-002 Free Trades).' },
  FREE_TRADE_REFUSED: { verdicts: [F], description: 'No free trade (seed-002 Free Trades; WESPA 3.2.2).', refusal: true },
} as const satisfies Readonly<Record<string, CodeInfo>>;

export type RulingCode = keyof typeof RULING_CODE_INFO;
export const RULING_CODES = Object.keys(RULING_CODE_INFO) as readonly RulingCode[];

export const codeInfo = (code: RulingCode): CodeInfo => RULING_CODE_INFO[code];
