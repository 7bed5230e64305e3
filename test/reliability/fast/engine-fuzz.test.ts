/**
 * Bad input at the engine (issue 6): fast-check feeds arbitrary and grammar-near strings to
 * parseMove, random boards / racks / moves to checkPlay, random and mutated corpus files to
 * parseGcg (and what parses to replayGcg), random JSON and mutated example disputes to
 * parseDispute (and what parses to adjudicate under every preset). Every call returns a Result —
 * never a throw — whose error has a code of the module's documented list and a message. The
 * seeds' disputes with impossible facts are refused with a message that names the fact.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it, test } from 'vitest';
import { adjudicate, DISPUTE_ERROR_CODES, parseDispute } from '../../../engine/adjudication/index.js';
import { verdictProblems } from '../../../engine/adjudication/consistency.js';
import { specOf } from '../../../engine/adjudication/kinds/index.js';
import { emptyBoard, STANDARD_LAYOUT, SUPER_LAYOUT, withTiles, type Board, type Layout } from '../../../engine/board.js';
import { GCG_ERROR_CODES, parseGcg, formatGcg } from '../../../engine/gcg/index.js';
import { replayGcg } from '../../../engine/gcg/replay.js';
import type { Lexicon } from '../../../engine/lexicon/lexicon.js';
import { formatMove, MOVE_ERROR_CODES, parseMove, parseRack, type PlayMove } from '../../../engine/move.js';
import { checkPlay, PLACEMENT_ERROR_CODES } from '../../../engine/placement.js';
import { PRESETS } from '../../../engine/rules/presets.js';
import { ENGLISH, ENGLISH_SUPER, SPANISH, type Distribution } from '../../../engine/tiles.js';
import { LEXICONS } from '../../api/harness.js';
import { recorder, runs } from '../summary.js';

const rec = recorder('engine-fuzz');
afterAll(() => rec.flush());

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

/** Runs a property and counts its inputs. */
const property = <T>(arb: fc.Arbitrary<T>, base: number, check: (value: T) => void) => {
  fc.assert(
    fc.property(arb, (v) => {
      rec.add('inputsTried');
      check(v);
    }),
    { numRuns: runs(base) },
  );
};

/** A refusal as the house writes them: a code from `codes`, a sentence, details. */
const expectTypedError = (e: { code: string; message: string; details?: unknown }, codes: readonly string[], what: string) => {
  expect(codes, `${what}: code ${e.code}`).toContain(e.code);
  expect(typeof e.message, what).toBe('string');
  expect(e.message.length, what).toBeGreaterThan(0);
};

// ---------------------------------------------------------------------------------------------
// Moves

const COORDS = fc.oneof(
  fc.tuple(fc.integer({ min: -1, max: 22 }), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabco@')).map(([r, c]) => `${r}${c}`),
  fc.tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabco@'), fc.integer({ min: -1, max: 22 })).map(([c, r]) => `${c}${r}`),
  fc.string({ maxLength: 4 }),
);
const WORD_CHARS = [...'AEIOUQXZSTRNLaeiqz.?[]CHLLRR- ', 'Ñ', 'ñ', '\u0000', '\u00a0'];
const moveNear = fc
  .tuple(COORDS, fc.constantFrom(' ', '  ', '\t', '', '\n'), fc.string({ unit: fc.constantFrom(...WORD_CHARS), maxLength: 20 }))
  .map(([c, s, w]) => `${c}${s}${w}`);
const exchangeNear = fc.string({ unit: fc.constantFrom(...'-ABCDEQZ?[]CH '), maxLength: 12 });
const anyMoveText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), moveNear, exchangeNear);

describe('parseMove', () => {
  it('returns a move or a typed error for any string, and what it parses formats back to the same move', () => {
    property(anyMoveText, 3000, (text) => {
      const r = parseMove(text);
      if (!r.ok) return expectTypedError(r.error, MOVE_ERROR_CODES, JSON.stringify(text));
      const again = parseMove(formatMove(r.value));
      expect(again, `${JSON.stringify(text)} → ${formatMove(r.value)}`).toEqual(r);
    });
  });

  it('parseRack returns tiles or a typed error for any string', () => {
    property(
      fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: fc.constantFrom(...'AEZ?[]CHLL ñ'), maxLength: 20 })),
      2000,
      (text) => {
        const r = parseRack(text);
        if (!r.ok) return expectTypedError(r.error, MOVE_ERROR_CODES, JSON.stringify(text));
        for (const t of r.value) expect(typeof t).toBe('string');
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// checkPlay

const SETUPS: readonly { layout: Layout; dist: Distribution }[] = [
  { layout: STANDARD_LAYOUT, dist: ENGLISH },
  { layout: SUPER_LAYOUT, dist: ENGLISH_SUPER },
  { layout: STANDARD_LAYOUT, dist: SPANISH },
];

const boardArb = (layout: Layout, dist: Distribution): fc.Arbitrary<Board> => {
  const n = layout.rows.length;
  const letters = dist.letters.map((k) => k.letter);
  return fc
    .uniqueArray(fc.record({ square: fc.nat({ max: n * n - 1 }), letter: fc.constantFrom(...letters), blank: fc.boolean() }), {
      selector: (t) => t.square,
      maxLength: 40,
    })
    .map((tiles) =>
      withTiles(
        emptyBoard(layout),
        tiles.map((t) => ({ row: Math.floor(t.square / n), col: t.square % n, letter: t.letter, blank: t.blank })),
      ),
    );
};

const playArb = fc.oneof(moveNear, fc.string({ maxLength: 20 })).chain((text) => {
  const m = parseMove(text);
  return m.ok && m.value.kind === 'play' ? fc.constant(m.value) : fc.constant(null);
});

describe('checkPlay', () => {
  it('judges any parsed play on a random board with a random rack: a scored play or a typed error', () => {
    const arb = fc
      .constantFrom(...SETUPS)
      .chain((s) =>
        fc.record({
          setup: fc.constant(s),
          board: boardArb(s.layout, s.dist),
          rack: fc.option(
            fc.array(fc.oneof(fc.constantFrom(...s.dist.letters.map((k) => k.letter), '?'), fc.string({ maxLength: 2 })), { maxLength: 9 }),
            { nil: undefined },
          ),
          move: playArb,
          words: fc.boolean(),
          lexicon: fc.boolean(),
        }),
      )
      .filter((x): x is typeof x & { move: PlayMove } => x.move !== null);
    property(arb, 3000, ({ setup, board, rack, move, words, lexicon }) => {
      const r = checkPlay(
        { board, distribution: setup.dist, ...(rack ? { rack } : {}), lexicon: lexicon ? LEX : null, requireValidWords: words },
        move,
      );
      const what = `${formatMove(move)} rack ${JSON.stringify(rack)}`;
      if (!r.ok) return expectTypedError(r.error, PLACEMENT_ERROR_CODES, what);
      const n = setup.layout.rows.length;
      expect(Number.isInteger(r.value.score) && r.value.score >= 0, what).toBe(true);
      expect(r.value.placements.length, what).toBeGreaterThan(0);
      for (const p of r.value.placements) {
        expect(p.row >= 0 && p.row < n && p.col >= 0 && p.col < n, what).toBe(true);
        expect(board.cells[p.row * n + p.col], `${what}: placed on an occupied square`).toBeNull();
      }
      if (rack) expect(r.value.rackAfter?.length, what).toBe(rack.length - r.value.placements.length);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// GCG

const gcgFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.gcg'))
    .map((f) => join(dir, f));
const CORPUS = [...gcgFiles(join(ROOT, 'test/fixtures/gcg/liwords')), ...gcgFiles(join(ROOT, 'test/fixtures/gcg/MAGPIE'))].map((f) =>
  readFileSync(f),
);

/** A corpus file with random byte edits, line deletions, duplications and swaps, or truncated. */
const mutatedGcg = fc
  .tuple(
    fc.nat({ max: CORPUS.length - 1 }),
    fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('byte' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          value: fc.integer({ min: 0, max: 255 }),
        }),
        fc.record({
          kind: fc.constantFrom('drop-line' as const, 'dup-line' as const, 'swap-lines' as const, 'truncate' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          value: fc.nat(),
        }),
        fc.record({
          kind: fc.constant('insert' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          text: fc.string({ unit: fc.constantFrom(...'>#:-+ 0123456789ABCDEQZ?.abc\n\r\t'), maxLength: 12 }),
        }),
      ),
      { minLength: 1, maxLength: 5 },
    ),
  )
  .map(([i, edits]) => {
    let bytes = Uint8Array.from(CORPUS[i]!);
    for (const e of edits) {
      const at = Math.floor(e.at * bytes.length);
      if (e.kind === 'byte') {
        if (bytes.length) bytes[Math.min(at, bytes.length - 1)] = e.value;
      } else if (e.kind === 'insert') {
        const ins = new TextEncoder().encode(e.text);
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...ins, ...bytes.subarray(at)]);
      } else if (e.kind === 'truncate') {
        bytes = bytes.subarray(0, at);
      } else {
        const lines = new TextDecoder('latin1').decode(bytes).split('\n');
        const a = Math.floor(e.at * lines.length);
        const b = e.value % Math.max(1, lines.length);
        if (e.kind === 'drop-line') lines.splice(a, 1);
        else if (e.kind === 'dup-line') lines.splice(a, 0, lines[a] ?? '');
        else [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
        bytes = Uint8Array.from(lines.join('\n'), (c) => c.charCodeAt(0) & 0xff);
      }
    }
    return bytes;
  });

describe('parseGcg and replayGcg', () => {
  const judge = (input: string | Uint8Array) => {
    const r = parseGcg(input);
    if (!r.ok) return expectTypedError(r.error, GCG_ERROR_CODES, 'parseGcg');
    // What parses replays to a report (mismatches and errors are data, never a throw) and formats again.
    const report = replayGcg(r.value);
    expect(typeof report).toBe('object');
    expect(typeof formatGcg(r.value)).toBe('string');
  };

  it('random text and bytes', () => {
    property(
      fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ unit: fc.constantFrom(...'>#:-+ 0123456789ABCDEQZ?.\n'), maxLength: 300 }),
      ),
      2000,
      judge,
    );
  });

  it(`the ${CORPUS.length} corpus files, mutated`, () => {
    expect(CORPUS.length).toBeGreaterThan(50);
    property(mutatedGcg, 1000, judge);
  });
});

// ---------------------------------------------------------------------------------------------
// Disputes

const EXAMPLES_DIR = join(ROOT, 'examples/disputes');
const EXAMPLES = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8')) as Record<string, unknown>);

const mutatedDispute = fc
  .tuple(
    fc.constantFrom(...EXAMPLES),
    fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('set' as const), key: fc.string({ maxLength: 10 }), value: fc.jsonValue({ maxDepth: 2 }) }),
        fc.record({
          op: fc.constant('reset' as const),
          pick: fc.nat(),
          value: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.integer({ min: -5, max: 30 }), fc.boolean()),
        }),
        fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([example, ops]) => {
    const d: Record<string, unknown> = { ...example };
    for (const o of ops) {
      const keys = Object.keys(d);
      if (o.op === 'set') d[o.key] = o.value;
      else if (keys.length) {
        const k = keys[o.pick % keys.length]!;
        if (o.op === 'delete') delete d[k];
        else d[k] = o.value;
      }
    }
    return d;
  });

describe('parseDispute and adjudicate', () => {
  const judge = (json: unknown) => {
    const r = parseDispute(json);
    if (!r.ok) return expectTypedError(r.error, DISPUTE_ERROR_CODES, JSON.stringify(json));
    for (const rs of Object.values(PRESETS)) {
      const ruling = adjudicate(r.value, rs);
      if (!ruling.ok) expect(ruling.error.message.length).toBeGreaterThan(0);
      // Whatever the facts, the verdict agrees with the code, the effects and the rule set (issue 13).
      else expect(verdictProblems(ruling.value, specOf(r.value.kind), rs)).toEqual([]);
    }
  };

  it('random JSON', () => {
    property(fc.jsonValue({ maxDepth: 3 }), 2000, judge);
  });

  it(`the ${EXAMPLES.length} example disputes, mutated`, () => {
    expect(EXAMPLES.length).toBeGreaterThan(30);
    property(mutatedDispute, 2000, judge);
  });

  /**
   * Facts that cannot happen (a rack holds seven tiles unless the dispute says otherwise; an overdraw
   * needs more than seven in hand, seed-000; nobody draws, exchanges or places face down more tiles
   * than a rack holds, or none at all): each refused as INVALID_DISPUTE naming the field and its value.
   */
  test.each([
    ['overdraw', { tilesOnRack: 8, drawn: 1, touchedRack: false }, 'tilesOnRack', '8'],
    ['overdraw', { tilesOnRack: 5, drawn: 2, touchedRack: false }, 'drawn', '2'],
    ['illegal-exchange', { bagCount: 5, stage: 'racking-started', exchangedCount: 9, rackSize: 7 }, 'exchangedCount', '9'],
    ['exchange-count-mismatch', { announced: 8, placedFaceDown: 4 }, 'announced', '8'],
    ['exchange-count-mismatch', { announced: 5, placedFaceDown: 12 }, 'placedFaceDown', '12'],
    ['courtesy-draw', { drawnTiles: 8, secondsAfterClockPress: 3, challengeSucceeded: true }, 'drawnTiles', '8'],
    ['out-of-order-draw', { drawnTiles: 0, opponentLeftShort: false, touchedRack: false }, 'drawnTiles', '0'],
    ['overdraw', { tilesOnRack: -1, drawn: 3, touchedRack: false }, 'tilesOnRack', '-1'],
  ] as const)('%s with impossible facts %j is refused, naming %s', (kind, facts, field, value) => {
    rec.add('inputsTried');
    const r = parseDispute({ kind, ...facts });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('INVALID_DISPUTE');
    expect(r.error.details).toMatchObject({ kind, field });
    expect(r.error.message).toContain(field);
    expect(r.error.message).toContain(value);
    expect(r.error.message).toMatch(/^Dispute [a-z-]+: .+\.$/);
  });
});
