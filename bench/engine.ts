/**
 * The rules engine on real games: validation + scoring of every play in the GCG corpus with the
 * SOWPODS lexicon (target ≥ 100,000 plays/s on one core), and whole-record GCG replay through the
 * game state machine (games/s). Each figure comes with a baseline measured in the same run — the
 * same words looked up in a plain `Set` — so it reads as a ratio too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';
import { apply } from '../engine/game/apply.js';
import type { GameState } from '../engine/game/state.js';
import { loadLexicon } from '../engine/lexicon/files.js';
import type { PlayMove } from '../engine/move.js';
import { parseMove } from '../engine/move.js';
import { checkPlay, type PlayContext } from '../engine/placement.js';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import type { BenchSection } from './types.js';

const PLAYS_TARGET = 100_000;
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'gcg', 'liwords');

const bestOf = (runs: number, f: () => void): number => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
};

export async function run(): Promise<BenchSection> {
  ensureShippedLexicons();
  const lexicon = loadLexicon('SOWPODS');
  if (!lexicon.ok) throw new Error(lexicon.error.message);
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.gcg')).map((f) => readFileSync(join(CORPUS, f)));

  // Every play of the corpus with the board and rack it was made from, taken from the replayed games.
  const plays: { ctx: PlayContext; move: PlayMove; words: string[] }[] = [];
  for (const bytes of files) {
    const doc = parseGcg(bytes);
    if (!doc.ok) continue;
    const report = replayGcg(doc.value);
    let state: GameState | null = null;
    for (const e of report.events) {
      if (e.type === 'play' && state) {
        const m = parseMove(e.move);
        if (m.ok && m.value.kind === 'play') {
          plays.push({
            ctx: { board: state.board, distribution: state.distribution, rack: state.racks[e.seat].tiles, lexicon: lexicon.value, requireValidWords: false },
            move: m.value,
            words: e.words.map((w) => w.word),
          });
        }
      }
      const r = apply(state, e);
      if (!r.ok) break;
      state = r.value;
    }
  }

  const rounds = 20;
  let sink = 0;
  const checkMs = bestOf(5, () => {
    for (let k = 0; k < rounds; k++) for (const p of plays) {
      const r = checkPlay(p.ctx, p.move);
      if (r.ok) sink += r.value.score;
    }
  });
  const set = new Set(plays.flatMap((p) => p.words));
  const setMs = bestOf(5, () => {
    for (let k = 0; k < rounds; k++) for (const p of plays) for (const w of p.words) if (set.has(w)) sink++;
  });
  const playsPerSec = (plays.length * rounds) / (checkMs / 1000);
  const setPlaysPerSec = (plays.length * rounds) / (setMs / 1000);

  const replayRounds = 5;
  const replayMs = bestOf(3, () => {
    for (let k = 0; k < replayRounds; k++) for (const bytes of files) {
      const doc = parseGcg(bytes);
      if (doc.ok) sink += replayGcg(doc.value).moves;
    }
  });
  const parseMs = bestOf(3, () => {
    for (let k = 0; k < replayRounds; k++) for (const bytes of files) if (parseGcg(bytes).ok) sink++;
  });
  const gamesPerSec = (files.length * replayRounds) / (replayMs / 1000);
  const parsePerSec = (files.length * replayRounds) / (parseMs / 1000);
  if (sink === -1) console.log(sink);

  return {
    title: 'Rules engine (placement, scoring, game replay)',
    rows: [
      { metric: 'plays validated and scored (SOWPODS)', value: Math.round(playsPerSec), unit: 'plays/s', target: `≥ ${PLAYS_TARGET.toLocaleString('en-US')} plays/s`, met: playsPerSec >= PLAYS_TARGET },
      { metric: 'baseline: the same plays\' words looked up in a Set', value: Math.round(setPlaysPerSec), unit: 'plays/s' },
      { metric: 'validation+scoring cost relative to Set lookups', value: Number((setPlaysPerSec / playsPerSec).toFixed(1)), unit: '× slower' },
      { metric: 'GCG records parsed and replayed through the state machine', value: Math.round(gamesPerSec), unit: 'games/s' },
      { metric: 'baseline: GCG records parsed only', value: Math.round(parsePerSec), unit: 'games/s' },
    ],
    notes: [
      `${plays.length} plays from ${files.length} liwords records, ${rounds} passes, best of 5; one core.`,
      'Replay = parse + events + fold with every score, rack and running total checked (no lexicon).',
    ],
  };
}
