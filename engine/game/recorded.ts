import { cite, ruleError, type RuleError } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import { err, ok, type Result } from '../result.js';
import { apply } from './apply.js';
import { challengeEvents, decide, endIfOver, type Command, type DecideContext } from './decide.js';
import { other, type GameEvent, type PlayerInfo, type Seat } from './events.js';
import { playing } from './decide/turn.js';
import { missingFrom } from './multiset.js';
import { clockReadingOf, endOfGamePenalties, flagFallen, timeForfeitEvents, type ClockEntry } from './recorded-clock.js';
import { bagCount, rackSize, type GameState } from './state.js';
import { legalActions, type ActionKind } from './view.js';

/**
 * Over-the-board games recorded live (issue 14 item 1). A scorekeeper enters each physical move as it
 * happens; the log keeps the events a played game would have, with the draws unknown (bag kind
 * `imported`, as a GCG import: `tiles-drawn` with `hidden` tiles). What the engine can check it
 * checks: placement and score (the same `decide` as a live turn), and that every tile shown — played,
 * or on a rack the scorekeeper enters — could still be unseen (`rack-revealed` folds against the
 * distribution). Words are not judged at entry: at a table a phony stands until the opponent
 * challenges it off, so the challenge's result is what the scorekeeper enters.
 */

export type RecordedMove =
  /** `score`: the score the table announced; the engine's differs → SCORE_MISMATCH. */
  | { readonly kind: 'play'; readonly move: string; readonly score?: number | null }
  /** `tiles`: the faces, when the scorekeeper saw them; else only the count. */
  | { readonly kind: 'exchange'; readonly count: number; readonly tiles?: readonly string[] | null }
  | { readonly kind: 'pass' }
  /** The challenge of the last play and what the word judge said; `words` default: the play's main word. */
  | { readonly kind: 'challenge'; readonly result: 'play-removed' | 'play-stands'; readonly words?: readonly string[] | null }
  /** No move: the mover's clock reached the rule set's overtime limit (the reading in `time` shows it), so the game ends on time. */
  | { readonly kind: 'out-of-time' };

export interface RecordedEntry {
  readonly move: RecordedMove;
  /** The mover's rack before the move, when known (any part of it; the rest stays unseen). */
  readonly rack?: readonly string[] | null;
  /** At the end of the game: the tiles left on a seat's rack (index = seat), so their values can be counted. */
  readonly remainingRacks?: readonly (readonly string[] | null)[] | null;
  /** The mover's clock after the move, in a game with a clock (recorded-clock.ts). */
  readonly time?: ClockEntry | null;
}

/** The moves a scorekeeper may record now, as action kinds: the player to move's turn actions that a table has (no house-rule actions). */
export const recordableMoves = (state: GameState): ActionKind[] =>
  state.bagKind !== 'imported' ? [] : legalActions(state, state.turn).filter((k) => RECORDABLE.has(k));
const RECORDABLE: ReadonlySet<ActionKind> = new Set(['play', 'exchange', 'pass', 'challenge']);

/** The opening events of a recorded game: created with an unknown bag, then a full rack of unseen tiles to each player. */
export const recordedGameStart = (params: {
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string } | null;
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly firstSeat: Seat;
  readonly createdAt: string;
  /** Minutes on each player's clock at the table (checked by the caller, clock.ts `validateTimeControl`); absent = untimed. */
  readonly clockMinutes?: number | null;
}): GameEvent[] => [
  {
    type: 'game-created',
    rules: params.rules,
    lexicon: params.lexicon,
    players: params.players,
    timeControl: params.clockMinutes ? { kind: 'clock', minutes: params.clockMinutes } : { kind: 'untimed' },
    firstSeat: params.firstSeat,
    bag: { kind: 'imported' },
    createdAt: params.createdAt,
  },
  { type: 'tiles-drawn', seat: params.firstSeat, tiles: [], hidden: params.rules.board.rackSize },
  { type: 'tiles-drawn', seat: other(params.firstSeat), tiles: [], hidden: params.rules.board.rackSize },
];

/** Events folded one by one onto a state, so that each next decision sees the ones before. */
class Entry {
  readonly events: GameEvent[] = [];
  constructor(public state: GameState) {}
  push(es: readonly GameEvent[]): Result<GameState> {
    for (const e of es) {
      const r = apply(this.state, e);
      if (!r.ok) return r;
      this.state = r.value;
      this.events.push(e);
    }
    return ok(this.state);
  }
  reveal(seat: Seat, tiles: readonly string[] | null | undefined): Result<GameState> {
    return tiles && tiles.length ? this.push([{ type: 'rack-revealed', seat, tiles }]) : ok(this.state);
  }
}

const UNJUDGED = (ctx: DecideContext): DecideContext => ({ ...ctx, lexicon: null, seed: null });

/**
 * A play from a rack the log only partly knows: the tiles it needs beyond the known ones are revealed
 * first (they must be among the unseen tiles: no third Z), then the play is decided as a live one.
 */
const playEvents = (en: Entry, seat: Seat, move: string, ctx: DecideContext): Result<GameEvent[]> => {
  const cmd: Command = { kind: 'play', seat, move };
  const first = decide(en.state, cmd, UNJUDGED(ctx));
  if (first.ok || first.error.code !== 'TILES_NOT_IN_RACK') return first;
  const rack = en.state.racks[seat];
  const needed = (first.error.details?.['tiles'] as string[] | undefined) ?? [];
  if (needed.length === 0 || needed.length > rack.hidden) return first;
  const shown = en.reveal(seat, [...rack.tiles, ...needed]);
  if (!shown.ok) return shown;
  return decide(en.state, cmd, UNJUDGED(ctx));
};

const exchangeEvents = (en: Entry, seat: Seat, count: number, tiles: readonly string[] | null | undefined, ctx: DecideContext) => {
  const s = en.state;
  if (tiles && tiles.length) {
    if (tiles.length !== count)
      return err(ruleError('BAD_INPUT', `The exchange names ${tiles.length} tiles but counts ${count}.`, { field: 'exchange.count' }));
    const missing = missingFrom(s.racks[seat].tiles, tiles);
    if (missing.length && missing.length <= s.racks[seat].hidden) {
      const shown = en.reveal(seat, [...s.racks[seat].tiles, ...missing]);
      if (!shown.ok) return shown;
    }
    return decide(en.state, { kind: 'exchange', seat, tiles: [...tiles] }, UNJUDGED(ctx));
  }
  const turn = playing(s, seat);
  if (!turn.ok) return turn;
  const inBag = bagCount(s);
  const minBag = s.rules.exchange.minBag;
  if (inBag < minBag)
    return err(
      ruleError(
        'EXCHANGE_BAG_TOO_SMALL',
        `The bag holds ${inBag} tiles; exchanging needs at least ${minBag}.`,
        { bag: inBag, minBag },
        cite('seed-000', 'When Can You Swap?'),
      ),
    );
  if (!Number.isInteger(count) || count <= 0 || count > inBag || count > rackSize(s.racks[seat]))
    return err(
      ruleError(
        'EXCHANGE_TOO_MANY',
        `${s.players[seat].name} cannot exchange ${count} tiles: the bag holds ${inBag}, the rack ${rackSize(s.racks[seat])}.`,
        { field: 'exchange.count', count, bag: inBag },
        cite('seed-003', 'rule 11'),
      ),
    );
  return ok<GameEvent[]>([{ type: 'exchange', seat, tiles: null, count }]);
};

const challengeOf = (s: GameState, m: Extract<RecordedMove, { kind: 'challenge' }>): Result<GameEvent[]> => {
  const p = s.pending;
  if (!p || p.challenged)
    return err(
      ruleError(
        'NOTHING_TO_CHALLENGE',
        'No play waits to be challenged: a challenge follows the play it concerns.',
        {},
        cite('seed-001', '§8'),
      ),
    );
  const stands = m.result === 'play-stands';
  const named = m.words && m.words.length ? m.words.map((w) => w.toUpperCase()) : null;
  const unknown = named?.filter((w) => !p.words.some((x) => x.word === w)) ?? [];
  if (unknown.length)
    return err(
      ruleError('WORD_NOT_IN_PLAY', `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not formed by ${p.move}.`, {
        field: 'challenge.words',
        words: unknown,
      }),
    );
  const words = named ?? (stands ? p.words.map((w) => w.word) : p.words.slice(0, 1).map((w) => w.word));
  return ok(
    challengeEvents(
      s,
      other(p.seat),
      words.map((word) => ({ word, valid: stands })),
      stands,
      null,
    ),
  );
};

/** The racks an ending counts whose tiles the log does not know: the scorekeeper must enter them. */
const unknownEndRacks = (s: GameState): Seat[] => {
  const end = endIfOver(s, null);
  if (!end) return [];
  const counted: Seat[] = end.reason === 'went-out' ? [rackSize(s.racks[0]) === 0 ? 1 : 0] : [0, 1];
  return counted.filter((seat) => s.racks[seat].hidden > 0);
};

/** The move's own events, decided on the state after the racks entered were revealed. */
const moveEvents = (en: Entry, seat: Seat, m: RecordedMove, ctx: DecideContext): Result<GameEvent[]> => {
  switch (m.kind) {
    case 'play':
      return playEvents(en, seat, m.move, ctx);
    case 'exchange':
      return exchangeEvents(en, seat, m.count, m.tiles, ctx);
    case 'pass':
      return decide(en.state, { kind: 'pass', seat }, UNJUDGED(ctx));
    case 'challenge':
      return challengeOf(en.state, m);
    case 'out-of-time':
      return ok([]);
  }
};

/** An `out-of-time` entry: a reading at the rule set's overtime limit is what ends the game (no move was made). */
const outOfTimeProblem = (s: GameState, entry: RecordedEntry): RuleError | null => {
  const t = s.rules.time;
  if (t.overtimeForfeitMinutes === null)
    return ruleError('NO_OVERTIME_LIMIT', `${s.rules.name} sets no overtime limit: a game under it does not end on time.`, {
      field: 'move.outOfTime',
    });
  if (!entry.time)
    return ruleError('CLOCK_READING_REQUIRED', 'A game ends on time by the clock: enter the mover’s reading (time).', { field: 'time' });
  return ruleError(
    'NOT_OUT_OF_TIME',
    `${entry.time.secondsLeft} seconds left is not ${t.overtimeForfeitMinutes} minutes of overtime: the game goes on.`,
    { field: 'time.secondsLeft', secondsLeft: entry.time.secondsLeft, limit: -t.overtimeForfeitMinutes * 60 },
    s.rules.sources['time.overtimeForfeitMinutes']?.[0],
  );
};

/** The end of a recorded game, if this move brings it: on time, or as a played game ends (then racks must be known). */
const endEvents = (en: Entry, decided: readonly GameEvent[]): Result<GameEvent[]> => {
  const flag = flagFallen(en.state);
  if (flag !== null) return ok(timeForfeitEvents(flag));
  const missing = unknownEndRacks(en.state);
  if (missing.length)
    return err(
      ruleError(
        'FINAL_RACKS_REQUIRED',
        `The game ends with this move: enter the tiles left on ${missing.map((s) => `${en.state.players[s].name}'s rack (seat ${s}, ${en.state.racks[s].hidden} unseen)`).join(' and ')} in remainingRacks, so they can be counted.`,
        { field: 'remainingRacks', seats: missing },
        cite('seed-003', 'scoring 9'),
      ),
    );
  const end = decided.find((e) => e.type === 'game-ended') ?? endIfOver(en.state, null);
  return ok(end ? [end] : []);
};

/** The events of one recorded move (see the module comment), or why the move cannot have happened. */
export function recordedMoveEvents(state: GameState, entry: RecordedEntry, ctx: DecideContext): Result<GameEvent[], RuleError> {
  if (state.bagKind !== 'imported')
    return err(ruleError('NOT_RECORDED', 'Moves are recorded only in recorded games; a played game takes turns (submitTurn).'));
  if (state.status === 'ended') return err(ruleError('GAME_OVER', 'The game is over.'));
  const en = new Entry(state);
  const m = entry.move;
  const seat: Seat = m.kind === 'challenge' && state.pending ? other(state.pending.seat) : state.turn;
  const rack = en.reveal(seat, entry.rack);
  if (!rack.ok) return rack;
  for (const s of [0, 1] as const) {
    const shown = en.reveal(s, entry.remainingRacks?.[s]);
    if (!shown.ok) return shown;
  }
  const decided = moveEvents(en, seat, m, ctx);
  if (!decided.ok) return decided;
  const held = decided.value.filter((e) => e.type !== 'game-ended');
  const folded = en.push(held);
  if (!folded.ok) return folded;
  const play = held.find((e) => e.type === 'play');
  if (m.kind === 'play' && play && m.score != null && m.score !== play.score)
    return err(
      ruleError(
        'SCORE_MISMATCH',
        `${play.move} scores ${play.score}, not ${m.score} as entered.`,
        { field: 'move.play.score', claimed: m.score, computed: play.score, move: play.move },
        cite('seed-003', 'scoring 1–7'),
      ),
    );
  const reading = clockReadingOf(seat, entry.time);
  if (!reading.ok) return reading;
  const read = en.push(reading.value);
  if (!read.ok) return read;
  if (m.kind === 'out-of-time' && flagFallen(en.state) === null) return err(outOfTimeProblem(en.state, entry)!);
  const end = endEvents(en, decided.value);
  if (!end.ok) return end;
  const ended = en.push(end.value);
  if (!ended.ok) return ended;
  if (en.state.status === 'ended') {
    const penalties = en.push(endOfGamePenalties(en.state, en.state.result?.reason === 'timed-out' ? en.state.result.loser : null));
    if (!penalties.ok) return penalties;
  }
  return ok(en.events);
}
