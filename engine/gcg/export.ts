import { formatSquare, startSquare, type Layout } from '../board.js';
import { hashOf } from '../layout.js';
import { apply } from '../game/apply.js';
import type { GameCreated, GameEnded, GameEvent, RulingApplied, Seat } from '../game/events.js';
import type { GameState } from '../game/state.js';
import { parseMove, type Move } from '../move.js';
import { joinTiles } from '../tiles.js';
import type { GcgDocument, GcgEvent, GcgPragma } from './document.js';

/**
 * A game's event log as a GCG record (reference/gcg-format.md): the inverse of `replayGcg` for the
 * turns a record can show. Pure: the caller says who is asking, and racks follow the rules of
 * hidden information (issue 3, issue 4): before the game has ended a line shows the rack only for
 * the viewer's own turns (and `#rackN` only for the viewer's seat); after the end every rack is
 * shown, and the revealed bag seed is written as the `#bag-seed` pragma. Draws are never written.
 *
 * Turns map to lines as a score sheet shows them: a play, an exchange (`-ABC`, or `-N` when the
 * tiles are not the viewer's to see), a pass; a turn lost to an unsuccessful double challenge is
 * written as a pass (GCG has no token for it, and it counts as one); `--` for a withdrawn phony;
 * `(challenge) +N` for challenge points; `(time)`; the end-of-game rack lines.
 */
export interface GcgExportOptions {
  /** The seat asking (its own racks are shown); null for a spectator. */
  readonly viewer: Seat | null;
  /** The log is an over-the-board game recorded live (its bag unknown, as an import's, but its racks as hidden as a played game's). */
  readonly recorded?: boolean;
  /** Written as `#id arbiter <gameId>`. */
  readonly gameId?: string;
  /** Nickname and display name by seat, when the log's are out of date (the players table is the truth). */
  readonly players?: readonly [GcgExportPlayer, GcgExportPlayer];
}

export interface GcgExportPlayer {
  readonly nickname: string;
  readonly name: string;
}

const NICK_UNSAFE = /[\s:]/g;

/** One token per player (gcg §2: no spaces or colons), distinct. */
const nicknames = (players: readonly [string, string]): [string, string] => {
  const a = players[0].replace(NICK_UNSAFE, '_') || 'player1';
  const b = players[1].replace(NICK_UNSAFE, '_') || 'player2';
  return a === b ? [`${a}_1`, `${b}_2`] : [a, b];
};

const moveOf = (notation: string): Move => {
  const m = parseMove(notation);
  // The log's notation was written by formatMove; a failure here is a corrupt log.
  if (!m.ok) throw new Error(`gameToGcg: the logged move "${notation}" does not parse: ${m.error.message}`);
  return m.value;
};

/** Folds the log, keeping the state before each event (throws on a log the fold rejects: a broken invariant). */
const statesOf = (events: readonly GameEvent[]): GameState[] => {
  const out: GameState[] = [];
  let s: GameState | null = null;
  for (const e of events) {
    const r = apply(s, e);
    if (!r.ok) throw new Error(`gameToGcg: event ${out.length} (${e.type}) does not apply: ${r.error.message}`);
    s = r.value;
    out.push(s);
  }
  return out;
};

/** What the viewer may see of the record: whose racks are shown, and the players' display names. */
interface ExportView {
  readonly shows: (seat: Seat) => boolean;
  readonly names: readonly [string, string];
}

/** The fields every line has; the rack only when the viewer may see it. */
const lineBase = (view: ExportView, seat: Seat, rack: readonly string[] | null, score: number, after: GameState) => ({
  line: 0,
  player: seat,
  rack: rack && view.shows(seat) ? joinTiles(rack) : '',
  score,
  cumulative: after.scores[seat],
  annotation: '',
  notes: [] as readonly string[],
});

/** The end-of-game rack lines, the last noting who lost when the game was lost rather than played out. */
const endLines = (view: ExportView, e: GameEnded, after: GameState, out: GcgEvent[]): void => {
  for (const a of e.adjustments) {
    const tiles = joinTiles(a.tiles);
    if (a.kind === 'opponent-rack') out.push({ ...lineBase(view, a.seat, null, a.points, after), kind: 'end-rack-points', tiles });
    else out.push({ ...lineBase(view, a.seat, null, a.points, after), rack: tiles, kind: 'end-rack-penalty', tiles });
  }
  const last = out[out.length - 1];
  if (last && e.loser !== null)
    out[out.length - 1] = { ...last, notes: [...last.notes, `${view.names[e.loser]} lost the game (${e.reason}).`] };
};

/**
 * A ruling's lines: one `(ruling) ±N` line per score change, each with a `#note` naming the ruling (and
 * its dispute); a ruling that changes no score is a note on the line before it.
 */
const rulingLines = (view: ExportView, e: RulingApplied, after: GameState, out: GcgEvent[]): GcgEvent[] => {
  const note = `ruling ${e.ruling}${e.dispute === undefined ? '' : ` (dispute ${e.dispute})`}: ${e.note}`;
  if (e.scoreChanges.length === 0) {
    const last = out[out.length - 1];
    if (last) out[out.length - 1] = { ...last, notes: [...last.notes, note] };
    return [];
  }
  // Each line's running total is the seat's score after the changes up to it.
  const running: [number, number] = [after.scores[0], after.scores[1]];
  const lines = [...e.scoreChanges].reverse().map((c) => {
    const line = {
      ...lineBase(view, c.seat, null, c.points, after),
      cumulative: running[c.seat],
      kind: 'ruling-adjustment' as const,
      notes: [note],
    };
    running[c.seat] -= c.points;
    return line;
  });
  return lines.reverse();
};

/** The record's lines, one per turn-like event (see the module comment); `states[i]` is the state after `events[i]`. */
const linesOf = (events: readonly GameEvent[], states: readonly GameState[], view: ExportView): GcgEvent[] => {
  const out: GcgEvent[] = [];
  /** The rack each seat's last play was made from (for the `--` line). */
  const playedFrom: [readonly string[], readonly string[]] = [[], []];
  events.forEach((e, i) => {
    const before = i === 0 ? null : states[i - 1]!;
    const after = states[i]!;
    if (!before) return;
    const base = (seat: Seat, rack: readonly string[] | null, score: number) => lineBase(view, seat, rack, score, after);
    switch (e.type) {
      case 'play': {
        const rack = before.racks[e.seat].tiles;
        playedFrom[e.seat] = rack;
        out.push({ ...base(e.seat, rack, e.score), kind: 'move', move: moveOf(e.move) });
        return;
      }
      case 'exchange': {
        const seen = e.tiles !== null && view.shows(e.seat);
        const move: Move = { kind: 'exchange', tiles: seen ? e.tiles : null, count: e.count };
        out.push({ ...base(e.seat, before.racks[e.seat].tiles, 0), kind: 'move', move });
        return;
      }
      case 'pass':
      case 'turn-lost':
        out.push({ ...base(e.seat, before.racks[e.seat].tiles, 0), kind: 'move', move: { kind: 'pass' } });
        return;
      case 'phony-withdrawn':
        out.push({ ...base(e.seat, playedFrom[e.seat], -e.score), kind: 'phony-returned' });
        return;
      case 'challenge-points':
        out.push({ ...base(e.seat, null, e.points), kind: 'challenge-bonus' });
        return;
      case 'time-penalty':
        out.push({ ...base(e.seat, null, -e.points), kind: 'time-penalty' });
        return;
      case 'ruling-applied':
        out.push(...rulingLines(view, e, after, out));
        return;
      case 'game-ended':
        endLines(view, e, after, out);
        return;
      default:
        return;
    }
  });
  return out;
};

/**
 * A board given as data (issue 21), which no other program knows by name: its start square, its hash and
 * its rows (plain squares as `.`, so no row starts or ends with a space a reader would trim), one pragma each.
 */
export const customLayoutPragmas = (layout: Layout): [string, string][] => [
  ['board-start', formatSquare(startSquare(layout))],
  ['board-hash', hashOf(layout)],
  ...layout.rows.map((r): [string, string] => ['board-row', r.replace(/ /g, '.')]),
];

/** The header pragmas: the game's identity, lexicon, board and tiles when not the defaults, rule set, and the bag's commitment (and seed once revealed). */
const headerPragmas = (created: GameCreated, final: GameState, options: GcgExportOptions): GcgPragma[] => {
  const pragmas: GcgPragma[] = [];
  const pragma = (keyword: string, value: string) => pragmas.push({ keyword, value, line: 0 });
  if (options.gameId) pragma('id', `arbiter ${options.gameId}`);
  if (created.lexicon) pragma('lexicon', created.lexicon.name);
  if (created.rules.board.layout !== 'CrosswordGame') pragma('board-layout', created.rules.board.layout);
  if (created.layout) for (const [keyword, value] of customLayoutPragmas(created.layout)) pragma(keyword, value);
  if (created.rules.board.distribution !== 'english') pragma('tile-distribution', created.rules.board.distribution);
  pragma('rule-set', created.rules.id);
  if (created.bag.kind === 'seeded') pragma('bag-commitment', created.bag.commitment);
  if (final.status === 'ended' && final.result?.seed) pragma('bag-seed', final.result.seed);
  return pragmas;
};

/** The GCG syntax tree of a game log, as `options.viewer` may see it (see the module comment). */
export function gameToGcg(events: readonly GameEvent[], options: GcgExportOptions): GcgDocument {
  const created = events[0];
  if (!created || created.type !== 'game-created') throw new Error('gameToGcg: the log does not start with game-created');
  const states = statesOf(events);
  const final = states[states.length - 1]!;
  const ended = final.status === 'ended';
  // A record's racks were public where it came from; a game recorded live here keeps them hidden until the end, as a played one does.
  const imported = created.bag.kind === 'imported' && !options.recorded;
  const shows = (seat: Seat): boolean => ended || imported || options.viewer === seat;
  const who = (seat: Seat): GcgExportPlayer => {
    const p = created.players[seat];
    return options.players?.[seat] ?? { nickname: p.id ?? p.name, name: p.name };
  };
  const names = [who(0).name, who(1).name] as const;
  const nicks = nicknames([who(0).nickname, who(1).nickname]);
  const lastRack = (seat: Seat) =>
    !ended && shows(seat) && final.racks[seat].tiles.length > 0 ? { rack: joinTiles(final.racks[seat].tiles), line: 0 } : null;
  return {
    players: [
      { nickname: nicks[0], name: names[0], line: 0 },
      { nickname: nicks[1], name: names[1], line: 0 },
    ],
    pragmas: headerPragmas(created, final, options),
    events: linesOf(events, states, { shows, names }),
    lastRacks: [lastRack(0), lastRack(1)],
    incomplete: null,
  };
}
