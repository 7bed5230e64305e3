/**
 * `arbiter render FILE.gcg [--turn N] [--player 1|2] -o OUT.(svg|png|gif)`: draws a GCG record's board
 * (issue 20). The record is replayed through the engine (engine/gcg/replay.ts), and the picture is the
 * position after N score-sheet lines (0 = the start; default: the end), as render/ draws an engine view.
 * A .gif is the whole game, one frame per line. Exit codes: 0 written, 1 the record does not replay,
 * 2 bad arguments or an unreadable file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { turnViews, type TurnView } from '../engine/game/turn-views.js';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';
import { DISTRIBUTIONS } from '../engine/tiles.js';
import { renderBoardSvg, replayFrames, replayGif, svgToPng } from '../render/index.js';
import type { CliIo } from './io.js';

export const USAGE = `usage: arbiter render FILE.gcg [--turn N] [--player 1|2] [--width PX] -o OUT.svg|OUT.png|OUT.gif
  Draws the board of a GCG record after N lines of its score sheet (0 = before the first move;
  default: the end of the game). The output's extension chooses the format: .svg, .png, or .gif
  for an animated replay of the whole game (one frame per line; --turn is then ignored).
  --player 1|2 shows that player's rack as the record gives it; by default no rack is shown.
  Exit codes: 0 written, 1 the record does not replay, 2 bad arguments or an unreadable file.`;

const FORMATS = ['.svg', '.png', '.gif'] as const;
type Format = (typeof FORMATS)[number];

interface Options {
  readonly file: string;
  readonly out: string;
  readonly format: Format;
  readonly turn: number | null;
  readonly player: 0 | 1 | null;
  readonly width: number | null;
}

const wholeNumber = (text: string | undefined, name: string, min: number): number | null | string => {
  if (text === undefined) return null;
  return /^\d+$/.test(text) && Number(text) >= min ? Number(text) : `--${name} must be a whole number of at least ${min}, not "${text}"`;
};

/** The options, or the sentence that says what is wrong with them. */
const options = (args: string[]): Options | string | 'help' => {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        turn: { type: 'string' },
        player: { type: 'string' },
        width: { type: 'string' },
        out: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return (e as Error).message;
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) return 'give one GCG file';
  if (!values.out) return 'give the output file with -o OUT.svg, OUT.png or OUT.gif';
  const format = extname(values.out).toLowerCase() as Format;
  if (!FORMATS.includes(format)) return `the output must end in .svg, .png or .gif, not "${values.out}"`;
  const turn = wholeNumber(values.turn, 'turn', 0);
  const width = wholeNumber(values.width, 'width', 16);
  if (typeof turn === 'string') return turn;
  if (typeof width === 'string') return width;
  if (values.player !== undefined && values.player !== '1' && values.player !== '2')
    return `--player must be 1 or 2, not "${values.player}"`;
  const player = values.player === undefined ? null : values.player === '1' ? 0 : 1;
  return { file: positionals[0]!, out: values.out, format, turn, player, width };
};

/** The positions of the record as `player` (or a spectator) saw them, or why there are none. */
const positions = (o: Options, io: CliIo): { turns: TurnView[]; distribution: string } | 1 | 2 => {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(o.file);
  } catch (e) {
    io.err(`arbiter render: cannot read ${o.file}: ${(e as Error).message}`);
    return 2;
  }
  const doc = parseGcg(bytes);
  if (!doc.ok) {
    io.err(`arbiter render: ${o.file}: ${doc.error.message} [${doc.error.code}]`);
    return 2;
  }
  const report = replayGcg(doc.value);
  const turns = turnViews(report.events, o.player);
  for (const e of report.errors) io.err(`arbiter render: ${e.message} [${e.code}]`);
  if (report.errors.length > 0 || !turns.ok || turns.value.length === 0) return 1;
  return { turns: turns.value, distribution: report.rules.board.distribution };
};

export async function run(args: string[], io: CliIo): Promise<number> {
  const o = options(args);
  if (o === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (typeof o === 'string') {
    io.err(`arbiter render: ${o}\n${USAGE}`);
    return 2;
  }
  const got = positions(o, io);
  if (typeof got === 'number') return got;
  const distribution = DISTRIBUTIONS[got.distribution]!;
  const { turns } = got;
  const lines = turns.length - 1;
  if (o.turn !== null && o.turn > lines) {
    io.err(`arbiter render: the record has ${lines} lines on its score sheet; --turn goes from 0 to ${lines}`);
    return 2;
  }
  const raster = o.width === null ? {} : { width: o.width };
  let bytes: Uint8Array | string;
  if (o.format === '.gif') bytes = await replayGif(replayFrames(turns, distribution), { width: 480, ...raster });
  else {
    const svg = renderBoardSvg({ view: turns[o.turn ?? lines]!.view, distribution });
    bytes = o.format === '.svg' ? svg : await svgToPng(svg, raster);
  }
  try {
    writeFileSync(o.out, bytes);
  } catch (e) {
    io.err(`arbiter render: cannot write ${o.out}: ${(e as Error).message}`);
    return 2;
  }
  const what = o.format === '.gif' ? `${turns.length} frames` : `the board after ${o.turn ?? lines} of ${lines} lines`;
  io.out(`wrote ${o.out}: ${what}`);
  return 0;
}
