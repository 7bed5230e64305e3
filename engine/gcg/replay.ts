import { cite, ruleError, type RuleError } from '../errors.js';
import { apply } from '../game/apply.js';
import { challengeEvents, decide, endIfOver, type Command } from '../game/decide.js';
import { other, type Adjustment, type EndReason, type GameEvent, type Seat } from '../game/events.js';
import { sameTiles } from '../game/multiset.js';
import { bagCount, type GameState } from '../game/state.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { parseRack } from '../move.js';
import { err, ok, type Result } from '../result.js';
import { NSA_2008 } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { DISTRIBUTIONS, rackValue } from '../tiles.js';
import type { GcgDocument, GcgEvent } from './document.js';

/**
 * GCG replay (issue 2, through the game state machine of issue 3): a parsed record becomes the
 * events of an imported game, folded by the same `decide`/`apply` that referee live games, and
 * every recorded score, running total and end-of-game adjustment is compared with the engine's.
 *
 * An imported game has no seed: the racks in the record are the known draws. A rack shown on a
 * line is revealed into the game (`rack-revealed`), which checks it could have been drawn from the
 * tiles not yet seen; the opponent's rack stays unknown between its own lines.
 */

const GCG = (rule: string) => cite('gcg', rule);

export interface ReplayMismatch {
  /** 1-based index of the event line in the record. */
  readonly turn: number;
  readonly player: string;
  /** What the record says. */
  readonly expected: number | string;
  /** What the engine computed. */
  readonly actual: number | string;
  readonly reason: string;
  readonly code: string;
  readonly line: number;
}

export interface ReplayErrorItem {
  readonly code: string;
  readonly message: string;
  readonly line: number | null;
  readonly turn: number | null;
}

export interface ReplayReport {
  readonly ok: boolean;
  /** Turns in the record (plays, exchanges, passes). */
  readonly moves: number;
  readonly mismatches: readonly ReplayMismatch[];
  /** The engine's final scores by nickname. */
  readonly finalScores: Readonly<Record<string, number>>;
  /** Violations that stopped the replay (at most one) and problems with the record as a whole. */
  readonly errors: readonly ReplayErrorItem[];
  /** True when the game reached its end in the engine. */
  readonly complete: boolean;
  readonly result: { readonly winner: string | null; readonly reason: EndReason } | null;
  /** Words not in the lexicon that stood (only with a lexicon). */
  readonly phonies: readonly { readonly turn: number; readonly player: string; readonly words: readonly string[] }[];
  /** Oddities that do not make the record wrong (a withdrawn play that was mis-scored). */
  readonly warnings: readonly string[];
  /** The rule set inferred from the record. */
  readonly rules: RuleSet;
  /** The imported game's event log. */
  readonly events: readonly GameEvent[];
}

export interface ReplayOptions {
  /** Judges words (phonies are reported, not rejected); without one only geometry and scores are checked. */
  readonly lexicon?: Lexicon | null;
}

const LAYOUT_NAMES: Readonly<Record<string, string>> = {
  crosswordgame: 'CrosswordGame',
  standard15: 'CrosswordGame',
  supercrosswordgame: 'SuperCrosswordGame',
  standard21: 'SuperCrosswordGame',
};
const GAME_TYPES = ['classic'] as const;

const pragma = (doc: GcgDocument, keyword: string): string | undefined => doc.pragmas.find((p) => p.keyword === keyword)?.value;

const tilesOf = (text: string): string[] | null => {
  if (text === '') return [];
  const r = parseRack(text.replace(/\./g, '?'));
  return r.ok ? r.value : null;
};

/**
 * The rule set a record shows (never fail a real record for a choice the record itself makes):
 * `(challenge) +N` lines mean a points challenge rule (per word, N the smallest bonus); an ending
 * that gives 1× the opponent's rack with a matching penalty line means the +1×/−1× transfer;
 * otherwise NSA-style double challenge with 2× for going out. Board and tiles from the pragmas.
 */
export function inferRules(doc: GcgDocument): Result<RuleSet> {
  const gameType = pragma(doc, 'game-type');
  if (gameType !== undefined && !(GAME_TYPES as readonly string[]).includes(gameType.toLowerCase())) {
    return err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The record is a "${gameType}" game; Arbiter replays classic games only.`,
        { gameType },
        GCG('§2 game-type'),
      ),
    );
  }
  const layoutPragma = pragma(doc, 'board-layout');
  const layout = layoutPragma === undefined ? 'CrosswordGame' : LAYOUT_NAMES[layoutPragma.toLowerCase()];
  if (!layout)
    return err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The record's board layout "${layoutPragma}" is not one Arbiter has.`,
        { layout: layoutPragma },
        GCG('§2 board-layout'),
      ),
    );
  const distPragma = (pragma(doc, 'tile-distribution') ?? (layout === 'SuperCrosswordGame' ? 'english_super' : 'english')).toLowerCase();
  if (!DISTRIBUTIONS[distPragma]) {
    return err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The record's tile distribution "${distPragma}" is not one Arbiter has.`,
        { distribution: distPragma },
        GCG('§2 tile-distribution'),
      ),
    );
  }
  const dist = DISTRIBUTIONS[distPragma]!;
  const bonuses = doc.events.filter((e) => e.kind === 'challenge-bonus' && e.score > 0).map((e) => e.score);
  let transfer = false;
  doc.events.forEach((e, i) => {
    const tiles = e.kind === 'end-rack-points' ? tilesOf(e.tiles) : null;
    if (!tiles || tiles.length === 0 || e.score !== rackValue(dist, tiles)) return;
    transfer ||= doc.events.slice(i + 1).some((f) => f.kind === 'end-rack-penalty' && f.player !== e.player && f.score === -e.score);
  });
  const base = NSA_2008;
  return ok({
    ...base,
    id: 'GCG_IMPORT',
    name: 'Inferred from a GCG record',
    description: 'Double challenge and 2× going out unless the record shows challenge bonuses or the 1× transfer ending.',
    board: { ...base.board, layout, distribution: distPragma },
    challenge: bonuses.length ? { ...base.challenge, mode: 'points-per-word', points: Math.min(...bonuses) } : base.challenge,
    end: { ...base.end, goingOut: transfer ? 'transfer-opponent-rack' : 'double-opponent-rack' },
  });
}

/** Replays a parsed record; see the module comment. */
export function replayGcg(doc: GcgDocument, options: ReplayOptions = {}): ReplayReport {
  const lexicon = options.lexicon ?? null;
  const nicks = [doc.players[0].nickname, doc.players[1].nickname] as const;
  const mismatches: ReplayMismatch[] = [];
  const errors: ReplayErrorItem[] = [];
  const phonies: { turn: number; player: string; words: string[] }[] = [];
  const warnings: string[] = [];
  const events: GameEvent[] = [];
  const moves = doc.events.filter((e) => e.kind === 'move').length;

  const inferred = inferRules(doc);
  const rules = inferred.ok ? inferred.value : NSA_2008;
  const report = (state: GameState | null): ReplayReport => ({
    ok: mismatches.length === 0 && errors.length === 0,
    moves,
    mismatches,
    finalScores: state ? { [nicks[0]]: state.scores[0], [nicks[1]]: state.scores[1] } : { [nicks[0]]: 0, [nicks[1]]: 0 },
    errors,
    complete: state?.status === 'ended',
    result: state?.result
      ? { winner: state.result.winner === null ? null : nicks[state.result.winner], reason: state.result.reason }
      : null,
    phonies,
    warnings,
    rules,
    events,
  });
  if (!inferred.ok) {
    errors.push({
      code: inferred.error.code,
      message: inferred.error.message,
      line:
        doc.pragmas.find((p) => p.keyword === 'game-type' || p.keyword === 'board-layout' || p.keyword === 'tile-distribution')?.line ??
        null,
      turn: null,
    });
    return report(null);
  }

  let state: GameState | null = null;
  const push = (es: readonly GameEvent[]): Result<GameState> => {
    let s = state;
    for (const e of es) {
      const r = apply(s, e);
      if (!r.ok) return r;
      s = r.value;
    }
    state = s;
    events.push(...es);
    return ok(s!);
  };
  const firstSeat: Seat = doc.events[0]?.player ?? 0;
  push([
    {
      type: 'game-created',
      rules,
      lexicon: lexicon ? { name: lexicon.name, hash: lexicon.hash } : null,
      players: [
        { name: doc.players[0].name || nicks[0], id: nicks[0] },
        { name: doc.players[1].name || nicks[1], id: nicks[1] },
      ],
      timeControl: { kind: 'untimed' },
      firstSeat,
      bag: { kind: 'imported' },
      createdAt: '1970-01-01T00:00:00Z',
    },
    { type: 'tiles-drawn', seat: firstSeat, tiles: [], hidden: rules.board.rackSize },
    { type: 'tiles-drawn', seat: other(firstSeat), tiles: [], hidden: rules.board.rackSize },
  ]);
  const st = (): GameState => state!;

  // Differences between the record's move scores and the engine's, already reported: the running
  // totals are then compared net of them, so one wrong score is reported once, not on every line.
  const scoreDrift: [number, number] = [0, 0];
  let endDue = false;
  let lastMove: GcgEvent | null = null;

  const stop = (e: RuleError, ev: GcgEvent | null, turn: number | null): ReplayReport => {
    errors.push({ code: e.code, message: ev ? `Line ${ev.line}: ${e.message}` : e.message, line: ev?.line ?? null, turn });
    return report(state);
  };
  const mismatch = (ev: GcgEvent, turn: number, code: string, expected: number | string, actual: number | string, reason: string) =>
    mismatches.push({ turn, player: nicks[ev.player], expected, actual, reason: `Line ${ev.line}: ${reason}`, code, line: ev.line });
  // A running total off by the same amount as on the player's previous line is the same error.
  const cumulativeOff: [number, number] = [0, 0];
  const checkCumulative = (ev: GcgEvent, turn: number, engine: number) => {
    const seat = ev.player;
    const off = ev.cumulative - (engine + scoreDrift[seat]);
    if (off !== 0 && off !== cumulativeOff[seat]) {
      mismatch(
        ev,
        turn,
        'CUMULATIVE_SCORE_MISMATCH',
        ev.cumulative,
        engine + scoreDrift[seat],
        `${nicks[seat]}'s running total is ${ev.cumulative} in the record; the scores add up to ${engine + scoreDrift[seat]}.`,
      );
    }
    cumulativeOff[seat] = off;
  };
  /** Applies the engine's events; game-ended is held back until the record's end lines reveal the racks. */
  const applyHeld = (es: readonly GameEvent[]): Result<GameState> => {
    const held = es.filter((e) => e.type !== 'game-ended');
    const r = push(held);
    if (r.ok && (held.length !== es.length || endIfOver(r.value, null) !== null)) endDue = true;
    return r;
  };
  const finishGame = (): Result<GameState> => {
    const end = endIfOver(st(), null);
    return end ? push([end]) : ok(st());
  };
  const reveal = (seat: Seat, tiles: readonly string[]): Result<GameState> =>
    tiles.length ? push([{ type: 'rack-revealed', seat, tiles }]) : ok(st());
  const run = (cmd: Command): Result<GameEvent[]> => decide(st(), cmd, { lexicon, seed: null });

  const evs = doc.events;
  for (let i = 0; i < evs.length; i++) {
    const ev = evs[i]!;
    const turn = i + 1;
    const seat = ev.player;
    const s = st();

    if (ev.kind === 'move') {
      if (endDue || s.status === 'ended')
        return stop(
          ruleError('EVENT_AFTER_GAME_END', `${nicks[seat]} moves after the game has ended.`, { line: ev.line }, GCG('§3')),
          ev,
          turn,
        );
      if (s.turn !== seat) {
        return stop(
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
        return stop(
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
      const rack = tilesOf(ev.rack);
      if (rack && rack.length) {
        const r = reveal(seat, rack);
        if (!r.ok) {
          checkCumulative(ev, turn, s.scores[seat] + ev.score);
          return stop(r.error, ev, turn);
        }
      }
      const m = ev.move;
      let r: Result<GameEvent[]>;
      if (m.kind === 'play') r = run({ kind: 'play', seat, move: m });
      else if (m.kind === 'pass') r = run({ kind: 'pass', seat });
      else if (m.tiles) r = run({ kind: 'exchange', seat, tiles: m.tiles });
      else
        r =
          m.count <= bagCount(s) && m.count > 0
            ? ok([{ type: 'exchange', seat, tiles: null, count: m.count }])
            : err(
                ruleError('EXCHANGE_TOO_MANY', `${nicks[seat]} exchanges ${m.count} tiles with ${bagCount(s)} in the bag.`, {
                  count: m.count,
                }),
              );
      if (!r.ok) {
        checkCumulative(ev, turn, s.scores[seat] + ev.score);
        return stop(r.error, ev, turn);
      }
      const applied = applyHeld(r.value);
      if (!applied.ok) return stop(applied.error, ev, turn);
      const play = r.value.find((e) => e.type === 'play');
      const engineScore = play ? play.score : 0;
      if (play && lexicon) {
        const bad = play.words.filter((w) => w.valid === false).map((w) => w.word);
        if (bad.length) phonies.push({ turn, player: nicks[seat], words: bad });
      }
      if (engineScore !== ev.score) {
        const withdrawn = play && evs[i + 1]?.kind === 'phony-returned' && evs[i + 1]!.player === seat;
        // A play taken back at once never counted: its mis-scoring is noted, not held against the record.
        if (withdrawn)
          warnings.push(
            `Line ${ev.line}: ${play.move} scores ${engineScore}, not ${ev.score}; the play was withdrawn, so the score never counted.`,
          );
        else
          mismatch(
            ev,
            turn,
            'SCORE_MISMATCH',
            ev.score,
            engineScore,
            `${play ? play.move : 'this turn'} scores ${engineScore}, not ${ev.score}.`,
          );
        scoreDrift[seat] += ev.score - engineScore;
      }
      checkCumulative(ev, turn, st().scores[seat]);
      lastMove = ev;
      continue;
    }

    if (ev.kind === 'phony-returned') {
      const p = s.pending;
      if (!p) {
        return stop(
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
        return stop(
          ruleError('PHONY_RETURNED_WRONG_PLAYER', `The withdrawn play was ${nicks[p.seat]}'s, not ${nicks[seat]}'s.`, {}, GCG('§3 row 2')),
          ev,
          turn,
        );
      const rack = tilesOf(ev.rack);
      if (rack && rack.length && lastMove && lastMove.player === seat) {
        const played = tilesOf(lastMove.rack);
        if (played && played.length && !sameTiles(played, rack)) {
          return stop(
            ruleError(
              'PHONY_RETURNED_MISMATCH',
              `The rack ${ev.rack} of the withdrawn play differs from ${lastMove.rack}, the rack it was played from.`,
              {},
              GCG('§3 row 2'),
            ),
            ev,
            turn,
          );
        }
      }
      endDue = false;
      const out = challengeEvents(
        s,
        other(seat),
        p.words.slice(0, 1).map((w) => ({ word: w.word, valid: false })),
        false,
        null,
      );
      const r = applyHeld(out);
      if (!r.ok) return stop(r.error, ev, turn);
      // The withdrawal takes back what the record credited for the play (its own mis-scoring is noted above).
      const credited = lastMove && lastMove.player === seat ? lastMove.score : p.score;
      if (ev.score !== -credited && ev.score !== 0) {
        mismatch(
          ev,
          turn,
          'SCORE_MISMATCH',
          ev.score,
          -credited,
          `withdrawing ${p.move} takes back the ${credited} points it was credited, not ${-ev.score}.`,
        );
      }
      scoreDrift[seat] += ev.score + p.score;
      checkCumulative(ev, turn, st().scores[seat]);
      continue;
    }

    if (ev.kind === 'challenge-bonus') {
      const p = s.pending;
      if (!p || p.challenged)
        return stop(
          ruleError(
            'CHALLENGE_BONUS_WITHOUT_PLAY',
            `${nicks[seat]} gets a challenge bonus, but no play was just made.`,
            {},
            GCG('§3 row 6'),
          ),
          ev,
          turn,
        );
      if (p.seat !== seat)
        return stop(
          ruleError(
            'CHALLENGE_BONUS_WRONG_PLAYER',
            `The challenged play was ${nicks[p.seat]}'s; the bonus cannot go to ${nicks[seat]}.`,
            {},
            GCG('§3 row 6'),
          ),
          ev,
          turn,
        );
      const per = rules.challenge.points || 5;
      const count = Math.max(1, Math.min(p.words.length, Math.round(ev.score / per)));
      const r = applyHeld(
        challengeEvents(
          s,
          other(seat),
          p.words.slice(0, count).map((w) => ({ word: w.word, valid: true })),
          true,
          null,
        ),
      );
      if (!r.ok) return stop(r.error, ev, turn);
      const given = st().scores[seat] - s.scores[seat];
      if (given !== ev.score) {
        mismatch(
          ev,
          turn,
          'CHALLENGE_BONUS_INCORRECT',
          ev.score,
          given,
          `the challenge bonus is ${given} (${per} per word, ${p.words.length} word${p.words.length > 1 ? 's' : ''} formed), not ${ev.score}.`,
        );
        scoreDrift[seat] += ev.score - given;
      }
      checkCumulative(ev, turn, st().scores[seat]);
      continue;
    }

    if (ev.kind === 'end-rack-points' || ev.kind === 'end-rack-penalty') {
      if (s.status !== 'ended') {
        // The end lines as a block: reveal every rack they show, then let the engine end the game.
        let j = i;
        while (j < evs.length && (evs[j]!.kind === 'end-rack-points' || evs[j]!.kind === 'end-rack-penalty')) {
          const e = evs[j]! as Extract<GcgEvent, { kind: 'end-rack-points' | 'end-rack-penalty' }>;
          const tiles = tilesOf(e.tiles);
          if (tiles === null) return stop(ruleError('BAD_RACK', `"${e.tiles}" is not a rack.`), e, j + 1);
          if (e.kind === 'end-rack-penalty') {
            const own = tilesOf(e.rack);
            if (own && own.length && !sameTiles(own, tiles)) {
              return stop(
                ruleError(
                  'PENALTY_RACK_MISMATCH',
                  `${nicks[e.player]}'s rack ${e.rack} differs from the tiles ${e.tiles} counted against it.`,
                  {},
                  GCG('§3 row 8'),
                ),
                e,
                j + 1,
              );
            }
          }
          const holder: Seat = e.kind === 'end-rack-points' ? other(e.player) : e.player;
          const r = reveal(holder, tiles);
          if (!r.ok) return stop(r.error, e, j + 1);
          j++;
        }
        // A play-out is usually followed directly by the points line: the final pass is implied.
        if (st().status === 'waiting-final' && st().pending && !st().pending!.challenged) {
          const r = run({ kind: 'pass', seat: st().turn });
          if (r.ok) applyHeld(r.value);
        }
        if (!endDue || endIfOver(st(), null) === null) {
          return stop(
            ruleError(
              'END_GAME_EVENT_BEFORE_GAME_END',
              `The record counts end-of-game racks, but the game has not ended: ${st().status === 'waiting-final' ? 'the out play is pending' : 'no one has gone out and no ending rule applies'}.`,
              {},
              GCG('§3 rows 7–8'),
            ),
            ev,
            turn,
          );
        }
        const done = finishGame();
        if (!done.ok) return stop(done.error, ev, turn);
        endDue = false;
      }
      const endEv = ev as Extract<GcgEvent, { kind: 'end-rack-points' | 'end-rack-penalty' }>;
      const end = st().result!;
      const kind: Adjustment['kind'] = ev.kind === 'end-rack-points' ? 'opponent-rack' : 'own-rack';
      const adj = end.adjustments.find((a) => a.seat === seat && a.kind === kind);
      const code = ev.kind === 'end-rack-points' ? 'END_RACK_POINTS_INCORRECT' : 'END_RACK_PENALTY_INCORRECT';
      if (!adj) {
        mismatch(
          ev,
          turn,
          code,
          ev.score,
          0,
          `the engine makes no ${kind === 'opponent-rack' ? 'going-out award' : 'rack deduction'} for ${nicks[seat]} (${end.reason}).`,
        );
        scoreDrift[seat] += ev.score;
      } else if (adj.points !== ev.score) {
        mismatch(
          ev,
          turn,
          code,
          ev.score,
          adj.points,
          `${ev.kind === 'end-rack-points' ? 'going out earns' : 'the rack left costs'} ${adj.points} (${rules.end.goingOut === 'double-opponent-rack' && kind === 'opponent-rack' ? '2×' : '1×'} ${endEv.tiles}), not ${ev.score}.`,
        );
        scoreDrift[seat] += ev.score - adj.points;
      }
      checkCumulative(ev, turn, st().scores[seat]);
      continue;
    }

    // Time penalty: only at the end of the game.
    if (s.status !== 'ended') {
      if (!endDue)
        return stop(
          ruleError(
            'END_GAME_EVENT_BEFORE_GAME_END',
            `A time penalty for ${nicks[seat]} comes before the game has ended.`,
            {},
            GCG('§3 row 9'),
          ),
          ev,
          turn,
        );
      const done = finishGame();
      if (!done.ok) return stop(done.error, ev, turn);
      endDue = false;
    }
    const r = push([{ type: 'time-penalty', seat, points: -ev.score }]);
    if (!r.ok) return stop(r.error, ev, turn);
    checkCumulative(ev, turn, st().scores[seat]);
  }

  // `#rack1` / `#rack2`: the last known racks of an unfinished record must be drawable too.
  for (const seat of [0, 1] as const) {
    const last = doc.lastRacks[seat];
    if (!last) continue;
    const tiles = tilesOf(last.rack);
    if (tiles === null) continue;
    const r = reveal(seat, tiles);
    if (!r.ok) {
      errors.push({ code: r.error.code, message: `Line ${last.line}: ${r.error.message}`, line: last.line, turn: null });
      return report(state);
    }
  }
  // A record that stops once the game is over without the end lines: the engine ends it.
  if (endDue && st().status !== 'ended' && !doc.incomplete && !doc.lastRacks.some((r) => r)) {
    const done = finishGame();
    if (!done.ok) errors.push({ code: done.error.code, message: done.error.message, line: null, turn: null });
  }
  return report(state);
}
