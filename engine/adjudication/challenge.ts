import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ChallengeOutcome, FastBagging, OutPlayHold, Party, ReturnFromChallenge } from './dispute.js';
import { overdrawEffects } from './drawing.js';
import { citeParams, notApplicable, plural, ruling, type Effect, type Ruling, type RulingCode } from './ruling.js';

/** Under VOID no challenge exists (Woogles macondo game/challenge.go; platform-differences §3.4). */
const voidNotApplicable = (rs: RuleSet): Ruling | undefined =>
  rs.challenge.mode === 'void'
    ? notApplicable(`Under ${rs.name} words are checked when the move is submitted, so there are no challenges.`, citeParams(rs, 'challenge.mode'))
    : undefined;

interface Outcome {
  readonly code: RulingCode;
  readonly effects: readonly Effect[];
  readonly citations: readonly Citation[];
  readonly explanation: string;
  /** Who moves next: the challenger unless the challenger lost the turn. */
  readonly nextToMove: Party;
}

/** The consequence of a challenge under `challenge.mode` (seed-001 §2; WESPA 3.10.13; seed-002; Woogles). */
const outcome = (rs: RuleSet, playValid: boolean, words: number): Outcome => {
  const c = rs.challenge;
  const modeCites = citeParams(rs, 'challenge.mode');
  const multi = words > 1 ? ' The verdict covers the whole play; which word failed is not said.' : '';
  if (!playValid) {
    if (c.mode === 'free') {
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
    if (c.mode === 'triple') {
      return { code: 'CHALLENGER_WINS_GAME', effects: [{ type: 'winner', party: 'opponent' }], citations: modeCites, explanation: 'Under the triple challenge whoever is wrong loses the game: the play is invalid, so the challenger wins.', nextToMove: 'opponent' };
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
  }
  switch (c.mode) {
    case 'double':
      return { code: 'CHALLENGER_LOSES_TURN', effects: [{ type: 'turn-becomes-pass', party: 'opponent' }], citations: modeCites, explanation: 'Every challenged word is valid, so the challenger loses the turn (double challenge).', nextToMove: 'player' };
    case 'single':
    case 'free':
      return { code: 'NO_PENALTY', effects: [], citations: modeCites, explanation: 'Every challenged word is valid; an unsuccessful challenge costs nothing under these rules.', nextToMove: 'opponent' };
    case 'triple':
      return { code: 'CHALLENGER_LOSES_GAME', effects: [{ type: 'winner', party: 'player' }], citations: modeCites, explanation: 'Under the triple challenge whoever is wrong loses the game: the play is valid, so the challenger loses.', nextToMove: 'opponent' };
    case 'points-per-word':
    case 'points-per-turn': {
      const pts = c.mode === 'points-per-word' ? c.points * words : c.points;
      const toChallenged = c.pointsRecipient === 'challenged-player';
      const basis = c.mode === 'points-per-word' ? `${c.points} points for each of the ${plural(words, 'valid word')} challenged` : `${c.points} points for the unsuccessful challenge`;
      return {
        code: 'CHALLENGE_POINTS',
        effects: [toChallenged ? { type: 'score-delta', party: 'player', points: pts } : { type: 'score-delta', party: 'opponent', points: -pts }],
        citations: citeParams(rs, 'challenge.mode', 'challenge.points', 'challenge.pointsRecipient'),
        explanation: `Every challenged word is valid: ${basis}, ${pts} in all, ${toChallenged ? 'added to the challenged player' : 'taken from the challenger'}; nobody loses a turn.`,
        nextToMove: 'opponent',
      };
    }
    case 'void':
      throw new Error('unreachable: void handled by the caller');
  }
};

/** The result of a challenge (seed-001 §2; WESPA 3.10.13, 3.11.2; seed-002; Woogles). */
export const adjudicateChallengeOutcome = (d: ChallengeOutcome, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
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
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.drawnTilesOnLoss === 'none' && c.clockRestart === 'none') {
    return notApplicable(`${rs.name} has no procedure for returning to the board after a challenge.`, citeParams(rs, 'challenge.drawnTilesOnLoss', 'challenge.clockRestart'));
  }
  const o = outcome(rs, d.playAcceptable, 1);
  const effects: Effect[] = [...o.effects];
  const citations: Citation[] = [...o.citations];
  const sentences: string[] = [];
  let code: RulingCode = d.playAcceptable ? 'PLAY_STANDS' : 'PLAY_WITHDRAWN';
  if (!d.playAcceptable) {
    effects.push({ type: 'tiles-returned-to-rack', party: 'player', tiles: 'all remaining tiles, including those challenged off the board' });
    sentences.push('The play is unacceptable, so it comes off the board and the player loses the turn; all remaining tiles, including those challenged off, are reracked.');
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
  const seen = new Set<string>();
  const unique = citations.filter((x) => (seen.has(`${x.source}|${x.rule}`) ? false : (seen.add(`${x.source}|${x.rule}`), true)));
  return ruling(code, effects, unique, sentences.join(' '));
};

/** Drawing before the opponent could challenge: `challenge.earlyDraw` (seed-001 §8; WESPA 3.10.1–3.10.2). */
export const adjudicateFastBagging = (d: FastBagging, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  switch (c.earlyDraw) {
    case 'none':
      return notApplicable(`${rs.name} has no rule about drawing before the opponent can challenge.`, citeParams(rs, 'challenge.earlyDraw'));
    case 'window-director-decides': {
      const cites = citeParams(rs, 'challenge.earlyDraw', 'challenge.windowSeconds');
      return d.secondsBeforeDraw < c.windowSeconds
        ? ruling(
            'DIRECTOR_MAY_ALLOW_CHALLENGE',
            [{ type: 'challenge-allowed', allowed: 'director-decides' }],
            cites,
            `The opponent should be allowed ${c.windowSeconds} seconds to consider a challenge but the player drew after ${d.secondsBeforeDraw}; the director, on petition, decides whether to allow the challenge.`,
          )
        : ruling(
            'PLAY_ACCEPTED',
            [{ type: 'challenge-allowed', allowed: false }],
            cites,
            `The player waited ${d.secondsBeforeDraw} seconds, at least the ${c.windowSeconds} the opponent is owed, so drawing was not fast-bagging and the play stands unchallenged.`,
          );
    }
    case 'flash-draw-challengeable': {
      const cites = citeParams(rs, 'challenge.earlyDraw');
      return d.scoreRecordedBeforeDraw
        ? ruling('PLAY_ACCEPTED', [{ type: 'challenge-allowed', allowed: false }], cites, 'The player recorded the score and then drew with no hold or challenge called, so the play is accepted and a later challenge is void.')
        : ruling(
            'CHALLENGE_ALLOWED',
            [{ type: 'challenge-allowed', allowed: true }],
            cites,
            'The player drew before recording the score (flash-drawing), so the opponent may still challenge; if it succeeds, drawn tiles not yet on the rack are shown and returned, otherwise the overdraw procedure applies.',
          );
    }
  }
};

/** Hold or challenge after the out play: `challenge.outPlayHoldSeconds` and `challenge.outPlayWindowEnd` (seed-001 §9; WESPA 5.1.1–5.1.3). */
export const adjudicateOutPlayHold = (d: OutPlayHold, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.outPlayWindowEnd === 'none') return notApplicable(`${rs.name} has no rule for holding or challenging the out play.`, citeParams(rs, 'challenge.outPlayWindowEnd'));
  const cites = citeParams(rs, 'challenge.outPlayWindowEnd', 'challenge.outPlayHoldSeconds');
  const inTime = d.secondsAfterNeutralise <= c.outPlayHoldSeconds;
  const acted = d.held || d.challenged;
  if (c.outPlayWindowEnd === 'game-over' && !inTime) {
    return ruling(
      'GAME_OVER',
      [
        { type: 'challenge-allowed', allowed: false },
        { type: 'game-ends', reason: 'out play not held or challenged in time' },
      ],
      cites,
      `Once the clock is neutralised the game is over unless the opponent holds or challenges within ${c.outPlayHoldSeconds} seconds; ${acted ? `acting after ${d.secondsAfterNeutralise} seconds is too late` : 'the opponent did neither'}.`,
    );
  }
  if (d.challenged) {
    return ruling('CHALLENGE_VALID', [{ type: 'challenge-allowed', allowed: true }], cites, `The opponent challenged the out play ${inTime ? `within ${c.outPlayHoldSeconds} seconds` : 'while still entitled to deliberate'}, so the challenge is adjudicated before the game ends.`);
  }
  if (d.held) {
    return ruling(
      'HOLD_VALID',
      [{ type: 'clock', party: 'opponent', action: 'start', seconds: null, when: 'now, until the hold is released (ending the game) or a challenge' }],
      cites,
      `The opponent held the out play in time, so the opponent's clock is started and runs until the hold is released, ending the game, or the opponent challenges.`,
    );
  }
  if (!inTime && c.outPlayWindowEnd === 'restart-opponent-clock') {
    return ruling(
      'OPPONENT_CLOCK_RESTARTS',
      [{ type: 'clock', party: 'opponent', action: 'restart', seconds: null, when: 'now' }],
      cites,
      `The opponent has not accepted within about ${c.outPlayHoldSeconds} seconds, so the player may restart the opponent's clock; the opponent may still hold or challenge.`,
    );
  }
  return ruling('WINDOW_OPEN', [], cites, `The opponent still has until ${c.outPlayHoldSeconds} seconds after the clock was neutralised to hold or challenge.`);
};
