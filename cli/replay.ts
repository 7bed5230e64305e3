/**
 * `arbiter replay FILE.gcg [--lexicon NAME] [--json]`: replays a GCG record through the game
 * engine and checks every move score, running total and end-of-game adjustment (issue 2).
 * Exit codes: 0 the record agrees with the rules, 1 it disagrees, 2 it cannot be read or parsed.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg, type ReplayReport } from '../engine/gcg/replay.js';
import { loadLexicon } from '../store/lexicon-files.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import type { CliIo } from './io.js';

export const USAGE = `usage: arbiter replay FILE.gcg [--lexicon NAME] [--tile-set ID] [--json]
  Replays a GCG record and checks every score against the rules. Without --lexicon only the
  geometry and the scores are checked; with it, words not in the lexicon are listed (a lexicon in
  another language than the record's tiles is set aside). --tile-set (english, french, german,
  spanish, catalan, polish, norwegian, dutch, slovene, italian, english_super) overrides the set
  the record names or implies.
  Exit codes: 0 the record agrees with the rules, 1 it disagrees, 2 the file cannot be parsed.`;

/** The `--json` object (issue 2), plus the game's result. */
export const jsonReport = (r: ReplayReport) => ({
  ok: r.ok,
  moves: r.moves,
  mismatches: r.mismatches.map((m) => ({
    turn: m.turn,
    player: m.player,
    expected: m.expected,
    actual: m.actual,
    reason: m.reason,
    code: m.code,
    line: m.line,
  })),
  finalScores: r.finalScores,
  errors: r.errors.map((e) => ({ code: e.code, message: e.message, line: e.line })),
  complete: r.complete,
  result: r.result,
  tileSet: r.tileSet,
  wordsJudgedBy: r.wordsJudgedBy,
  phonies: r.phonies,
  warnings: r.warnings,
});

const describeResult = (r: ReplayReport): string => {
  if (!r.complete || !r.result) return 'Result: the record is incomplete (the game has not ended).';
  const reason = {
    'went-out': 'a player went out',
    'scoreless-turns': 'six scoreless turns',
    'consecutive-exchanges': 'consecutive exchanges',
    resigned: 'resignation',
    'timed-out': 'timeout',
    forfeited: 'forfeit',
    'challenge-lost': 'a lost challenge',
    ruling: 'a ruling',
    aborted: 'an abort',
  }[r.result.reason];
  return r.result.winner ? `Result: ${r.result.winner} wins (${reason}).` : `Result: a tie (${reason}).`;
};

export async function run(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        lexicon: { type: 'string' },
        'tile-set': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.err(`arbiter replay: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    io.err(`arbiter replay: give one GCG file\n${USAGE}`);
    return 2;
  }
  const file = positionals[0]!;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    io.err(`arbiter replay: cannot read ${file}: ${(e as Error).message}`);
    return 2;
  }
  let lexicon: Lexicon | null = null;
  if (values.lexicon !== undefined) {
    const lx = loadLexicon(values.lexicon);
    if (!lx.ok) {
      io.err(`arbiter replay: ${lx.error.message} [${lx.error.code}]`);
      return 2;
    }
    lexicon = lx.value;
  }
  const doc = parseGcg(bytes);
  if (!doc.ok) {
    if (values.json) {
      io.out(
        JSON.stringify({
          ok: false,
          moves: 0,
          mismatches: [],
          finalScores: {},
          errors: [{ code: doc.error.code, message: doc.error.message, line: doc.error.line }],
        }),
      );
    } else {
      io.err(`arbiter replay: ${file}: ${doc.error.message} [${doc.error.code}]`);
    }
    return 2;
  }
  const report = replayGcg(doc.value, { lexicon, tileSet: values['tile-set'] ?? null });
  if (values.json) {
    io.out(JSON.stringify(jsonReport(report)));
  } else {
    for (const m of report.mismatches) io.out(`${m.reason} [${m.code}: record ${m.expected}, engine ${m.actual}]`);
    for (const e of report.errors) io.out(`${e.message} [${e.code}]`);
    for (const p of report.phonies) io.out(`Turn ${p.turn}: ${p.player} played ${p.words.join(', ')}, not in ${lexicon?.name}.`);
    for (const w of report.warnings) io.out(`note: ${w.message} [${w.code}]`);
    if (report.lexiconSetAside) io.out(`note: ${report.lexiconSetAside}`);
    io.out(
      `${report.moves} moves; final scores: ${Object.entries(report.finalScores)
        .map(([n, s]) => `${n} ${s}`)
        .join(', ')}.`,
    );
    io.out(describeResult(report));
    io.out(
      report.ok
        ? 'OK: the record agrees with the rules.'
        : `The record disagrees with the rules (${report.mismatches.length} mismatch${report.mismatches.length === 1 ? '' : 'es'}, ${report.errors.length} error${report.errors.length === 1 ? '' : 's'}).`,
    );
  }
  return report.ok ? 0 : 1;
}
