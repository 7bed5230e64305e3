import { formatSquare, parseAnchor, tileAt, type Square } from '../board.js';
import { cite, ruleError } from '../errors.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { formatMove, parseMove, type PlayMove } from '../move.js';
import { checkPlay } from '../placement.js';
import { err, ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import { joinTiles } from '../tiles.js';
import { apply } from './apply.js';
import { commitment, drawTiles } from './bag.js';
import { CHALLENGE_EFFECTS, challengePoints } from './challenge.js';
import { exchangeLimitReached, goingOutAdjustments, ownRackAdjustments, scorelessLimitReached } from './end.js';
import { other, type GameEnded, type GameEvent, type PlayerInfo, type Seat, type TimeControl } from './events.js';
import { checkTradePlan, mayReject } from './free-trade.js';
import { without } from './multiset.js';
import { bagCount, rackSize, type GameState } from './state.js';

/**
 * Commands → events. `decide` validates a command completely and returns every event it causes
 * (the play, its draw, a game end…) or an error and no events, so the service can append the list
 * in one transaction and a game is never half-applied. Randomness is the server's secret `seed`;
 * the clock is `now`; neither is read from globals.
 */
export interface DecideContext {
  /** Judges challenges, VOID submissions and self-lookups; `null` = words are not judged. */
  readonly lexicon: Lexicon | null;
  /** The game's secret bag seed (seeded games); `null` for imported games, whose draws are unknown. */
  readonly seed: string | null;
  /** ISO timestamp: every event decided is stamped with it (`at`), which the clock folds (clock.ts). */
  readonly now?: string;
}

export const COMMAND_KINDS = [
  'play',
  'exchange',
  'pass',
  'challenge',
  'resign',
  'timeout',
  'forfeit',
  'free-trade',
  'blank-substitution',
  'abort',
  'request-pause',
  'accept-pause',
  'decline-pause',
  'resume',
] as const;

export type Command =
  | { readonly kind: 'play'; readonly seat: Seat; readonly move: PlayMove | string }
  | { readonly kind: 'exchange'; readonly seat: Seat; readonly tiles: readonly string[] }
  | { readonly kind: 'pass'; readonly seat: Seat }
  /** `words`: the words challenged (default: every word the play formed). */
  | { readonly kind: 'challenge'; readonly seat: Seat; readonly words?: readonly string[] }
  | { readonly kind: 'resign'; readonly seat: Seat }
  | { readonly kind: 'timeout'; readonly seat: Seat }
  | { readonly kind: 'forfeit'; readonly seat: Seat; readonly reason: string }
  /** seed-002 Free Trades: the tiles to trade, in the announced order. */
  | { readonly kind: 'free-trade'; readonly seat: Seat; readonly tiles: readonly string[] }
  /** seed-002 Blank Substitution: take the blanks on these squares (`H8` or {row, col}), then play. */
  | {
      readonly kind: 'blank-substitution';
      readonly seat: Seat;
      readonly blanks: readonly (string | Square)[];
      readonly move: PlayMove | string;
    }
  /** Cancel the game before its first turn: no winner (platform-differences §2.1 "Abort"). */
  | { readonly kind: 'abort'; readonly seat: Seat }
  /** Ask the opponent to stop the clock for `seconds` (a vacation; clock.ts limits). */
  | { readonly kind: 'request-pause'; readonly seat: Seat; readonly seconds: number }
  | { readonly kind: 'accept-pause'; readonly seat: Seat }
  | { readonly kind: 'decline-pause'; readonly seat: Seat }
  /** End a running pause early (either player). */
  | { readonly kind: 'resume'; readonly seat: Seat };

/** Applies events one by one to a working state so every later decision sees their effect; stamps each with `at`. */
class Batch {
  readonly events: GameEvent[] = [];
  constructor(
    public state: GameState,
    private readonly at?: string,
  ) {}
  push(event: GameEvent): Result<GameState> {
    const e = this.at !== undefined && event.at === undefined ? { ...event, at: this.at } : event;
    const r = apply(this.state, e);
    if (!r.ok) return r;
    this.state = r.value;
    this.events.push(e);
    return r;
  }
  pushAll(es: readonly GameEvent[]): Result<GameState> {
    for (const e of es) {
      const r = this.push(e);
      if (!r.ok) return r;
    }
    return ok(this.state);
  }
}

const fail = (code: string, message: string, details?: Record<string, unknown>, c?: ReturnType<typeof cite>) =>
  err(ruleError(code, message, details, c));

/** The `tiles-drawn` event for `count` tiles (fewer if the bag runs low): seeded, or unseen tiles in an import. */
export const drawEvent = (state: GameState, seat: Seat, count: number, seed: string | null): GameEvent | null => {
  const n = Math.min(count, bagCount(state));
  if (n <= 0) return null;
  if (state.bagKind === 'imported') return { type: 'tiles-drawn', seat, tiles: [], hidden: n };
  if (seed === null) throw new Error('drawEvent: a seeded game needs its seed to draw');
  return { type: 'tiles-drawn', seat, tiles: drawTiles(seed, state.drawCount, state.bag, n).tiles };
};

/**
 * The game-ended event if the state has reached an end (seed-003 rule 12; NASPA B6): the out play
 * stands (final pass made, challenge lost, or no challenges), `end.scorelessTurns` scoreless turns,
 * or `end.consecutiveExchangesEach` exchanges by each player in a row. `null` while the game goes on.
 */
export const endIfOver = (state: GameState, seed: string | null): GameEnded | null => {
  if (state.status === 'ended') return null;
  const rules = state.rules;
  const racks = [state.racks[0].tiles, state.racks[1].tiles] as const;
  const revealed = state.bagKind === 'seeded' ? seed : null;
  if (state.status === 'waiting-final') {
    const resolved = state.pending === null || state.pending.challenged || !CHALLENGE_EFFECTS[rules.challenge.mode].challengeable;
    if (!resolved) return null;
    const outSeat: Seat = rackSize(state.racks[0]) === 0 ? 0 : 1;
    return {
      type: 'game-ended',
      reason: 'went-out',
      adjustments: goingOutAdjustments(rules, state.distribution, outSeat, racks[other(outSeat)]),
      loser: null,
      seed: revealed,
    };
  }
  if (scorelessLimitReached(rules, state.scorelessTurns)) {
    return {
      type: 'game-ended',
      reason: 'scoreless-turns',
      adjustments: ownRackAdjustments(state.distribution, racks),
      loser: null,
      seed: revealed,
    };
  }
  if (exchangeLimitReached(rules, state.consecutiveExchanges)) {
    return {
      type: 'game-ended',
      reason: 'consecutive-exchanges',
      adjustments: ownRackAdjustments(state.distribution, racks),
      loser: null,
      seed: revealed,
    };
  }
  return null;
};

const finish = (b: Batch, seed: string | null): Result<GameEvent[]> => {
  const end = endIfOver(b.state, seed);
  if (end) {
    const r = b.push(end);
    if (!r.ok) return r;
  }
  return ok(b.events);
};

/** Creates a seeded game: `game-created` with the bag commitment, then seven tiles to each player, first player first. */
export function createGame(params: {
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string } | null;
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly timeControl: TimeControl;
  readonly seed: string;
  readonly firstSeat?: Seat;
  readonly createdAt: string;
}): Result<GameEvent[]> {
  if (params.seed.length < 16)
    return fail('WEAK_SEED', 'The bag seed must be at least 16 characters of secret randomness.', { length: params.seed.length });
  const first = params.firstSeat ?? 0;
  const created: GameEvent = {
    type: 'game-created',
    rules: params.rules,
    lexicon: params.lexicon,
    players: params.players,
    timeControl: params.timeControl,
    firstSeat: first,
    bag: { kind: 'seeded', commitment: commitment(params.seed) },
    createdAt: params.createdAt,
  };
  const s0 = apply(null, created);
  if (!s0.ok) return s0;
  const b = new Batch(s0.value);
  b.events.push(created);
  for (const seat of [first, other(first)]) {
    const d = drawEvent(b.state, seat, params.rules.board.rackSize, params.seed);
    if (d) {
      const r = b.push(d);
      if (!r.ok) return r;
    }
  }
  return ok(b.events);
}

const toPlayMove = (move: PlayMove | string): Result<PlayMove> => {
  if (typeof move !== 'string') return ok(move);
  const m = parseMove(move);
  if (!m.ok) return m;
  if (m.value.kind !== 'play') return fail('NOT_A_PLAY', `"${move}" is not a play: write a coordinate and a word (8H WORD).`, { move });
  return ok(m.value);
};

const playing = (s: GameState, seat: Seat): Result<true> => {
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

function decidePlay(b: Batch, seat: Seat, move: PlayMove, ctx: DecideContext): Result<GameEvent[]> {
  const ev = playEvent(b.state, seat, move, ctx.lexicon);
  if (!ev.ok) return ev;
  const r = b.push(ev.value);
  if (!r.ok) return r;
  const d = drawEvent(b.state, seat, ev.value.placements.length, ctx.seed);
  if (d) {
    const r2 = b.push(d);
    if (!r2.ok) return r2;
  }
  return finish(b, ctx.seed);
}

/**
 * The events of a judged challenge against the pending play (CHALLENGE_EFFECTS per mode). Invalid:
 * tiles drawn after the play are shown and returned (seed-001 §2) and the play is withdrawn; under
 * `triple` its player loses. Valid: the challenger loses the turn (double), the challenged player
 * gets points (points modes), the challenger loses the game (triple), or nothing (single, free).
 */
export const challengeEvents = (
  s: GameState,
  challenger: Seat,
  words: readonly { word: string; valid: boolean | null }[],
  valid: boolean,
  seed: string | null,
): GameEvent[] => {
  const rules = s.rules;
  const effect = CHALLENGE_EFFECTS[rules.challenge.mode];
  const player = other(challenger);
  const out: GameEvent[] = [{ type: 'challenge', seat: challenger, words, valid }];
  const revealed = s.bagKind === 'seeded' ? seed : null;
  const p = s.pending;
  if (!valid) {
    if (p && (p.drawn.length > 0 || p.drawnHidden > 0)) {
      out.push({ type: 'tiles-returned', seat: player, tiles: p.drawn, from: 'rack', ...(p.drawnHidden ? { hidden: p.drawnHidden } : {}) });
    }
    out.push({ type: 'phony-withdrawn', seat: player, score: p?.score ?? 0 });
    if (effect.invalidLosesGame) out.push({ type: 'game-ended', reason: 'challenge-lost', adjustments: [], loser: player, seed: revealed });
    return out;
  }
  switch (effect.validCost) {
    case 'turn':
      out.push({ type: 'turn-lost', seat: challenger, reason: 'lost-challenge' });
      break;
    case 'points': {
      const pts = challengePoints(rules.challenge.mode, rules.challenge.points, words.length);
      out.push(
        rules.challenge.pointsRecipient === 'challenged-player'
          ? { type: 'challenge-points', seat: player, points: pts }
          : { type: 'challenge-points', seat: challenger, points: -pts },
      );
      break;
    }
    case 'game':
      out.push({ type: 'game-ended', reason: 'challenge-lost', adjustments: [], loser: challenger, seed: revealed });
      break;
    case 'nothing':
      break;
  }
  return out;
};

const squareOf = (sq: string | Square): Result<Square> => {
  if (typeof sq !== 'string') return ok(sq);
  const a = parseAnchor(sq);
  return a.ok ? ok({ row: a.value.row, col: a.value.col }) : a;
};

/** Decides a command; see the module comment. */
export function decide(state: GameState, command: Command, ctx: DecideContext): Result<GameEvent[]> {
  const b = new Batch(state, ctx.now);
  const seat = command.seat;
  const rules = state.rules;
  if (state.bagKind === 'seeded' && ctx.seed !== null && commitment(ctx.seed) !== state.commitment) {
    return fail('SEED_COMMITMENT_MISMATCH', 'The seed given does not match the commitment made when the game was created.');
  }
  switch (command.kind) {
    case 'play': {
      const on = playing(state, seat);
      if (!on.ok) return on;
      const m = toPlayMove(command.move);
      if (!m.ok) return m;
      return decidePlay(b, seat, m.value, ctx);
    }

    case 'blank-substitution': {
      const c = cite('seed-002', 'Blank Substitution', 'Seed');
      if (!rules.house.blankSubstitution)
        return fail('HOUSE_RULE_OFF', `${rules.name} does not allow blank substitution.`, { rule: 'house.blankSubstitution' }, c);
      const on = playing(state, seat);
      if (!on.ok) return on;
      if (command.blanks.length === 0) return fail('NO_BLANKS', 'A blank substitution names at least one blank on the board.', {}, c);
      for (const raw of command.blanks) {
        const sq = squareOf(raw);
        if (!sq.ok) return sq;
        const t = tileAt(b.state.board, sq.value.row, sq.value.col);
        if (!t || !t.blank)
          return fail('NOT_A_BLANK', `${formatSquare(sq.value)} does not hold a blank.`, { square: formatSquare(sq.value) }, c);
        const r = b.push({ type: 'blank-substituted', seat, row: sq.value.row, col: sq.value.col, letter: t.letter });
        if (!r.ok) return r;
      }
      const m = toPlayMove(command.move);
      if (!m.ok) return m;
      return decidePlay(b, seat, m.value, ctx);
    }

    case 'exchange': {
      const on = playing(state, seat);
      if (!on.ok) return on;
      const n = command.tiles.length;
      const inBag = bagCount(state);
      if (inBag < rules.exchange.minBag) {
        return fail(
          'EXCHANGE_BAG_TOO_SMALL',
          `The bag holds ${inBag} tiles; exchanging needs at least ${rules.exchange.minBag}.`,
          { bag: inBag, minBag: rules.exchange.minBag },
          cite('seed-000', 'When Can You Swap?'),
        );
      }
      if (n === 0 && !rules.exchange.allowEmpty)
        return fail('EMPTY_EXCHANGE', 'An exchange names at least one tile (use pass to exchange nothing).', {}, cite('seed-001', '§6'));
      if (n > inBag) {
        return fail(
          'EXCHANGE_TOO_MANY',
          `Only ${inBag} tiles are in the bag; you may not exchange ${n}.`,
          { bag: inBag, count: n },
          cite('seed-003', 'rule 11'),
        );
      }
      if (without(state.racks[seat].tiles, command.tiles) === null) {
        return fail(
          'TILES_NOT_IN_RACK',
          `The rack ${joinTiles(state.racks[seat].tiles)} does not hold ${joinTiles(command.tiles)} to exchange.`,
          { tiles: command.tiles },
          cite('seed-003', 'rule 11'),
        );
      }
      // seed-001 §6: tiles face down, draw the new ones, then the old ones go back into the bag.
      const r = b.push({ type: 'exchange', seat, tiles: command.tiles, count: n });
      if (!r.ok) return r;
      if (n > 0) {
        const d = drawEvent(b.state, seat, n, ctx.seed);
        if (d) {
          const r2 = b.push(d);
          if (!r2.ok) return r2;
        }
        const r3 = b.push({ type: 'tiles-returned', seat, tiles: command.tiles, from: 'aside' });
        if (!r3.ok) return r3;
      }
      return finish(b, ctx.seed);
    }

    case 'pass': {
      if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
      if (state.turn !== seat) return fail('NOT_YOUR_TURN', `It is ${state.players[state.turn].name}'s turn.`, { seat, turn: state.turn });
      const r = b.push({ type: 'pass', seat });
      if (!r.ok) return r;
      return finish(b, ctx.seed);
    }

    case 'challenge': {
      const p = state.pending;
      if (!CHALLENGE_EFFECTS[rules.challenge.mode].challengeable)
        return fail('NO_CHALLENGES', `Under ${rules.name} plays cannot be challenged: invalid words are rejected when played.`, {
          mode: rules.challenge.mode,
        });
      if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
      if (!p || p.seat !== other(seat) || p.challenged || state.turn !== seat) {
        return fail(
          'NO_PLAY_TO_CHALLENGE',
          'There is no play of the opponent that can still be challenged: a play can be challenged until the next turn starts.',
          { seat },
          cite('seed-001', '§8'),
        );
      }
      if (!ctx.lexicon) return fail('LEXICON_REQUIRED', "A challenge needs the game's lexicon to judge the words.", { seat });
      const formed = p.words.map((w) => w.word);
      const chosen = command.words ?? formed;
      const notFormed = chosen.filter((w) => !formed.includes(w.toUpperCase()));
      if (chosen.length === 0 || notFormed.length > 0) {
        return fail(
          'NOT_FORMED',
          `The play ${p.move} formed ${formed.join(', ')}; ${notFormed.join(', ') || 'no word'} cannot be challenged.`,
          { formed, words: chosen },
        );
      }
      const judged = [...new Set(chosen.map((w) => w.toUpperCase()))].map((word) => ({ word, valid: ctx.lexicon!.has(word) }));
      const r = b.pushAll(
        challengeEvents(
          state,
          seat,
          judged,
          judged.every((w) => w.valid),
          ctx.seed,
        ),
      );
      if (!r.ok) return r;
      return finish(b, ctx.seed);
    }

    case 'resign':
    case 'timeout':
    case 'forfeit': {
      if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
      if (
        command.kind === 'timeout' &&
        state.status === 'waiting-final' &&
        state.turn === seat &&
        state.pending?.wentOut &&
        state.pending.seat === other(seat)
      ) {
        // Woogles (platform-differences §2.1 "Timeout"): the opponent has played out and only the final
        // pass or challenge is pending, so the player who ran out of time is passed for, not forfeited.
        const r = b.push({ type: 'pass', seat, auto: 'timeout' });
        if (!r.ok) return r;
        return finish(b, ctx.seed);
      }
      const marker: GameEvent =
        command.kind === 'resign'
          ? { type: 'resigned', seat }
          : command.kind === 'timeout'
            ? { type: 'timed-out', seat }
            : { type: 'forfeited', seat, reason: command.reason };
      const reason = command.kind === 'resign' ? 'resigned' : command.kind === 'timeout' ? 'timed-out' : 'forfeited';
      const r = b.pushAll([
        marker,
        { type: 'game-ended', reason, adjustments: [], loser: seat, seed: state.bagKind === 'seeded' ? ctx.seed : null },
      ]);
      return r.ok ? ok(b.events) : r;
    }

    case 'abort': {
      const r = b.pushAll([
        { type: 'aborted', seat },
        { type: 'game-ended', reason: 'aborted', adjustments: [], loser: null, seed: state.bagKind === 'seeded' ? ctx.seed : null },
      ]);
      return r.ok ? ok(b.events) : r;
    }

    case 'request-pause':
    case 'accept-pause':
    case 'decline-pause':
    case 'resume': {
      const event: GameEvent =
        command.kind === 'request-pause'
          ? { type: 'pause-requested', seat, seconds: command.seconds }
          : command.kind === 'accept-pause'
            ? { type: 'pause-accepted', seat }
            : command.kind === 'decline-pause'
              ? { type: 'pause-declined', seat }
              : { type: 'resumed', seat };
      const r = b.push(event);
      return r.ok ? ok(b.events) : r;
    }

    case 'free-trade': {
      const c = cite('seed-002', 'Free Trades', 'Seed');
      if (!rules.house.freeTrades)
        return fail('HOUSE_RULE_OFF', `${rules.name} does not allow free trades.`, { rule: 'house.freeTrades' }, c);
      const on = playing(state, seat);
      if (!on.ok) return on;
      if (state.bagKind !== 'seeded' || ctx.seed === null)
        return fail('SEED_REQUIRED', "A free trade draws from the bag and needs the game's seed.", {}, c);
      if (state.freeTradeThisTurn) return fail('FREE_TRADE_DONE', `${state.players[seat].name} has already traded this turn.`, { seat }, c);
      const plan = checkTradePlan(state.distribution, state.racks[seat].tiles, command.tiles);
      if (!plan.ok) return plan;
      let r = b.push({
        type: 'free-trade',
        seat,
        tiles: command.tiles,
        yAs: state.racks[seat].tiles.includes('Y') ? plan.value.yAs : null,
      });
      if (!r.ok) return r;
      for (let i = 0; i < command.tiles.length; i++) {
        const tile = command.tiles[i]!;
        const still = command.tiles.slice(i + 1);
        r = b.push({ type: 'tiles-set-aside', seat, tiles: [tile] });
        if (!r.ok) return r;
        const rejected: string[] = [];
        let accepted = false;
        // seed-002: redraw while the new tile would restore a condition; every tile tried → keep the original.
        while (bagCount(b.state) > 0) {
          const d = drawEvent(b.state, seat, 1, ctx.seed)!;
          r = b.push(d);
          if (!r.ok) return r;
          const drawn = (d as { tiles: readonly string[] }).tiles[0]!;
          if (mayReject(state.distribution, b.state.racks[seat].tiles, still)) {
            rejected.push(drawn);
            r = b.push({ type: 'tiles-set-aside', seat, tiles: [drawn] });
            if (!r.ok) return r;
            continue;
          }
          accepted = true;
          break;
        }
        if (accepted) {
          r = b.push({ type: 'tiles-returned', seat, tiles: [tile, ...rejected], from: 'aside' });
        } else {
          r = b.push({ type: 'tiles-taken-back', seat, tiles: [tile] });
          if (r.ok && rejected.length) r = b.push({ type: 'tiles-returned', seat, tiles: rejected, from: 'aside' });
        }
        if (!r.ok) return r;
      }
      return ok(b.events);
    }
  }
}

/**
 * seed-002 self-lookup: a player may check words before playing them, without penalty, when
 * `challenge.selfLookup` is on. No event: looking a word up changes nothing in the game.
 */
export function lookup(state: GameState, words: readonly string[], lexicon: Lexicon): Result<{ word: string; valid: boolean }[]> {
  if (!state.rules.challenge.selfLookup) {
    return fail(
      'HOUSE_RULE_OFF',
      `${state.rules.name} does not allow looking words up during the game.`,
      { rule: 'challenge.selfLookup' },
      cite('seed-002', 'Free Challenges & the Dictionary', 'Seed'),
    );
  }
  return ok(words.map((w) => ({ word: w.toUpperCase(), valid: lexicon.has(w.toUpperCase()) })));
}
