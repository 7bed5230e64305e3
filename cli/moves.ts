/**
 * `arbiter moves (--cgp LINE | FILE.gcg --turn N) [--lexicon NAME] [--top N] [--json]`: the best
 * moves of a position by equity (issue 19), from a CGP line or before a move of a GCG record, with
 * the rank of the move the record made there. Exit codes: 0 listed, 2 bad input or no such lexicon.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';
import { analyzePosition, decisionPoints, type MadeMove, type RankedMove } from '../engine/movegen/analysis.js';
import { cgpFromState, cgpOperand, parseCgp, positionFromCgp } from '../engine/movegen/cgp.js';
import { positionFromState, type Position } from '../engine/movegen/position.js';
import { joinTiles } from '../engine/tiles.js';
import { loadKwg } from '../store/lexicon-files.js';
import type { CliIo } from './io.js';

export const USAGE = `usage: arbiter moves (--cgp LINE | FILE.gcg --turn N) [--lexicon NAME] [--top N] [--json]
  Lists the best moves of a position by equity (score + leave value): a CGP line, or a GCG record
  before its move N (1 = the first move with a known rack), with the rank of the move made there.
  The lexicon: --lexicon, else the CGP's "lex", else SOWPODS. Needs the KWG (npm run lexicons).
  Exit codes: 0 listed, 2 bad input or no such lexicon.`;

interface Source {
  readonly cgp: string;
  readonly position: Position;
  readonly made: MadeMove | null;
  readonly lexicon: string | undefined;
}

const fromGcg = (file: string, turn: number): Source | string => {
  const doc = parseGcg(readFileSync(file));
  if (!doc.ok) return `${file}:${doc.error.line}: ${doc.error.message}`;
  const points = decisionPoints(replayGcg(doc.value).events);
  const p = points[turn - 1];
  if (!p) return `--turn must be from 1 to ${points.length} (the record's moves with a known rack)`;
  return {
    cgp: cgpFromState({ ...p.state, turn: p.seat }, [p.seat]),
    position: positionFromState(p.state, p.seat),
    made: p.made,
    lexicon: undefined,
  };
};

const fromCgp = (line: string): Source | string => {
  const cgp = parseCgp(line);
  if (!cgp.ok) return cgp.error.message;
  return { cgp: line.trim(), position: positionFromCgp(cgp.value), made: null, lexicon: cgpOperand(cgp.value, 'lex') };
};

const moveJson = (m: RankedMove) => ({
  rank: m.rank,
  kind: m.kind,
  notation: m.notation,
  score: m.score,
  leave: joinTiles(m.leave),
  equity: Math.round(m.equity * 100) / 100,
});

export async function run(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        cgp: { type: 'string' },
        turn: { type: 'string' },
        lexicon: { type: 'string' },
        top: { type: 'string', default: '10' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const top = Number(values.top);
  const file = positionals[0];
  if (!Number.isInteger(top) || top < 1 || (values.cgp === undefined) === (file === undefined) || (file && !values.turn)) {
    io.err(USAGE);
    return 2;
  }
  const source = values.cgp !== undefined ? fromCgp(values.cgp) : fromGcg(file!, Number(values.turn));
  if (typeof source === 'string') {
    io.err(`arbiter moves: ${source}`);
    return 2;
  }
  const kwg = loadKwg({ name: values.lexicon ?? source.lexicon ?? 'SOWPODS' });
  if (!kwg.ok) {
    io.err(`arbiter moves: ${kwg.error.message}`);
    return 2;
  }
  const a = analyzePosition(source.position, kwg.value.kwg, { top, made: source.made });
  if (values.json) {
    const made = a.made ? moveJson(a.made) : null;
    io.out(JSON.stringify({ cgp: source.cgp, moveCount: a.moveCount, moves: a.top.map(moveJson), played: made }, null, 2));
    return 0;
  }
  io.out(`${a.moveCount} moves; the best ${a.top.length} by equity:`);
  for (const m of a.top.map(moveJson))
    io.out(`${String(m.rank).padStart(4)}  ${m.notation.padEnd(20)} ${String(m.score).padStart(4)}  ${m.leave.padEnd(7)} ${m.equity}`);
  if (a.made) io.out(`Played: ${a.made.notation} (rank ${a.made.rank} of ${a.moveCount}, ${moveJson(a.made).equity}).`);
  return 0;
}
