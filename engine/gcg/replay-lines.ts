import { ruleError } from '../errors.js';
import { challengeEvents, endIfOver } from '../game/decide.js';
import { other, type Adjustment, type Seat } from '../game/events.js';
import { sameTiles } from '../game/multiset.js';
import type {
  GcgChallengeBonusEvent,
  GcgEndRackPenaltyEvent,
  GcgEndRackPointsEvent,
  GcgEvent,
  GcgPhonyReturnedEvent,
  GcgRulingAdjustmentEvent,
  GcgTimePenaltyEvent,
} from './document.js';
import { tilesOf } from './rack-text.js';
import { replayMove } from './replay-move.js';
import type { ReplayReport } from './replay-report.js';
import { GCG, type ReplaySession } from './replay-session.js';

/**
 * Replaying each kind of GCG line (reference/gcg-format.md §3). A handler folds its line into the
 * session and answers the report when the replay stops there, or null to go on to the next line.
 */

export type LineHandler<K extends GcgEvent['kind']> = (
  r: ReplaySession,
  ev: Extract<GcgEvent, { kind: K }>,
  index: number,
) => ReplayReport | null;

/** One handler per line kind: a kind added to `GcgEvent` without a handler fails to compile. */
export type LineHandlers = { readonly [K in GcgEvent['kind']]: LineHandler<K> };

type EndRackLine = GcgEndRackPointsEvent | GcgEndRackPenaltyEvent;

/** The withdrawn play's rack on the `--` line must be the rack it was played from (gcg §3 row 2). */
const withdrawnRackDiffers = (r: ReplaySession, ev: GcgPhonyReturnedEvent): boolean => {
  const rack = tilesOf(ev.rack);
  const last = r.lastMove;
  if (!rack || !rack.length || !last || last.player !== ev.player) return false;
  const played = tilesOf(last.rack);
  return !!played && played.length > 0 && !sameTiles(played, rack);
};

/** `--`: the preceding play was challenged off; the engine withdraws it as a lost challenge would. */
export const replayPhonyReturned: LineHandler<'phony-returned'> = (r, ev, index) => {
  const turn = index + 1;
  const seat = ev.player;
  const s = r.st;
  const p = s.pending;
  const { nicks } = r;
  if (!p) {
    return r.stop(
      ruleError(
        'PHONY_RETURNED_WITHOUT_PLAY',
        `${nicks[seat]}'s phony is withdrawn, but there is no play to withdraw.`,
        {},
        GCG('§3 row 2'),
      ),
      ev,
      turn,
    );
  }
  if (p.seat !== seat)
    return r.stop(
      ruleError('PHONY_RETURNED_WRONG_PLAYER', `The withdrawn play was ${nicks[p.seat]}'s, not ${nicks[seat]}'s.`, {}, GCG('§3 row 2')),
      ev,
      turn,
    );
  if (withdrawnRackDiffers(r, ev)) {
    const lastRack = r.lastMove!.rack;
    return r.stop(
      ruleError(
        'PHONY_RETURNED_MISMATCH',
        `The rack ${ev.rack} of the withdrawn play differs from ${lastRack}, the rack it was played from.`,
        {},
        GCG('§3 row 2'),
      ),
      ev,
      turn,
    );
  }
  r.endDue = false;
  const out = challengeEvents(
    s,
    other(seat),
    p.words.slice(0, 1).map((w) => ({ word: w.word, valid: false })),
    false,
    null,
  );
  const applied = r.applyHeld(out);
  if (!applied.ok) return r.stop(applied.error, ev, turn);
  // The withdrawal takes back what the record credited for the play (its own mis-scoring is noted above).
  const credited = r.lastMove && r.lastMove.player === seat ? r.lastCredited : p.score;
  let score = r.lineScore(ev, turn, -credited);
  // `-- +0` (or `-0`) with a total that did not go back: the zero states no amount, so the total is what is wrong.
  if (score === 0) score = -credited;
  if (score !== -credited) {
    r.mismatch(
      ev,
      turn,
      'SCORE_MISMATCH',
      score,
      -credited,
      `withdrawing ${p.move} takes back the ${credited} points it was credited, not ${-score}.`,
    );
  }
  r.scoreDrift[seat] += score + p.score;
  r.checkCumulative(ev, turn, r.st.scores[seat]);
  return null;
};

/** `(challenge) +N`: the preceding play was challenged and stood; the bonus is compared with the rule set's. */
export const replayChallengeBonus: LineHandler<'challenge-bonus'> = (r, ev: GcgChallengeBonusEvent, index) => {
  const turn = index + 1;
  const seat = ev.player;
  const s = r.st;
  const p = s.pending;
  const { nicks } = r;
  if (!p || p.challenged)
    return r.stop(
      ruleError('CHALLENGE_BONUS_WITHOUT_PLAY', `${nicks[seat]} gets a challenge bonus, but no play was just made.`, {}, GCG('§3 row 6')),
      ev,
      turn,
    );
  if (p.seat !== seat)
    return r.stop(
      ruleError(
        'CHALLENGE_BONUS_WRONG_PLAYER',
        `The challenged play was ${nicks[p.seat]}'s; the bonus cannot go to ${nicks[seat]}.`,
        {},
        GCG('§3 row 6'),
      ),
      ev,
      turn,
    );
  const per = r.rules.challenge.points || 5;
  const count = Math.max(1, Math.min(p.words.length, Math.round(ev.score / per)));
  const applied = r.applyHeld(
    challengeEvents(
      s,
      other(seat),
      p.words.slice(0, count).map((w) => ({ word: w.word, valid: true })),
      true,
      null,
    ),
  );
  if (!applied.ok) return r.stop(applied.error, ev, turn);
  const given = r.st.scores[seat] - s.scores[seat];
  const score = r.lineScore(ev, turn, given);
  if (given !== score) {
    r.mismatch(
      ev,
      turn,
      'CHALLENGE_BONUS_INCORRECT',
      score,
      given,
      `the challenge bonus is ${given} (${per} per word, ${p.words.length} word${p.words.length > 1 ? 's' : ''} formed), not ${score}.`,
    );
    r.scoreDrift[seat] += score - given;
  }
  r.checkCumulative(ev, turn, r.st.scores[seat]);
  return null;
};

/** Reveals every rack the block of end lines from `index` shows: the points line's opponent, the penalty line's own (gcg §3 row 8). */
const revealEndRacks = (r: ReplaySession, index: number): ReplayReport | null => {
  const evs = r.doc.events;
  for (let j = index; j < evs.length && (evs[j]!.kind === 'end-rack-points' || evs[j]!.kind === 'end-rack-penalty'); j++) {
    const e = evs[j]! as EndRackLine;
    const tiles = tilesOf(e.tiles);
    if (tiles === null) return r.stop(ruleError('BAD_RACK', `"${e.tiles}" is not a rack.`), e, j + 1);
    if (e.kind === 'end-rack-penalty') {
      const own = tilesOf(e.rack);
      if (own && own.length && !sameTiles(own, tiles)) {
        return r.stop(
          ruleError(
            'PENALTY_RACK_MISMATCH',
            `${r.nicks[e.player]}'s rack ${e.rack} differs from the tiles ${e.tiles} counted against it.`,
            {},
            GCG('§3 row 8'),
          ),
          e,
          j + 1,
        );
      }
    }
    const holder: Seat = e.kind === 'end-rack-points' ? other(e.player) : e.player;
    const shown = r.reveal(holder, tiles);
    if (!shown.ok) return r.stop(shown.error, e, j + 1);
  }
  return null;
};

/** The first end line: the racks they show are revealed, then the engine must find the game over and end it. */
const endGameAt = (r: ReplaySession, ev: EndRackLine, index: number): ReplayReport | null => {
  const turn = index + 1;
  const stopped = revealEndRacks(r, index);
  if (stopped) return stopped;
  // A play-out is usually followed directly by the points line: the final pass is implied.
  if (r.st.status === 'waiting-final' && r.st.pending && !r.st.pending.challenged) {
    const pass = r.run({ kind: 'pass', seat: r.st.turn });
    if (pass.ok) r.applyHeld(pass.value);
  }
  if (!r.endDue || endIfOver(r.st, null) === null) {
    return r.stop(
      ruleError(
        'END_GAME_EVENT_BEFORE_GAME_END',
        `The record counts end-of-game racks, but the game has not ended: ${r.st.status === 'waiting-final' ? 'the out play is pending' : 'no one has gone out and no ending rule applies'}.`,
        {},
        GCG('§3 rows 7–8'),
      ),
      ev,
      turn,
    );
  }
  const done = r.finishGame();
  if (!done.ok) return r.stop(done.error, ev, turn);
  r.endDue = false;
  return null;
};

/**
 * `(RACK) +N` and `RACK (RACK) -N`: the end-of-game adjustments. The first of the block ends the
 * game; each line's points are compared with the engine's adjustment (seed-003 scoring 9).
 */
export const replayEndRack = (r: ReplaySession, ev: EndRackLine, index: number): ReplayReport | null => {
  const turn = index + 1;
  const seat = ev.player;
  if (r.st.status !== 'ended') {
    const stopped = endGameAt(r, ev, index);
    if (stopped) return stopped;
  }
  const end = r.st.result!;
  const kind: Adjustment['kind'] = ev.kind === 'end-rack-points' ? 'opponent-rack' : 'own-rack';
  const adj = end.adjustments.find((a) => a.seat === seat && a.kind === kind);
  const code = ev.kind === 'end-rack-points' ? 'END_RACK_POINTS_INCORRECT' : 'END_RACK_PENALTY_INCORRECT';
  const score = r.lineScore(ev, turn, adj ? adj.points : 0);
  if (!adj) {
    r.mismatch(
      ev,
      turn,
      code,
      score,
      0,
      `the engine makes no ${kind === 'opponent-rack' ? 'going-out award' : 'rack deduction'} for ${r.nicks[seat]} (${end.reason}).`,
    );
    r.scoreDrift[seat] += score;
  } else if (adj.points !== score) {
    const factor = r.rules.end.goingOut === 'double-opponent-rack' && kind === 'opponent-rack' ? '2×' : '1×';
    const what = ev.kind === 'end-rack-points' ? 'going out earns' : 'the rack left costs';
    r.mismatch(ev, turn, code, score, adj.points, `${what} ${adj.points} (${factor} ${ev.tiles}), not ${score}.`);
    r.scoreDrift[seat] += score - adj.points;
  }
  r.checkCumulative(ev, turn, r.st.scores[seat]);
  return null;
};

/** `(time) -N`: an overtime penalty, only at the end of the game (gcg §3 row 9). */
export const replayTimePenalty: LineHandler<'time-penalty'> = (r, ev: GcgTimePenaltyEvent, index) => {
  const turn = index + 1;
  const seat = ev.player;
  if (r.st.status !== 'ended') {
    if (!r.endDue)
      return r.stop(
        ruleError(
          'END_GAME_EVENT_BEFORE_GAME_END',
          `A time penalty for ${r.nicks[seat]} comes before the game has ended.`,
          {},
          GCG('§3 row 9'),
        ),
        ev,
        turn,
      );
    const done = r.finishGame();
    if (!done.ok) return r.stop(done.error, ev, turn);
    r.endDue = false;
  }
  const penalised = r.push([{ type: 'time-penalty', seat, points: -ev.score }]);
  if (!penalised.ok) return r.stop(penalised.error, ev, turn);
  r.checkCumulative(ev, turn, r.st.scores[seat]);
  return null;
};

/** `(ruling) ±N`: a ruling's score change, at any point of the game (Arbiter's extension, docs/gcg.md). */
export const replayRulingAdjustment: LineHandler<'ruling-adjustment'> = (r, ev: GcgRulingAdjustmentEvent, index) => {
  const turn = index + 1;
  const note = ev.notes.find((n) => n.startsWith('ruling ')) ?? 'ruling';
  const applied = r.push([
    { type: 'ruling-applied', ruling: note.split(/\s+/)[1] ?? 'RULING', scoreChanges: [{ seat: ev.player, points: ev.score }], note },
  ]);
  if (!applied.ok) return r.stop(applied.error, ev, turn);
  r.checkCumulative(ev, turn, r.st.scores[ev.player]);
  return null;
};

/** The handler of each line kind. */
export const LINE_HANDLERS: LineHandlers = {
  move: replayMove,
  'phony-returned': replayPhonyReturned,
  'challenge-bonus': replayChallengeBonus,
  'end-rack-points': replayEndRack,
  'end-rack-penalty': replayEndRack,
  'time-penalty': replayTimePenalty,
  'ruling-adjustment': replayRulingAdjustment,
};
