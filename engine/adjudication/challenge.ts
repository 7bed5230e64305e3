import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ChallengeOutcome, MistypedChallenge, Party, PlacementChallenge, ReturnFromChallenge, WrongAdjudication } from './dispute.js';
import { overdrawEffects } from './drawing.js';
import {
  citeParams,
  mergeCitations,
  noRule,
  onlineNoRule,
  voidNoRule,
  plural,
  ruling,
  type Effect,
  type Ruling,
  type RulingCode,
} from './ruling.js';

/**
 * A challenge's verdict and its consequences under `challenge.mode`, and the rulings that follow
 * from it: returning to the board, a wrong or mistyped adjudication, a challenge of the placement.
 * The window to challenge (holds, early draws) is `challenge-window.ts`.
 */

interface Outcome {
  readonly code: RulingCode;
  readonly effects: readonly Effect[];
  readonly citations: readonly Citation[];
  readonly explanation: string;
  /** Who moves next: the challenger unless the challenger lost the turn. */
  readonly nextToMove: Party;
}

/** A play ruled unacceptable under `challenge.mode`: withdrawn and the turn lost; tried again (free); the game lost (triple). */
const invalidPlayOutcome = (rs: RuleSet, words: number): Outcome => {
  const modeCites = citeParams(rs, 'challenge.mode');
  const multi = words > 1 ? ' The verdict covers the whole play; which word failed is not said.' : '';
  if (rs.challenge.mode === 'free') {
    return {
      code: 'PLAY_AGAIN',
      effects: [
        { type: 'play-withdrawn', party: 'player' },
        { type: 'play-again', party: 'player' },
      ],
      citations: modeCites,
      explanation: 'Challenges are free: the invalid play is withdrawn and the same player tries again.',
      nextToMove: 'player',
    };
  }
  if (rs.challenge.mode === 'triple') {
    return {
      code: 'CHALLENGER_WINS_GAME',
      effects: [{ type: 'winner', party: 'opponent' }],
      citations: modeCites,
      explanation: 'Under the triple challenge whoever is wrong loses the game: the play is invalid, so the challenger wins.',
      nextToMove: 'opponent',
    };
  }
  return {
    code: 'PLAY_WITHDRAWN',
    effects: [
      { type: 'play-withdrawn', party: 'player' },
      { type: 'turn-becomes-pass', party: 'player' },
    ],
    citations: modeCites,
    explanation: `The play is unacceptable: its tiles come off the board, it scores zero and the player loses the turn.${multi}`,
    nextToMove: 'opponent',
  };
};

/** An unsuccessful challenge under `challenge.points`: points to the challenged player or from the challenger, per word or per turn. */
const challengePointsOutcome = (rs: RuleSet, words: number): Outcome => {
  const c = rs.challenge;
  const pts = c.mode === 'points-per-word' ? c.points * words : c.points;
  const toChallenged = c.pointsRecipient === 'challenged-player';
  const basis =
    c.mode === 'points-per-word'
      ? `${c.points} points for each of the ${plural(words, 'valid word')} challenged`
      : `${c.points} points for the unsuccessful challenge`;
  return {
    code: 'CHALLENGE_POINTS',
    effects: [
      toChallenged ? { type: 'score-delta', party: 'player', points: pts } : { type: 'score-delta', party: 'opponent', points: -pts },
    ],
    citations: citeParams(rs, 'challenge.mode', 'challenge.points', 'challenge.pointsRecipient'),
    explanation: `Every challenged word is valid: ${basis}, ${pts} in all, ${toChallenged ? 'added to the challenged player' : 'taken from the challenger'}; nobody loses a turn.`,
    nextToMove: 'opponent',
  };
};

/** A play ruled acceptable under `challenge.mode`: what the unsuccessful challenge costs the challenger. */
const validPlayOutcome = (rs: RuleSet, words: number): Outcome => {
  const modeCites = citeParams(rs, 'challenge.mode');
  switch (rs.challenge.mode) {
    case 'double':
      return {
        code: 'CHALLENGER_LOSES_TURN',
        effects: [{ type: 'turn-becomes-pass', party: 'opponent' }],
        citations: modeCites,
        explanation: 'Every challenged word is valid, so the challenger loses the turn (double challenge).',
        nextToMove: 'player',
      };
    case 'single':
    case 'free':
      return {
        code: 'NO_PENALTY',
        effects: [],
        citations: modeCites,
        explanation: 'Every challenged word is valid; an unsuccessful challenge costs nothing under these rules.',
        nextToMove: 'opponent',
      };
    case 'triple':
      return {
        code: 'CHALLENGER_LOSES_GAME',
        effects: [{ type: 'winner', party: 'player' }],
        citations: modeCites,
        explanation: 'Under the triple challenge whoever is wrong loses the game: the play is valid, so the challenger loses.',
        nextToMove: 'opponent',
      };
    case 'points-per-word':
    case 'points-per-turn':
      return challengePointsOutcome(rs, words);
    case 'void':
      throw new Error('unreachable: void handled by the caller');
  }
};

/** The consequence of a challenge under `challenge.mode` (seed-001 §2; WESPA 3.10.13; seed-002; Woogles). */
const outcome = (rs: RuleSet, playValid: boolean, words: number): Outcome =>
  playValid ? validPlayOutcome(rs, words) : invalidPlayOutcome(rs, words);

/** The result of a challenge (seed-001 §2; WESPA 3.10.13, 3.11.2; seed-002; Woogles). */
export const adjudicateChallengeOutcome = (d: ChallengeOutcome, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const o = outcome(rs, d.playValid, d.wordsChallenged);
  return ruling(o.code, o.effects, o.citations, o.explanation);
};

/**
 * Returning from a challenge: tiles drawn before the ruling (`challenge.drawnTilesOnLoss`: seed-001 §2
 * show and return; WESPA 3.10.6 the same unless they touched the rack, then overdraw) and the clock
 * (`challenge.clockRestart`: seed-001 §2).
 */
export const adjudicateReturnFromChallenge = (d: ReturnFromChallenge, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.drawnTilesOnLoss === 'none' && c.clockRestart === 'none') {
    return noRule(
      `${rs.name} has no procedure for returning to the board after a challenge.`,
      citeParams(rs, 'challenge.drawnTilesOnLoss', 'challenge.clockRestart'),
    );
  }
  const o = outcome(rs, d.playAcceptable, 1);
  const effects: Effect[] = [...o.effects];
  const citations: Citation[] = [...o.citations];
  const sentences: string[] = [];
  let code: RulingCode = d.playAcceptable ? 'PLAY_STANDS' : 'PLAY_WITHDRAWN';
  if (!d.playAcceptable) {
    effects.push({
      type: 'tiles-returned-to-rack',
      party: 'player',
      tiles: 'all remaining tiles, including those challenged off the board',
    });
    sentences.push(
      'The play is unacceptable, so it comes off the board and the player loses the turn; all remaining tiles, including those challenged off, are reracked.',
    );
    if (d.drawnTiles > 0 && c.drawnTilesOnLoss !== 'none') {
      citations.push(...citeParams(rs, 'challenge.drawnTilesOnLoss'));
      if (c.drawnTilesOnLoss === 'show-and-return-unless-racked' && d.drawnTouchedRack) {
        code = 'OVERDRAW_PROCEDURE';
        const od = overdrawEffects(rs, d.drawnTiles, d.drawnTiles, true);
        effects.push(...od.effects);
        citations.push(...citeParams(rs, 'drawing.overdraw', 'drawing.overdrawExtraTiles'));
        sentences.push(`The ${plural(d.drawnTiles, 'tile')} drawn early were mixed into the rack, so this is an overdraw: ${od.summary}`);
      } else {
        code = 'TILES_SHOWN_AND_RETURNED';
        effects.push(
          { type: 'tiles-shown', to: 'opponent', tiles: 'the tiles drawn before the ruling', count: d.drawnTiles },
          { type: 'tiles-returned-to-bag', tiles: 'the tiles drawn before the ruling', count: d.drawnTiles },
        );
        sentences.push(`The ${plural(d.drawnTiles, 'tile')} already drawn are shown to the opponent and returned to the bag.`);
      }
    }
  } else {
    sentences.push(o.explanation);
  }
  if (c.clockRestart === 'after-first-replenishment-tile') {
    citations.push(...citeParams(rs, 'challenge.clockRestart'));
    const immediately = !d.playAcceptable || d.winnerDelaying;
    effects.push({
      type: 'clock',
      party: o.nextToMove,
      action: 'restart',
      seconds: null,
      when: immediately ? 'immediately' : 'after the player sees the first replenishment tile',
    });
    sentences.push(
      !d.playAcceptable
        ? 'The clock is then restarted.'
        : d.winnerDelaying
          ? 'The challenge winner is delaying the reracking, so the clock may be restarted at once.'
          : 'The clock is restarted after the player sees the first replenishment tile.',
    );
  }
  return ruling(code, effects, mergeCitations(citations), sentences.join(' '));
};

/** Whether a ruling on a challenge may still be corrected under `challenge.wrongAdjudication` (WESPA 3.10.11; NASPA IV.J.1.n); null = no such rule. */
const correctableNow = (rs: RuleSet, tilesTouchedRack: boolean, nextPlayMade: boolean): boolean | null => {
  switch (rs.challenge.wrongAdjudication) {
    case 'none':
      return null;
    case 'until-tiles-touch-rack':
      return !tilesTouchedRack;
    case 'until-tiles-mixed-or-next-play':
      return !tilesTouchedRack && !nextPlayMade;
  }
};

const correctionDeadline = (rs: RuleSet): string =>
  rs.challenge.wrongAdjudication === 'until-tiles-touch-rack'
    ? 'until a newly drawn or retracted tile has touched the rack'
    : 'until tiles have been mixed together or a later play is on the board with the clock started';

/** A challenge adjudicated wrongly, found later: `challenge.wrongAdjudication` (WESPA 3.10.9, 3.10.11; NASPA IV.J.1.n, 2015). */
export const adjudicateWrongAdjudication = (d: WrongAdjudication, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const cites = citeParams(rs, 'challenge.wrongAdjudication');
  const now = correctableNow(rs, d.tilesTouchedRack, d.nextPlayMade);
  if (now === null) return noRule(`${rs.name} has no rule for correcting a wrong adjudication.`, cites);
  if (!now) {
    return ruling(
      'NO_CORRECTION',
      [],
      cites,
      `A wrong adjudication may be corrected only ${correctionDeadline(rs)}; that point has passed, so play goes on and the error stands.`,
    );
  }
  // The corrected ruling is the one the challenge should have had: the play is valid iff it was ruled unacceptable.
  const o = outcome(rs, !d.ruledAcceptable, d.wordsChallenged);
  // A play wrongly ruled off goes back on the board before the challenge's consequence applies.
  const restored: Effect[] = d.ruledAcceptable ? [] : [{ type: 'play-restored', party: 'player' }];
  return ruling(
    'RULING_CORRECTED',
    [...restored, ...o.effects],
    mergeCitations(cites, o.citations),
    `A wrong adjudication may be corrected ${correctionDeadline(rs)}, which has not happened, so the play is ruled ${d.ruledAcceptable ? 'unacceptable' : 'acceptable'} after all. ${o.explanation}`,
  );
};

/** Challenged words typed or written wrongly: `challenge.mistypedChallenge` (WESPA 3.10.10; NASPA IV.J.2, 2012). */
export const adjudicateMistypedChallenge = (d: MistypedChallenge, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  switch (c.mistypedChallenge) {
    case 'none':
      return noRule(`${rs.name} has no rule for challenged words entered wrongly.`, citeParams(rs, 'challenge.mistypedChallenge'));
    case 'reissue': {
      const now = correctableNow(rs, d.tilesTouchedRack, d.nextPlayMade);
      const cites = citeParams(rs, 'challenge.mistypedChallenge', 'challenge.wrongAdjudication');
      return now === false
        ? ruling(
            'NO_CORRECTION',
            [],
            cites,
            `A wrongly entered challenge may be reissued only ${correctionDeadline(rs)}; that point has passed, so the result stands.`,
          )
        : ruling(
            'CHALLENGE_REISSUED',
            [{ type: 'challenge-allowed', allowed: true }],
            cites,
            'The words entered did not match the board, so the challenge is reissued with the words as they stand on the board; nobody is penalised.',
          );
    }
    case 'penalty-if-unacceptable': {
      const cites = citeParams(rs, 'challenge.mistypedChallenge', 'challenge.improperLookupPenalty');
      if (d.causedBy !== 'both' && d.resultShown === 'unacceptable' && c.improperLookupPenalty > 0) {
        return ruling(
          'SCORE_PENALTY',
          [{ type: 'score-delta', party: d.causedBy, points: -c.improperLookupPenalty }],
          cites,
          `The ${d.causedBy === 'player' ? 'challenged player' : 'challenger'} alone caused the improper lookup and it showed "unacceptable", so that player loses ${c.improperLookupPenalty} points.`,
        );
      }
      return ruling(
        'NO_PENALTY',
        [],
        cites,
        d.causedBy === 'both'
          ? 'Both players caused the improper lookup, so neither is penalised.'
          : 'The improper lookup showed "acceptable", so nobody is penalised; the penalty applies only to an "unacceptable" result caused by one player alone.',
      );
    }
  }
};

/** An illegally placed play: `challenge.illegalPlacement` (WESPA 3.10.14; NASPA ref. B3.1). */
export const adjudicatePlacementChallenge = (d: PlacementChallenge, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an illegally placed play');
  if (online) return online;
  const rule = rs.challenge.illegalPlacement;
  const cites = citeParams(rs, 'challenge.illegalPlacement');
  if (rule === 'none') return noRule(`${rs.name} has no procedure for challenging a play's placement.`, cites);
  const fault = d.fault.replace(/-/g, ' ');
  if (!d.challenged) {
    const centre =
      rule === 'wespa-3.10.14' && d.fault === 'opening-misses-centre'
        ? ' The centre square keeps its double-word value for later plays.'
        : '';
    return ruling('PLAY_STANDS', [], cites, `Nobody challenged the placement (${fault}), so the play stands.${centre}`);
  }
  if (rule === 'wespa-3.10.14') {
    return d.fault === 'none'
      ? ruling(
          'NO_PENALTY',
          [],
          cites,
          'The placement is legal; an unsuccessful placement challenge costs nothing (the words may still be challenged as usual).',
        )
      : ruling(
          'DIRECTOR_DISCRETION',
          [{ type: 'director-decides', question: `how to correct the play placed illegally (${fault})` }],
          cites,
          `An illegal placement (${fault}) is referred to the tournament director, who rules on it.`,
        );
  }
  // NASPA: a placement fault takes the play off whatever its validity, as a successful challenge does.
  const o = outcome(rs, d.fault === 'none' ? d.playValid : false, 1);
  const why =
    d.fault === 'none'
      ? `The placement is legal, so the challenge is decided on the words alone. ${o.explanation}`
      : `The play is placed illegally (${fault}), so it comes off whatever its words' validity: it scores zero and the player loses the turn.`;
  return ruling(o.code, o.effects, mergeCitations(cites, o.citations), why);
};
