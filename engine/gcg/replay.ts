import { other, type Seat } from '../game/events.js';
import { lexiconLanguage } from '../lexicon/languages.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { NSA_2008 } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { DISTRIBUTIONS } from '../tiles.js';
import type { GcgDocument, GcgEvent } from './document.js';
import { inferRules } from './infer-rules.js';
import { tilesOf } from './rack-text.js';
import { distributionPragma } from './tile-set.js';
import { LINE_HANDLERS, type LineHandler } from './replay-lines.js';
import type { ReplayOptions, ReplayReport } from './replay-report.js';
import { ReplaySession } from './replay-session.js';

/**
 * GCG replay (issue 2, through the game state machine of issue 3): a parsed record becomes the
 * events of an imported game, folded by the same `decide`/`apply` that referee live games, and
 * every recorded score, running total and end-of-game adjustment is compared with the engine's.
 *
 * An imported game has no seed: the racks in the record are the known draws. A rack shown on a
 * line is revealed into the game (`rack-revealed`), which checks it could have been drawn from the
 * tiles not yet seen; the opponent's rack stays unknown between its own lines. Each kind of line
 * has its handler (`replay-lines.ts`, `replay-move.ts`); the findings gather in a `ReplaySession`.
 */

export type { ReplayErrorItem, ReplayMismatch, ReplayOptions, ReplayReport, ReplayWarning, ReplayWarningCode } from './replay-report.js';
export { REPLAY_WARNING_CODES } from './replay-report.js';
export { inferRules } from './infer-rules.js';
export { chooseTileSet } from './tile-set.js';

/** The imported game's opening: created with the inferred rules, then a full rack of unseen tiles to each player. */
const openGame = (r: ReplaySession): void => {
  const { doc, rules, lexicon, nicks } = r;
  const firstSeat: Seat = doc.events[0]?.player ?? 0;
  r.push([
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
};

/** After the last line: `#rack1` / `#rack2` must be drawable, and a finished record without end lines is ended by the engine. */
const closeGame = (r: ReplaySession): ReplayReport => {
  const { doc } = r;
  // `#rack1` / `#rack2`: the last known racks of an unfinished record must be drawable too.
  for (const seat of [0, 1] as const) {
    const last = doc.lastRacks[seat];
    if (!last) continue;
    const tiles = tilesOf(last.rack);
    if (tiles === null) continue;
    const shown = r.reveal(seat, tiles);
    if (!shown.ok) {
      r.errors.push({ code: shown.error.code, message: `Line ${last.line}: ${shown.error.message}`, line: last.line, turn: null });
      return r.report();
    }
  }
  // A record that stops once the game is over without the end lines: the engine ends it.
  if (r.endDue && r.st.status !== 'ended' && !doc.incomplete && !doc.lastRacks.some((l) => l)) {
    const done = r.finishGame();
    if (!done.ok) r.errors.push({ code: done.error.code, message: done.error.message, line: null, turn: null });
  }
  return r.report();
};

const variantPragmaLine = (doc: GcgDocument): number | undefined =>
  doc.pragmas.find((p) => p.keyword === 'game-type' || p.keyword === 'board-layout')?.line;

/** The lexicon that judges the words: the one given, unless its name says it is in another language than the tile set. */
const lexiconFor = (lexicon: Lexicon | null, rules: RuleSet): { lexicon: Lexicon | null; setAside: string | null } => {
  if (!lexicon) return { lexicon: null, setAside: null };
  const language = lexiconLanguage(lexicon.name);
  const tiles = DISTRIBUTIONS[rules.board.distribution];
  if (language === undefined || !tiles || tiles.language === language) return { lexicon, setAside: null };
  return {
    lexicon: null,
    setAside: `${lexicon.name} is a word list in "${language}", the record is played with the ${tiles.name} tiles ("${tiles.language}"): words are not checked, placement and scores are.`,
  };
};

/** Replays a parsed record; see the module comment. */
export function replayGcg(doc: GcgDocument, options: ReplayOptions = {}): ReplayReport {
  const inferred = inferRules(doc, options.tileSet);
  const rules = inferred.ok ? inferred.value : NSA_2008;
  const judge = lexiconFor(options.lexicon ?? null, rules);
  const r = new ReplaySession(doc, rules, judge.lexicon, judge.setAside);
  if (!inferred.ok) {
    // An unknown set named by the caller has no line; one named by the record has its pragma's.
    const byDistribution = inferred.error.details?.distribution !== undefined;
    const line = byDistribution ? (options.tileSet ? undefined : distributionPragma(doc)?.pragma.line) : variantPragmaLine(doc);
    r.errors.push({ code: inferred.error.code, message: inferred.error.message, line: line ?? null, turn: null });
    return r.report();
  }
  openGame(r);
  for (let i = 0; i < doc.events.length; i++) {
    const ev = doc.events[i]!;
    // The table's type ties each handler to its own kind of line; TypeScript cannot see that through the lookup.
    const stopped = (LINE_HANDLERS[ev.kind] as LineHandler<GcgEvent['kind']>)(r, ev, i);
    if (stopped) return stopped;
    r.recordTotals[ev.player] = ev.cumulative;
  }
  return closeGame(r);
}
