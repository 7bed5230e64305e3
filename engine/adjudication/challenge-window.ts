import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ChallengeAfterDraw, CourtesyDraw, FastBagging, LongHold, OutPlayHold } from './dispute.js';
import { overdrawEffects } from './drawing.js';
import { citeParams, mergeCitations, noRule, plural, ruling, voidNoRule, type Ruling } from './ruling.js';

/**
 * The window to challenge: how long the opponent may consider a play, hold it, or challenge after
 * the player has started drawing (fast-bagging, flash-drawing, courtesy draws, the out play).
 */

/** Drawing before the opponent could challenge: `challenge.earlyDraw` (seed-001 §8; WESPA 3.10.1–3.10.2). */
export const adjudicateFastBagging = (d: FastBagging, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  switch (c.earlyDraw) {
    case 'none':
      return noRule(`${rs.name} has no rule about drawing before the opponent can challenge.`, citeParams(rs, 'challenge.earlyDraw'));
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
        ? ruling(
            'PLAY_ACCEPTED',
            [{ type: 'challenge-allowed', allowed: false }],
            cites,
            'The player recorded the score and then drew with no hold or challenge called, so the play is accepted and a later challenge is void.',
          )
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
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.outPlayWindowEnd === 'none')
    return noRule(`${rs.name} has no rule for holding or challenging the out play.`, citeParams(rs, 'challenge.outPlayWindowEnd'));
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
      acted ? 'FORBIDDEN' : 'ALLOWED',
    );
  }
  if (d.challenged) {
    return ruling(
      'CHALLENGE_VALID',
      [{ type: 'challenge-allowed', allowed: true }],
      cites,
      `The opponent challenged the out play ${inTime ? `within ${c.outPlayHoldSeconds} seconds` : 'while still entitled to deliberate'}, so the challenge is adjudicated before the game ends.`,
    );
  }
  if (d.held) {
    return ruling(
      'HOLD_VALID',
      [
        {
          type: 'clock',
          party: 'opponent',
          action: 'start',
          seconds: null,
          when: 'now, until the hold is released (ending the game) or a challenge',
        },
      ],
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
  return ruling(
    'WINDOW_OPEN',
    [],
    cites,
    `The opponent still has until ${c.outPlayHoldSeconds} seconds after the clock was neutralised to hold or challenge.`,
  );
};

/**
 * A challenge after the player started drawing (WESPA 3.10.1–3.10.2; seed-001 §8; NASPA ref. B1.1): a hold
 * called before the draw keeps the challenge alive; otherwise `challenge.earlyDraw` decides, as for fast-bagging,
 * and a flash-draw (score not recorded first, or written in advance) leaves the challenge open.
 */
export const adjudicateChallengeAfterDraw = (d: ChallengeAfterDraw, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  const cites = citeParams(rs, 'challenge.earlyDraw');
  if (c.earlyDraw === 'none') return noRule(`${rs.name} has no rule about challenging after the player has drawn.`, cites);
  if (d.holdCalled) {
    return ruling(
      'CHALLENGE_ALLOWED',
      [{ type: 'challenge-allowed', allowed: true }],
      cites,
      'A hold was called before the player drew, so drawing did not accept the play and the challenge stands.',
      'ALLOWED',
    );
  }
  if (c.earlyDraw === 'window-director-decides') {
    const windowCites = citeParams(rs, 'challenge.earlyDraw', 'challenge.windowSeconds');
    return d.secondsBeforeDraw < c.windowSeconds
      ? ruling(
          'DIRECTOR_MAY_ALLOW_CHALLENGE',
          [{ type: 'challenge-allowed', allowed: 'director-decides' }],
          windowCites,
          `The player drew ${d.secondsBeforeDraw} seconds after pressing the clock, inside the ${c.windowSeconds} seconds the opponent is owed to consider a challenge; the director decides whether to allow it.`,
        )
      : ruling(
          'PLAY_ACCEPTED',
          [{ type: 'challenge-allowed', allowed: false }],
          windowCites,
          `The player waited ${d.secondsBeforeDraw} seconds before drawing and no hold was called, so the right to challenge ended with the draw and the play stands.`,
        );
  }
  const flash = !d.scoreRecordedBeforeDraw || d.scoreWrittenInAdvance;
  if (!flash) {
    return ruling(
      'PLAY_ACCEPTED',
      [{ type: 'challenge-allowed', allowed: false }],
      cites,
      'The player recorded the score and drew with no hold or challenge called, so the play was accepted and the late challenge is void.',
    );
  }
  const tiles = plural(d.drawnTiles, 'flash-drawn tile');
  return ruling(
    'CHALLENGE_ALLOWED',
    [{ type: 'challenge-allowed', allowed: true }],
    citeParams(rs, 'challenge.earlyDraw', ...(d.drawnTouchedRack ? ['drawing.overdraw'] : [])),
    `The player ${d.scoreWrittenInAdvance ? 'wrote the score in advance' : 'drew before recording the score'} (flash-drawing), so the challenge is still allowed; if it succeeds, the ${tiles} ${d.drawnTouchedRack ? 'have touched the rack, so the overdraw procedure applies' : 'are shown and returned to the bag'}.`,
  );
};

/** A long hold: `challenge.holdLimit` (WESPA 3.10.5, 6.3.1(h)); the limit is `time.overtimeForfeitMinutes` of the holder's overtime. */
export const adjudicateLongHold = (d: LongHold, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const cites = citeParams(rs, 'challenge.holdLimit', 'time.overtimeForfeitMinutes');
  const limit = rs.time.overtimeForfeitMinutes;
  if (rs.challenge.holdLimit === 'none') return noRule(`${rs.name} has no rule limiting a hold.`, citeParams(rs, 'challenge.holdLimit'));
  if (limit !== null && d.holderOvertimeSeconds >= limit * 60) {
    return ruling(
      'GAME_FORFEITED',
      [{ type: 'game-forfeited', loser: 'opponent', margin: null }],
      cites,
      `A hold may not take the holder more than ${limit} minutes into overtime; the holder has reached that limit, so the holder forfeits the game (scored as an overtime forfeit).`,
    );
  }
  if (d.onlyToBlockDraw) {
    return ruling(
      'DIRECTOR_DISCRETION',
      [{ type: 'director-decides', question: 'a penalty for holding only to stop the player drawing' }],
      cites,
      'Holding only to keep the player from drawing is unethical; the director decides the penalty, though the hold itself has not run out.',
    );
  }
  return ruling(
    'HOLD_VALID',
    [],
    cites,
    limit === null
      ? 'A hold may last as long as the holder likes short of the overtime limit, and these rules set none, so the hold stands.'
      : `A hold may last as long as the holder likes until ${limit} minutes of overtime; the holder is ${d.holderOvertimeSeconds} seconds into overtime, so the hold stands.`,
  );
};

/**
 * A courtesy draw during a hold, then the challenge (WESPA 3.10.6, 3.9.10; NASPA ref. B4, IV.I.2): the
 * drawn tiles are the player's if the play stands; if it comes off they are shown and returned, or handled by
 * `challenge.drawnTilesOnLoss` when they were mixed into the rack.
 */
export const adjudicateCourtesyDraw = (d: CourtesyDraw, rs: RuleSet): Ruling => {
  const v = voidNoRule(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.courtesyDrawSeconds === 0 || c.drawnTilesOnLoss === 'none') {
    return noRule(`${rs.name} has no courtesy draw.`, citeParams(rs, 'challenge.courtesyDrawSeconds', 'challenge.drawnTilesOnLoss'));
  }
  const citations: Citation[] = citeParams(rs, 'challenge.courtesyDrawSeconds', 'challenge.drawnTilesOnLoss');
  const sentences: string[] = [];
  if (d.secondsAfterClockPress < c.courtesyDrawSeconds) {
    sentences.push(
      `The draw began ${d.secondsAfterClockPress} seconds after the clock was pressed, before the ${c.courtesyDrawSeconds}-second courtesy delay, so the tiles are treated as any tiles drawn before the ruling.`,
    );
  }
  if (d.challengedMidDraw && c.drawStopsOnChallenge) {
    citations.push(...citeParams(rs, 'challenge.drawStopsOnChallenge'));
    sentences.push('The challenge was declared mid-draw, so no further tiles are drawn.');
  }
  const tiles = plural(d.drawnTiles, 'courtesy-drawn tile');
  if (!d.challengeSucceeded) {
    sentences.push(`The play stands, so the ${tiles} are the player's replenishment.`);
    return ruling('PLAY_STANDS', [], mergeCitations(citations), sentences.join(' '));
  }
  if (d.mixedIntoRack && c.drawnTilesOnLoss === 'show-and-return-unless-racked') {
    const od = overdrawEffects(rs, d.drawnTiles, d.drawnTiles, true);
    citations.push(...citeParams(rs, 'drawing.overdraw', 'drawing.overdrawExtraTiles'));
    sentences.push(`The play comes off and the ${tiles} were mixed into the rack, so this is an overdraw: ${od.summary}`);
    return ruling('OVERDRAW_PROCEDURE', od.effects, mergeCitations(citations), sentences.join(' '));
  }
  sentences.push(`The play comes off, so the ${tiles} are shown to the opponent and returned to the bag; this is not an overdraw.`);
  return ruling(
    'TILES_SHOWN_AND_RETURNED',
    [
      { type: 'tiles-shown', to: 'opponent', tiles: `the ${tiles}`, count: d.drawnTiles },
      { type: 'tiles-returned-to-bag', tiles: `the ${tiles}`, count: d.drawnTiles },
    ],
    mergeCitations(citations),
    sentences.join(' '),
  );
};
