import type { RuleSet } from '../rules/ruleset.js';
import { overtimeForfeits, overtimePenalty } from '../game/recorded-clock.js';
import type { LateArrival, Overtime } from './dispute.js';
import { citeParams, noRule, onlineNoRule, plural, ruling, type Effect, type Ruling } from './ruling.js';

/**
 * Late arrival for a round: `time.lateArrival` with its numbers. seed-001 §1: the director may start the
 * clock no earlier than 5 minutes after the start, the game is forfeited at 25 minutes, anyone may stop the
 * clock when the player arrives; without an announced start, 10-minute breaks (5 if the director says).
 * WESPA 2.3: the clock runs from the start, forfeit optional under 15 minutes left, compulsory at zero.
 */
export const adjudicateLateArrival = (d: LateArrival, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a late arrival at the table');
  if (online) return online;
  const t = rs.time;
  if (t.lateArrival === 'none') return noRule(`${rs.name} has no late-arrival rule.`, citeParams(rs, 'time.lateArrival'));
  if (!d.announcedStart) {
    if (t.breakMinutes === null) {
      return noRule(
        `${rs.name} times lateness from an announced starting time, and this round had none.`,
        citeParams(rs, 'time.lateArrival', 'time.breakMinutes'),
      );
    }
    return ruling(
      'BREAK_ALLOWANCE',
      [],
      citeParams(rs, 'time.breakMinutes', 'time.shortBreakMinutes'),
      `Without an announced starting time the late-arrival clock rule does not apply: players should generally be allowed ${t.breakMinutes}-minute breaks between games${t.shortBreakMinutes !== null ? `, which the director may limit to ${t.shortBreakMinutes} minutes with proper notice` : ''}.`,
    );
  }
  if (d.minutesLate >= t.lateForfeitMinutes) {
    return ruling(
      'GAME_FORFEITED',
      [{ type: 'game-forfeited', loser: 'player', margin: t.forfeitMargin }],
      citeParams(rs, 'time.lateArrival', 'time.lateForfeitMinutes', 'time.forfeitMargin'),
      `A player ${d.minutesLate} minutes late is past the ${t.lateForfeitMinutes}-minute limit, so the game is forfeited (recorded as a ${t.forfeitMargin}-point win for the opponent).`,
    );
  }
  // The clock may not be started before the rules allow; time before that is not charged (seed-001 §1).
  const startedAt = Math.max(d.clockStartedAtMinute ?? t.lateClockStartMinutes, t.lateClockStartMinutes);
  const chargedSeconds = Math.max(0, Math.round((d.minutesLate - startedAt) * 60));
  if (chargedSeconds === 0) {
    return ruling(
      'NO_PENALTY',
      [],
      citeParams(rs, 'time.lateArrival', 'time.lateClockStartMinutes'),
      `The player arrived before the clock could be started (${t.lateClockStartMinutes} minutes after the start), so no time is lost.`,
    );
  }
  const minutesLeft = t.gameMinutes - chargedSeconds / 60;
  const mayForfeit = t.lateOptionalForfeitMinutesLeft === null || minutesLeft < t.lateOptionalForfeitMinutesLeft;
  const effects: Effect[] = [
    {
      type: 'clock',
      party: 'player',
      action: 'charge',
      seconds: chargedSeconds,
      when: `from ${startedAt} minutes after the start of the round until the player arrives`,
    },
  ];
  if (mayForfeit) effects.push({ type: 'forfeit-option', party: 'player' });
  const stopper =
    t.lateArrival === 'seed-001'
      ? ' The director or the opponent may stop the clock when the player arrives, who may then settle in, count the tiles and draw for first.'
      : '';
  return ruling(
    'CLOCK_CHARGED',
    effects,
    citeParams(rs, 'time.lateArrival', 'time.lateClockStartMinutes', 'time.lateOptionalForfeitMinutesLeft'),
    `The late player's clock runs from ${startedAt === 0 ? 'the start of the round' : `${startedAt} minutes after the start`}, so ${plural(chargedSeconds / 60, 'minute')} of their time ${chargedSeconds === 60 ? 'is' : 'are'} used${mayForfeit ? ' and they may choose to forfeit instead' : ''}.${stopper}`,
  );
};

/**
 * Overtime: `time.overtimePenaltyPerMinute` per started minute (WESPA 5.3.2 counts whole seconds, Woogles
 * milliseconds), forfeit at `time.overtimeForfeitMinutes`, scored by `time.overtimeForfeitScoring`
 * (WESPA 5.3.3: deduct the full penalty, then record at least `forfeitMargin`; Woogles: loss, scores stand).
 */
export const adjudicateOvertime = (d: Overtime, rs: RuleSet): Ruling => {
  const t = rs.time;
  if (t.overtimePenaltyPerMinute === 0 && t.overtimeForfeitMinutes === null) {
    return noRule(
      `${rs.name} has no overtime penalty and no overtime limit.`,
      citeParams(rs, 'time.overtimePenaltyPerMinute', 'time.overtimeForfeitMinutes'),
    );
  }
  const rateCites = citeParams(rs, 'time.overtimePenaltyPerMinute', 'time.overtimeCounting');
  if (t.overtimeForfeitMinutes !== null && overtimeForfeits(t, d.secondsOver)) {
    const full = t.overtimeForfeitMinutes * t.overtimePenaltyPerMinute;
    const cites = [...rateCites, ...citeParams(rs, 'time.overtimeForfeitMinutes', 'time.overtimeForfeitScoring', 'time.forfeitMargin')];
    if (t.overtimeForfeitScoring === 'loss-scores-stand' || d.scores === null) {
      const margin = t.overtimeForfeitScoring === 'loss-scores-stand' ? null : t.forfeitMargin;
      return ruling(
        'GAME_FORFEITED',
        [
          { type: 'score-delta', party: 'player', points: -full },
          { type: 'game-forfeited', loser: 'player', margin },
        ],
        cites,
        t.overtimeForfeitScoring === 'loss-scores-stand'
          ? `Reaching ${t.overtimeForfeitMinutes} minutes of overtime loses the game; the player is charged the full ${full} points and the scores otherwise stand.`
          : `Reaching ${t.overtimeForfeitMinutes} minutes of overtime forfeits the game: the player loses ${full} points and the result is recorded as at least a ${t.forfeitMargin}-point win for the opponent.`,
      );
    }
    // WESPA 5.3.3.
    let forfeiter = d.scores.player - full;
    let other = d.scores.opponent;
    if (other - forfeiter < t.forfeitMargin) forfeiter = other - t.forfeitMargin;
    if (forfeiter < 0) {
      forfeiter += t.forfeitMargin;
      other += t.forfeitMargin;
    }
    const effects: Effect[] = [{ type: 'score-delta', party: 'player', points: forfeiter - d.scores.player }];
    if (other !== d.scores.opponent) effects.push({ type: 'score-delta', party: 'opponent', points: other - d.scores.opponent });
    effects.push({ type: 'game-forfeited', loser: 'player', margin: other - forfeiter });
    return ruling(
      'GAME_FORFEITED',
      effects,
      cites,
      `Reaching ${t.overtimeForfeitMinutes} minutes of overtime forfeits the game: the player loses ${full} points and the result is recorded as ${forfeiter}–${other}, a margin of at least ${t.forfeitMargin}.`,
    );
  }
  const { minutes, points: penalty } = overtimePenalty(t, d.secondsOver);
  if (penalty === 0) {
    return ruling(
      'NO_PENALTY',
      [],
      rateCites,
      `Overtime is counted ${t.overtimeCounting === 'whole-seconds' ? 'in whole seconds' : 'to the millisecond'}, and ${d.secondsOver} seconds over counts as no overtime.`,
    );
  }
  return ruling(
    'OVERTIME_PENALTY',
    [{ type: 'score-delta', party: 'player', points: -penalty }],
    rateCites,
    `${d.secondsOver} seconds over is ${plural(minutes, 'started minute')} of overtime at ${t.overtimePenaltyPerMinute} points each, so the player loses ${penalty} points.`,
  );
};
