import { formatSquare, parseAnchor, tileAt, type Square } from '../../board.js';
import { cite } from '../../errors.js';
import type { Lexicon } from '../../lexicon/lexicon.js';
import { formatMove, parseMove, type PlayMove } from '../../move.js';
import { checkPlay } from '../../placement.js';
import { ok, type Result } from '../../result.js';
import { CHALLENGE_EFFECTS } from '../challenge.js';
import type { GameEvent, Seat } from '../events.js';
import type { GameState } from '../state.js';
import { Batch, fail, finish } from './batch.js';
import type { CommandHandler, DecideContext } from './command.js';
import { drawEvent } from './follow-up.js';

/** Command handlers for a turn on the board: a play (after any blank substitutions) or a pass. */

const toPlayMove = (move: PlayMove | string): Result<PlayMove> => {
  if (typeof move !== 'string') return ok(move);
  const m = parseMove(move);
  if (!m.ok) return m;
  if (m.value.kind !== 'play') return fail('NOT_A_PLAY', `"${move}" is not a play: write a coordinate and a word (8H WORD).`, { move });
  return ok(m.value);
};

/** The seat may make a turn move now: the game goes on, it is their turn (seed-003 rule 4), and no out play awaits its final pass (seed-001 §9). */
export const playing = (s: GameState, seat: Seat): Result<true> => {
  if (s.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
  if (s.turn !== seat)
    return fail(
      'NOT_YOUR_TURN',
      `It is ${s.players[s.turn].name}'s turn, not ${s.players[seat].name}'s.`,
      { seat, turn: s.turn },
      cite('seed-003', 'rule 4'),
    );
  if (s.status === 'waiting-final')
    return fail(
      'GAME_ENDING',
      'The last tile has been played: pass to end the game, or challenge the out play.',
      { seat },
      cite('seed-001', '§9'),
    );
  return ok(true);
};

/** Validates and scores a play and returns the play event (shared by `decide` and the GCG import). */
export const playEvent = (s: GameState, seat: Seat, move: PlayMove, lexicon: Lexicon | null): Result<GameEvent & { type: 'play' }> => {
  const rules = s.rules;
  const rack = s.racks[seat];
  const checked = checkPlay(
    {
      board: s.board,
      distribution: s.distribution,
      rack: rack.tiles,
      lexicon,
      // Under VOID an invalid word is refused at submission; elsewhere a phony stands until challenged.
      requireValidWords: !CHALLENGE_EFFECTS[rules.challenge.mode].challengeable,
      bingoBonus: rules.board.bingoBonus,
      rackSize: rules.board.rackSize,
    },
    move,
  );
  if (!checked.ok) return checked;
  const p = checked.value;
  return ok({
    type: 'play',
    seat,
    move: formatMove(p.move),
    placements: p.placements,
    words: p.words,
    bingoBonus: p.bingoBonus,
    score: p.score,
  });
};

/** The play, the draw that refills the rack (seed-003 rule 4), and the end if the play brought it. */
const pushPlay = (b: Batch, seat: Seat, move: PlayMove | string, ctx: DecideContext): Result<GameEvent[]> => {
  const m = toPlayMove(move);
  if (!m.ok) return m;
  const ev = playEvent(b.state, seat, m.value, ctx.lexicon);
  if (!ev.ok) return ev;
  const r = b.push(ev.value);
  if (!r.ok) return r;
  const d = drawEvent(b.state, seat, ev.value.placements.length, ctx.seed);
  if (d) {
    const r2 = b.push(d);
    if (!r2.ok) return r2;
  }
  return finish(b, ctx.seed);
};

/** A play: checked and scored by `checkPlay` (placement.ts, seed-003 rules 3–10), then the draw. */
export const decidePlay: CommandHandler<'play'> = (state, command, ctx) => {
  const on = playing(state, command.seat);
  if (!on.ok) return on;
  return pushPlay(new Batch(state, ctx.now), command.seat, command.move, ctx);
};

const squareOf = (sq: string | Square): Result<Square> => {
  if (typeof sq !== 'string') return ok(sq);
  const a = parseAnchor(sq);
  return a.ok ? ok({ row: a.value.row, col: a.value.col }) : a;
};

/** seed-002 Blank Substitution (a house rule): take the named blanks off the board for their letters, then play. */
export const decideBlankSubstitution: CommandHandler<'blank-substitution'> = (state, command, ctx) => {
  const { seat, blanks } = command;
  const c = cite('seed-002', 'Blank Substitution', 'Seed');
  if (!state.rules.house.blankSubstitution)
    return fail('HOUSE_RULE_OFF', `${state.rules.name} does not allow blank substitution.`, { rule: 'house.blankSubstitution' }, c);
  const on = playing(state, seat);
  if (!on.ok) return on;
  if (blanks.length === 0) return fail('NO_BLANKS', 'A blank substitution names at least one blank on the board.', {}, c);
  const b = new Batch(state, ctx.now);
  for (const raw of blanks) {
    const sq = squareOf(raw);
    if (!sq.ok) return sq;
    const t = tileAt(b.state.board, sq.value.row, sq.value.col);
    if (!t || !t.blank)
      return fail('NOT_A_BLANK', `${formatSquare(sq.value)} does not hold a blank.`, { square: formatSquare(sq.value) }, c);
    const r = b.push({ type: 'blank-substituted', seat, row: sq.value.row, col: sq.value.col, letter: t.letter });
    if (!r.ok) return r;
  }
  return pushPlay(b, seat, command.move, ctx);
};

/**
 * A pass, also the final pass after an out play (seed-001 §9), which is why only the game's end and
 * the turn are checked here, not `playing`.
 */
export const decidePass: CommandHandler<'pass'> = (state, { seat }, ctx) => {
  if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
  if (state.turn !== seat) return fail('NOT_YOUR_TURN', `It is ${state.players[state.turn].name}'s turn.`, { seat, turn: state.turn });
  const b = new Batch(state, ctx.now);
  const r = b.push({ type: 'pass', seat });
  if (!r.ok) return r;
  return finish(b, ctx.seed);
};
