import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type {
  ChallengeAfterDraw,
  ChallengeOutcome,
  CourtesyDraw,
  FastBagging,
  LongHold,
  MistypedChallenge,
  OutPlayHold,
  Party,
  PlacementChallenge,
  ReturnFromChallenge,
  WrongAdjudication,
} from './dispute.js';
import { overdrawEffects } from './drawing.js';
import {
  citeParams,
  mergeCitations,
  notApplicable,
  onlineNotApplicable,
  plural,
  ruling,
  type Effect,
  type Ruling,
  type RulingCode,
} from './ruling.js';

/** Under VOID no challenge exists (Woogles macondo game/challenge.go; platform-differences §3.4). */
const voidNotApplicable = (rs: RuleSet): Ruling | undefined =>
  rs.challenge.mode === 'void'
    ? notApplicable(
        `Under ${rs.name} words are checked when the move is submitted, so there are no challenges.`,
        citeParams(rs, 'challenge.mode'),
      )
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
  }
  switch (c.mode) {
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
    case 'points-per-turn': {
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
    return notApplicable(
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

/** Drawing before the opponent could challenge: `challenge.earlyDraw` (seed-001 §8; WESPA 3.10.1–3.10.2). */
export const adjudicateFastBagging = (d: FastBagging, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  switch (c.earlyDraw) {
    case 'none':
      return notApplicable(
        `${rs.name} has no rule about drawing before the opponent can challenge.`,
        citeParams(rs, 'challenge.earlyDraw'),
      );
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
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.outPlayWindowEnd === 'none')
    return notApplicable(`${rs.name} has no rule for holding or challenging the out play.`, citeParams(rs, 'challenge.outPlayWindowEnd'));
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
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  const cites = citeParams(rs, 'challenge.earlyDraw');
  if (c.earlyDraw === 'none') return notApplicable(`${rs.name} has no rule about challenging after the player has drawn.`, cites);
  if (d.holdCalled) {
    return ruling(
      'CHALLENGE_ALLOWED',
      [{ type: 'challenge-allowed', allowed: true }],
      cites,
      'A hold was called before the player drew, so drawing did not accept the play and the challenge stands.',
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
  const v = voidNotApplicable(rs);
  if (v) return v;
  const cites = citeParams(rs, 'challenge.wrongAdjudication');
  const now = correctableNow(rs, d.tilesTouchedRack, d.nextPlayMade);
  if (now === null) return notApplicable(`${rs.name} has no rule for correcting a wrong adjudication.`, cites);
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
  return ruling(
    'RULING_CORRECTED',
    o.effects,
    mergeCitations(cites, o.citations),
    `A wrong adjudication may be corrected ${correctionDeadline(rs)}, which has not happened, so the play is ruled ${d.ruledAcceptable ? 'unacceptable' : 'acceptable'} after all. ${o.explanation}`,
  );
};

/** Challenged words typed or written wrongly: `challenge.mistypedChallenge` (WESPA 3.10.10; NASPA IV.J.2, 2012). */
export const adjudicateMistypedChallenge = (d: MistypedChallenge, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  switch (c.mistypedChallenge) {
    case 'none':
      return notApplicable(`${rs.name} has no rule for challenged words entered wrongly.`, citeParams(rs, 'challenge.mistypedChallenge'));
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
  const online = onlineNotApplicable(rs, 'an illegally placed play');
  if (online) return online;
  const rule = rs.challenge.illegalPlacement;
  const cites = citeParams(rs, 'challenge.illegalPlacement');
  if (rule === 'none') return notApplicable(`${rs.name} has no procedure for challenging a play's placement.`, cites);
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

/** A long hold: `challenge.holdLimit` (WESPA 3.10.5, 6.3.1(h)); the limit is `time.overtimeForfeitMinutes` of the holder's overtime. */
export const adjudicateLongHold = (d: LongHold, rs: RuleSet): Ruling => {
  const v = voidNotApplicable(rs);
  if (v) return v;
  const cites = citeParams(rs, 'challenge.holdLimit', 'time.overtimeForfeitMinutes');
  const limit = rs.time.overtimeForfeitMinutes;
  if (rs.challenge.holdLimit === 'none')
    return notApplicable(`${rs.name} has no rule limiting a hold.`, citeParams(rs, 'challenge.holdLimit'));
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
  const v = voidNotApplicable(rs);
  if (v) return v;
  const c = rs.challenge;
  if (c.courtesyDrawSeconds === 0 || c.drawnTilesOnLoss === 'none') {
    return notApplicable(`${rs.name} has no courtesy draw.`, citeParams(rs, 'challenge.courtesyDrawSeconds', 'challenge.drawnTilesOnLoss'));
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
