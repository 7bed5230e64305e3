/**
 * Real positions for the move generator's tests and bench: every turn of the GCG records in
 * test/fixtures/gcg/liwords whose mover's rack is fully known, replayed through the engine (GCG
 * replay, then the events folded with `apply`), with the move actually made and its recorded score.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apply } from '../../engine/game/apply.js';
import type { GameState } from '../../engine/game/state.js';
import { parseGcg } from '../../engine/gcg/index.js';
import { replayGcg } from '../../engine/gcg/replay.js';
import { loadKwg, loadLexicon } from '../../store/lexicon-files.js';
import { ensureShippedKwgs, shippedSourcePath } from '../../scripts/build-lexicons.js';
import type { Kwg } from '../../engine/lexicon/kwg.js';
import type { GraphLexicon } from '../../engine/lexicon/graph.js';

export const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'gcg', 'liwords');

export interface RealPosition {
  readonly game: string;
  /** 0-based index of the turn in the game's events. */
  readonly turn: number;
  readonly state: GameState;
  readonly seat: 0 | 1;
  /** The move made here, as notation, and its recorded score (plays only). */
  readonly made: { readonly kind: 'play' | 'exchange' | 'pass'; readonly move: string; readonly score: number };
}

/** Every decision point of the corpus with a fully known rack, in file order. */
export const realPositions = (): RealPosition[] => {
  const out: RealPosition[] = [];
  for (const f of readdirSync(CORPUS)
    .filter((x) => x.endsWith('.gcg'))
    .sort()) {
    const doc = parseGcg(readFileSync(join(CORPUS, f)));
    if (!doc.ok) continue;
    const report = replayGcg(doc.value);
    let state: GameState | null = null;
    let turn = 0;
    for (const e of report.events) {
      if ((e.type === 'play' || e.type === 'exchange' || e.type === 'pass') && state && state.status === 'playing') {
        const rack = state.racks[e.seat];
        if (rack.hidden === 0 && rack.tiles.length > 0) {
          const made =
            e.type === 'play'
              ? { kind: 'play' as const, move: e.move, score: e.score }
              : { kind: e.type, move: e.type === 'pass' ? '-' : 'exchange', score: 0 };
          out.push({ game: f, turn, state, seat: e.seat, made });
        }
        turn++;
      }
      const r = apply(state, e);
      if (!r.ok) break;
      state = r.value;
    }
  }
  return out;
};

let shipped: { kwg: Kwg; lexicon: GraphLexicon; words: string[] } | undefined;
/** SOWPODS three ways: the KWG (move generation), the referee's DAWG, and the plain word list. */
export const sowpods = (): { kwg: Kwg; lexicon: GraphLexicon; words: string[] } => {
  if (shipped) return shipped;
  ensureShippedKwgs();
  const kwg = loadKwg({ name: 'SOWPODS' });
  const lexicon = loadLexicon('SOWPODS');
  if (!kwg.ok) throw new Error(kwg.error.message);
  if (!lexicon.ok) throw new Error(lexicon.error.message);
  const words = readFileSync(shippedSourcePath('sowpods', 'SOWPODS.txt'), 'utf8')
    .split('\n')
    .map((w) => w.trim().toUpperCase())
    .filter(Boolean);
  shipped = { kwg: kwg.value.kwg, lexicon: lexicon.value, words };
  return shipped;
};
