/**
 * Historic spellings of GCG records (issue 13): one small hand-made record per variant, read by
 * the parser and replayed through the engine. Scores are worked out by hand on the standard board:
 * 8H QI = (Q 10 + I 1) × 2 on the centre = 22; 8H FOE = (F 4 + O 1 + E 1) × 2 = 12.
 */
import { describe, expect, test } from 'vitest';
import { gameToGcg } from './export.js';
import { formatGcg } from './format.js';
import { parseGcg } from './parse.js';
import { replayGcg, type ReplayReport } from './replay.js';
import type { GcgDocument } from './document.js';

const HEAD = ['#player1 Ann Ann Smith', '#player2 Bob Bob Jones'];
/** Ann plays QI (22), withdraws it on the line given, Bob opens with FOE (12). */
const withdrawal = (line: string): string[] => [...HEAD, '>Ann: AEIQRST 8H QI +22 22', line, '>Bob: DEFNOTU 8H FOE +12 12'];

const parsed = (text: string | Uint8Array): GcgDocument => {
  const r = parseGcg(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const replayed = (text: string | Uint8Array): ReplayReport => replayGcg(parsed(text));
const record = (lines: readonly string[], eol = '\n'): string => lines.join(eol) + eol;

describe('a phony withdrawal (`--`) in every spelling that keeps the total', () => {
  test('canonical: `-- -22 0` replays with no warning', () => {
    const r = replayed(record(withdrawal('>Ann: AEIQRST -- -22 0')));
    expect(r).toMatchObject({ ok: true, mismatches: [], errors: [], warnings: [], finalScores: { Ann: 0, Bob: 12 } });
  });

  test.each(['+0', '-0'])('`-- %s 0` (older Quackle): accepted, with a typed warning naming line 4', (field) => {
    const r = replayed(record(withdrawal(`>Ann: AEIQRST -- ${field} 0`)));
    expect(r.ok).toBe(true);
    expect(r.mismatches).toEqual([]);
    expect(r.finalScores).toEqual({ Ann: 0, Bob: 12 });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ code: 'SCORE_FIELD_DISAGREES', line: 4, turn: 2 });
    expect(r.warnings[0]!.message).toMatch(/^Line 4: the score field (\+0|0) differs from the running total, which adds -22/);
  });

  test('the issue’s spelling with a total already back to its value before the play: `-- +0 22`', () => {
    // J7 AXE down: AXE 1 + 8 + 1 = 10, and QIX across row 8: 10 + 1 + 8 = 19 (no premium under a new tile): 29.
    const r = replayed(
      record([...HEAD, '>Ann: AEIQRST 8H QI +22 22', '>Bob: DEFNOTU - +0 0', '>Ann: AERSTX? J7 AXE +29 51', '>Ann: AERSTX? -- +0 22']),
    );
    expect(r).toMatchObject({ ok: true, mismatches: [], errors: [], finalScores: { Ann: 22, Bob: 0 } });
    expect(r.warnings).toMatchObject([{ code: 'SCORE_FIELD_DISAGREES', line: 6 }]);
  });

  test('`-- +0 22`: the total keeps the withdrawn points, so the replay fails on line 4', () => {
    const r = replayed(record(withdrawal('>Ann: AEIQRST -- +0 22')));
    expect(r.ok).toBe(false);
    expect(r.mismatches).toMatchObject([{ code: 'CUMULATIVE_SCORE_MISMATCH', line: 4, expected: 22, actual: 0 }]);
    expect(r.mismatches[0]!.reason).toMatch(/^Line 4: /);
  });

  test('`-- -20 2`: the field and the total agree with each other but take back too little', () => {
    const r = replayed(record(withdrawal('>Ann: AEIQRST -- -20 2')));
    expect(r.ok).toBe(false);
    expect(r.mismatches).toMatchObject([{ code: 'SCORE_MISMATCH', line: 4, expected: -20, actual: -22 }]);
  });
});

describe('score field against running total on other lines', () => {
  test('a play whose field is wrong but whose total adds up: a warning, not a mismatch', () => {
    const r = replayed(record([...HEAD, '>Ann: AEIQRST 8H QI +20 22', '>Bob: DEFNOTU - +0 0']));
    expect(r.ok).toBe(true);
    expect(r.warnings).toMatchObject([{ code: 'SCORE_FIELD_DISAGREES', line: 3 }]);
  });
  test('a total that does not add up fails with its line', () => {
    const r = replayed(record([...HEAD, '>Ann: AEIQRST 8H QI +22 24', '>Bob: DEFNOTU - +0 0']));
    expect(r.ok).toBe(false);
    expect(r.mismatches).toMatchObject([{ code: 'CUMULATIVE_SCORE_MISMATCH', line: 3, expected: 24, actual: 22 }]);
  });
});

describe('layout and case', () => {
  test('extra spaces and tabs between fields, and around the nickname', () => {
    const doc = parsed(record([...HEAD, '>Ann:   AEIQRST \t 8H    QI    +22     22', '> Bob :  DEFNOTU  -  +0  0']));
    expect(doc.events).toMatchObject([
      { player: 0, rack: 'AEIQRST', score: 22, cumulative: 22 },
      { player: 1, rack: 'DEFNOTU', move: { kind: 'pass' } },
    ]);
    expect(replayGcg(doc).ok).toBe(true);
  });
  test('lower-case racks, exchanges, end racks and #rack lines are read as capitals', () => {
    const doc = parsed(
      record([...HEAD, '>Ann: aeiqrst 8h QI +22 22', '>Bob: defnotu -fu +0 0', '>Ann: aerst (time) -10 12', '#rack2 denotxy']),
    );
    expect(doc.events.map((e) => e.rack)).toEqual(['AEIQRST', 'DEFNOTU', 'AERST']);
    expect(doc.events[1]).toMatchObject({ move: { kind: 'exchange', tiles: ['F', 'U'] } });
    expect(doc.lastRacks[1]).toMatchObject({ rack: 'DENOTXY' });
    const points = parsed(record([...HEAD, '>Ann:  (fwli) +20 20']));
    expect(points.events[0]).toMatchObject({ kind: 'end-rack-points', tiles: 'FWLI' });
  });
  test('the blank in a played word stays lower case (it is a designation, not a rack)', () => {
    expect(parsed(record([...HEAD, '>Ann: aeiqrs? 8H QIs +22 22'])).events[0]).toMatchObject({
      rack: 'AEIQRS?',
      move: {
        word: [
          { letter: 'Q', blank: false },
          { letter: 'I', blank: false },
          { letter: 'S', blank: true },
        ],
      },
    });
  });
  test('`-0` as the move is a pass (Quackle)', () => {
    const r = replayed(record([...HEAD, '>Ann: AEIQRST -0 +0 0', '>Bob: DEFNOTU 8H FOE +12 12']));
    expect(r).toMatchObject({ ok: true, finalScores: { Ann: 0, Bob: 12 } });
  });
});

describe('notes, players and pragmas', () => {
  test('#note lines between moves, with a continuation line, attach to the move before', () => {
    const doc = parsed(
      record([...HEAD, '>Ann: AEIQRST 8H QI +22 22', '#note good start', 'really', '#note second', '>Bob: DEFNOTU - +0 0']),
    );
    expect(doc.events[0]!.notes).toEqual(['good start\nreally', 'second']);
    expect(replayGcg(doc).ok).toBe(true);
  });
  test('no #player lines: the players are the nicknames that move, in order, with no full name', () => {
    const doc = parsed(record(['>Ann: AEIQRST 8H QI +22 22', '>Bob: DEFNOTU - +0 0']));
    expect(doc.players).toEqual([
      { nickname: 'Ann', name: '', line: 1 },
      { nickname: 'Bob', name: '', line: 2 },
    ]);
    expect(replayGcg(doc)).toMatchObject({ ok: true, finalScores: { Ann: 22, Bob: 0 } });
  });
  test('one #player line: the other player is the nickname that moves and was not declared', () => {
    const doc = parsed(record(['#player2 Bob Bob Jones', '>Ann: AEIQRST 8H QI +22 22', '>Bob: DEFNOTU - +0 0']));
    expect(doc.players.map((p) => [p.nickname, p.name])).toEqual([
      ['Ann', ''],
      ['Bob', 'Bob Jones'],
    ]);
  });
  test('a third nickname in a record without #player lines is still unknown', () => {
    const r = parseGcg(record(['>Ann: AEIQRST 8H QI +22 22', '>Bob: DEFNOTU - +0 0', '>Cy: AB - +0 0']));
    expect(r.ok ? null : r.error).toMatchObject({ code: 'UNKNOWN_PLAYER', line: 3 });
  });
  test('#lexicon, #character-encoding, #id, #title, #description and unknown pragmas are kept', () => {
    const doc = parsed(
      record([
        '#character-encoding UTF-8',
        '#title Club night',
        '#description Created with Quackle',
        '#id org.example 1234',
        '#lexicon TWL06',
        '#style wsc2001',
        '#style again',
        ...HEAD,
        '>Ann: AEIQRST 8H QI +22 22',
      ]),
    );
    expect(doc.pragmas.map((p) => [p.keyword, p.value])).toEqual([
      ['title', 'Club night'],
      ['description', 'Created with Quackle'],
      ['id', 'org.example 1234'],
      ['lexicon', 'TWL06'],
      ['style', 'wsc2001'],
      ['style', 'again'],
    ]);
  });
});

describe('line ends and encodings', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

  test('CRLF (Windows) and bare CR line ends; line numbers count lines as an editor does', () => {
    const crlf = replayed(record(withdrawal('>Ann: AEIQRST -- +0 0'), '\r\n'));
    expect(crlf.warnings).toMatchObject([{ line: 4 }]);
    expect(parsed(record(withdrawal('>Ann: AEIQRST -- -22 0'), '\r')).events.map((e) => e.line)).toEqual([3, 4, 5]);
  });
  test('a UTF-8 byte-order mark, as bytes and as a decoded string', () => {
    const text = record(['#player1 Zoë Zoë Smith', '#player2 Bob Bob', '>Zoë: AEIQRST 8H QI +22 22']);
    const doc = parsed(Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
    expect(doc.players[0].nickname).toBe('Zoë');
    expect(parsed(`\ufeff${text}`).players[0].nickname).toBe('Zoë');
  });
  test('a Latin-1 file (no encoding line): 0xE9 is é', () => {
    const doc = parsed(
      bytes('#player1 Ren', [0xe9], ' Ren', [0xe9], ' Dupont\r\n#player2 Bob Bob\r\n>Ren', [0xe9], ': AEIQRST 8H QI +22 22\r\n'),
    );
    expect(doc.players[0]).toMatchObject({ nickname: 'René', name: 'René Dupont' });
    expect(replayGcg(doc).ok).toBe(true);
  });
});

describe('what is written stays canonical', () => {
  const OLD = record(['>Ann:  aeiqrst   8h QI +22 22', '>Ann: aeiqrst -- +0 0', '>Bob: defnotu 8H FOE +12 12'], '\r\n');

  test('formatGcg writes #player lines, capitals, single spaces, LF and UTF-8', () => {
    expect(formatGcg(parsed(OLD))).toBe(
      '#character-encoding UTF-8\n#player1 Ann\n#player2 Bob\n' +
        '>Ann: AEIQRST 8H QI +22 22\n>Ann: AEIQRST -- +0 0\n>Bob: DEFNOTU 8H FOE +12 12\n',
    );
  });
  test('an imported game is exported with the withdrawal written `-- -22`', () => {
    const r = replayed(OLD);
    expect(r.ok).toBe(true);
    const text = formatGcg(gameToGcg(r.events, { viewer: null }));
    expect(text).toContain('>Ann: AEIQRST -- -22 0\n');
    expect(replayGcg(parsed(text)).warnings).toEqual([]);
  });
});
