import { cite, ruleError } from '../errors.js';
import type { GameEvent } from '../game/events.js';
import { bagCount, type GameState } from '../game/state.js';
import { err, ok, type Result } from '../result.js';
import type { GcgMoveEvent } from './document.js';
import { tilesOf } from './rack-text.js';
import type { ReplayReport } from './replay-report.js';
import { GCG, type ReplaySession } from './replay-session.js';

/** Replaying a move line (a play, an exchange or a pass): decided as in a live game, then its score compared. */

/** Why the record cannot have this move now (seed-003 rule 4, seed-001 §9), as the report that stops there. */
const misplacedMove = (r: ReplaySession, ev: GcgMoveEvent, turn: number): ReplayReport | null => {
  const s = r.st;
  const seat = ev.player;
  const { nicks } = r;
  if (r.endDue || s.status === 'ended')
    return r.stop(
      ruleError('EVENT_AFTER_GAME_END', `${nicks[seat]} moves after the game has ended.`, { line: ev.line }, GCG('§3')),
      ev,
      turn,
    );
  if (s.turn !== seat) {
    return r.stop(
      ruleError(
        'EVENT_OFF_TURN',
        `It is ${nicks[s.turn]}'s turn, but the record has ${nicks[seat]} move.`,
        { line: ev.line },
        cite('seed-003', 'rule 4'),
      ),
      ev,
      turn,
    );
  }
  if (s.status === 'waiting-final' && ev.move.kind !== 'pass') {
    return r.stop(
      ruleError(
        'EVENT_AFTER_GAME_END',
        `${nicks[seat]} moves after the last tile was played; only a pass or a challenge may follow.`,
        { line: ev.line },
        cite('seed-001', '§9'),
      ),
      ev,
      turn,
    );
  }
  return null;
};

/**
 * The engine's events for the move. An exchange recorded by count only (`-3`) has no tiles to
 * decide with, so its event is written directly, with only the count checked against the bag as it
 * was when the line began (`before`).
 */
const moveEvents = (r: ReplaySession, ev: GcgMoveEvent, before: GameState): Result<GameEvent[]> => {
  const seat = ev.player;
  const m = ev.move;
  if (m.kind === 'play') return r.run({ kind: 'play', seat, move: m });
  if (m.kind === 'pass') return r.run({ kind: 'pass', seat });
  if (m.tiles) return r.run({ kind: 'exchange', seat, tiles: m.tiles });
  const inBag = bagCount(before);
  return m.count <= inBag && m.count > 0
    ? ok([{ type: 'exchange', seat, tiles: null, count: m.count }])
    : err(ruleError('EXCHANGE_TOO_MANY', `${r.nicks[seat]} exchanges ${m.count} tiles with ${inBag} in the bag.`, { count: m.count }));
};

/** Notes the phonies that stood and compares the record's score for the move with the engine's; answers the score the record credited. */
const compareScore = (r: ReplaySession, ev: GcgMoveEvent, index: number, events: readonly GameEvent[]): number => {
  const turn = index + 1;
  const seat = ev.player;
  const play = events.find((e) => e.type === 'play');
  const engineScore = play ? play.score : 0;
  if (play && r.lexicon) {
    const bad = play.words.filter((w) => w.valid === false).map((w) => w.word);
    if (bad.length) r.phonies.push({ turn, player: r.nicks[seat], words: bad });
  }
  const score = r.lineScore(ev, turn, engineScore);
  if (engineScore === score) return score;
  const next = r.doc.events[index + 1];
  const withdrawn = play && next?.kind === 'phony-returned' && next.player === seat;
  // A play taken back at once never counted: its mis-scoring is noted, not held against the record.
  if (withdrawn)
    r.warn(
      ev,
      turn,
      'WITHDRAWN_PLAY_MISSCORED',
      `${play.move} scores ${engineScore}, not ${score}; the play was withdrawn, so the score never counted.`,
    );
  else r.mismatch(ev, turn, 'SCORE_MISMATCH', score, engineScore, `${play ? play.move : 'this turn'} scores ${engineScore}, not ${score}.`);
  r.scoreDrift[seat] += score - engineScore;
  return score;
};

/** A move line: the rack it shows is revealed, the move decided and applied, its score and running total compared. */
export const replayMove = (r: ReplaySession, ev: GcgMoveEvent, index: number): ReplayReport | null => {
  const turn = index + 1;
  const seat = ev.player;
  const s = r.st;
  const misplaced = misplacedMove(r, ev, turn);
  if (misplaced) return misplaced;
  const rack = tilesOf(ev.rack);
  if (rack && rack.length) {
    const shown = r.reveal(seat, rack);
    if (!shown.ok) {
      r.checkCumulative(ev, turn, s.scores[seat] + ev.score);
      return r.stop(shown.error, ev, turn);
    }
  }
  const decided = moveEvents(r, ev, s);
  if (!decided.ok) {
    r.checkCumulative(ev, turn, s.scores[seat] + ev.score);
    return r.stop(decided.error, ev, turn);
  }
  const applied = r.applyHeld(decided.value);
  if (!applied.ok) return r.stop(applied.error, ev, turn);
  r.lastCredited = compareScore(r, ev, index, decided.value);
  r.checkCumulative(ev, turn, r.st.scores[seat]);
  r.lastMove = ev;
  return null;
};
