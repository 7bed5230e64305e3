import { withoutTiles } from '../../board.js';
import { cite } from '../../errors.js';
import { ok } from '../../result.js';
import { BLANK } from '../../tiles.js';
import { CHALLENGE_EFFECTS } from '../challenge.js';
import { nextScoreless } from '../end.js';
import { other } from '../events.js';
import { mustBeOnTurn, record, seatName, setAt, violation, type EventHandler } from './common.js';

/**
 * Fold handlers for a challenge and what follows it under the rule set's mode (`CHALLENGE_EFFECTS`):
 * the judgement itself, a phony taken back, a lost turn, challenge points.
 */

/**
 * A challenge of the opponent's pending play, judged (seed-001 §8: before the next turn starts). A
 * valid play stands and cannot be challenged again; the effects of either outcome are their own events.
 */
export const foldChallenge: EventHandler<'challenge'> = (s, e) => {
  const on = mustBeOnTurn(s, e.seat, 'a challenge');
  if (!on.ok) return on;
  if (!CHALLENGE_EFFECTS[s.rules.challenge.mode].challengeable) {
    return violation('NO_CHALLENGES', `Under ${s.rules.name} plays cannot be challenged: invalid words are rejected when played.`, {
      mode: s.rules.challenge.mode,
    });
  }
  if (!s.pending || s.pending.seat !== other(e.seat) || s.pending.challenged) {
    return violation(
      'NO_PLAY_TO_CHALLENGE',
      `${seatName(s, e.seat)} has no play of the opponent to challenge: a play can be challenged only before the next turn starts.`,
      { seat: e.seat },
      cite('seed-001', '§8'),
    );
  }
  const words = e.words.map((w) => `${w.word}${w.valid === false ? '*' : ''}`).join(', ');
  return ok({
    ...s,
    pending: e.valid ? { ...s.pending, challenged: true } : s.pending,
    history: record(s, { seat: e.seat, kind: 'challenge', move: `challenge ${words}`, score: 0 }, s.scores),
  });
};

/**
 * A phony challenged off: its tiles leave the board for the rack and its score is taken back. Under
 * modes where the player plays again the counters return to before the play; otherwise the turn was
 * lost and counts as scoreless.
 */
export const foldPhonyWithdrawn: EventHandler<'phony-withdrawn'> = (s, e) => {
  const p = s.pending;
  if (!p || p.seat !== e.seat) {
    return violation('NO_PLAY_TO_WITHDRAW', `${seatName(s, e.seat)} has no play that can still be withdrawn.`, { seat: e.seat });
  }
  if (p.score !== e.score)
    return violation('WITHDRAWN_SCORE_MISMATCH', `The withdrawn play ${p.move} scored ${p.score}, not ${e.score}.`, {
      seat: e.seat,
      expected: p.score,
      actual: e.score,
    });
  const rack = s.racks[e.seat];
  const scores = setAt(s.scores, e.seat, s.scores[e.seat] - p.score);
  const again = CHALLENGE_EFFECTS[s.rules.challenge.mode].withdrawnPlayerPlaysAgain;
  return ok({
    ...s,
    board: withoutTiles(s.board, p.placements),
    racks: setAt(s.racks, e.seat, { ...rack, tiles: [...rack.tiles, ...p.placements.map((t) => (t.blank ? BLANK : t.letter))] }),
    scores,
    turn: again ? e.seat : other(e.seat),
    scorelessTurns: again ? p.scorelessBefore : nextScoreless(s.rules, p.scorelessBefore, 'challenged-off'),
    consecutiveExchanges: again ? p.exchangesBefore : 0,
    pending: null,
    status: s.status === 'waiting-final' ? 'playing' : s.status,
    history: record(s, { seat: e.seat, kind: 'phony-withdrawn', move: `-- ${p.move}`, score: -p.score }, scores),
  });
};

/** A challenger who challenged a valid play loses their turn (double challenge). */
export const foldTurnLost: EventHandler<'turn-lost'> = (s, e) => {
  const on = mustBeOnTurn(s, e.seat, 'a lost turn');
  if (!on.ok) return on;
  return ok({
    ...s,
    turn: other(e.seat),
    scorelessTurns: s.status === 'waiting-final' ? s.scorelessTurns : nextScoreless(s.rules, s.scorelessTurns, 'lost-challenge'),
    consecutiveExchanges: 0,
    pending: null,
    history: record(s, { seat: e.seat, kind: 'turn-lost', move: 'lost turn (challenge)', score: 0 }, s.scores),
  });
};

/** Points for (or against) a seat after a challenge of a valid play, under the points modes. */
export const foldChallengePoints: EventHandler<'challenge-points'> = (s, e) => {
  if (s.status === 'ended') return violation('GAME_OVER', 'The game is over: no challenge points after its end.', { seat: e.seat });
  const scores = setAt(s.scores, e.seat, s.scores[e.seat] + e.points);
  return ok({
    ...s,
    scores,
    history: record(s, { seat: e.seat, kind: 'challenge-points', move: '(challenge)', score: e.points }, scores),
  });
};
