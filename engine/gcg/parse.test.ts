import { describe, expect, test } from 'vitest';
import { formatGcg, parseGcg, type GcgDocument } from './index.js';

const HEAD = '#player1 Ann Ann Smith\n#player2 Bob Bob Jones\n';
const parsed = (text: string | Uint8Array): GcgDocument => {
  const r = parseGcg(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('event lines', () => {
  test.each<[string, Record<string, unknown>]>([
    [
      '>Ann: ANTHER? n8 ANoTHER +73 416',
      { kind: 'move', rack: 'ANTHER?', score: 73, cumulative: 416, move: { kind: 'play', anchor: { row: 7, col: 13, dir: 'down' } } },
    ],
    ['>Ann: ABC 8H FEIGN +18 161  BE, ET', { kind: 'move', annotation: 'BE, ET', cumulative: 161 }],
    ['>Ann: MOULAGD -- -76 354', { kind: 'phony-returned', rack: 'MOULAGD', score: -76, cumulative: 354 }],
    ['>Ann: LWGRAKE -- +0 59', { kind: 'phony-returned', score: 0 }],
    ['>Ann: U - +0 380', { kind: 'move', move: { kind: 'pass' }, rack: 'U' }],
    ['>Ann: SEQSPO? -QO +0 268', { kind: 'move', move: { kind: 'exchange', tiles: ['Q', 'O'], count: 2 } }],
    ['>Ann: SEQSPO? -2 +0 268', { kind: 'move', move: { kind: 'exchange', tiles: null, count: 2 } }],
    ['>Ann: DROWNUG (challenge) +5 289', { kind: 'challenge-bonus', rack: 'DROWNUG', score: 5 }],
    ['>Ann:  (challenge) +5 534', { kind: 'challenge-bonus', rack: '' }],
    ['>Ann:  (G) +4 539', { kind: 'end-rack-points', rack: '', tiles: 'G', score: 4 }],
    ['>Ann: (I) +2 378', { kind: 'end-rack-points', rack: '', tiles: 'I' }],
    ['>Ann: ?AEEOTT (?AEEOTT) -6 -6 ', { kind: 'end-rack-penalty', rack: '?AEEOTT', tiles: '?AEEOTT', score: -6, cumulative: -6 }],
    ['>Ann: ISBALI (time) -10 409', { kind: 'time-penalty', rack: 'ISBALI', score: -10 }],
    ['>Ann:  (time) -20 358', { kind: 'time-penalty', rack: '' }],
    ['>Bob:\t8H\tQI +22 22', { kind: 'move', player: 1, rack: '' }],
  ])('%s', (line, fields) => {
    const doc = parsed(`${HEAD}${line}\n`);
    expect(doc.events).toHaveLength(1);
    expect(doc.events[0]).toMatchObject({ line: 3, player: 0, annotation: '', notes: [], ...fields });
  });
});

test('pragmas, notes (with continuation lines), last racks and #incomplete', () => {
  const doc = parsed(
    '#title Final\r\n#player1 Ann Ann Smith\r\n#player2 Bob Bob Jones\r\n#id io.woogles p6QRjJHG\r#lexicon NWL23\n' +
      '>Ann: AB 8H AB +8 8\n#note first\nsecond line\n\n#note another\n#incomplete\n#rack2 RETAIN?\n',
  );
  expect(doc.players).toEqual([
    { nickname: 'Ann', name: 'Ann Smith', line: 2 },
    { nickname: 'Bob', name: 'Bob Jones', line: 3 },
  ]);
  expect(doc.pragmas).toEqual([
    { keyword: 'title', value: 'Final', line: 1 },
    { keyword: 'id', value: 'io.woogles p6QRjJHG', line: 4 },
    { keyword: 'lexicon', value: 'NWL23', line: 5 },
  ]);
  expect(doc.events[0]!.notes).toEqual(['first\nsecond line', 'another']);
  expect(doc.incomplete).toEqual({ rack: '', line: 11 });
  expect(doc.lastRacks).toEqual([null, { rack: 'RETAIN?', line: 12 }]);
});

describe('syntax errors carry a code, the line and the offending text', () => {
  test.each<[string, string, number, string]>([
    ['', 'EMPTY', 1, 'empty'],
    [' \n\n', 'EMPTY', 1, 'empty'],
    ['#character-encoding ASCII\n' + HEAD, 'UNSUPPORTED_ENCODING', 1, '"ASCII"'],
    [HEAD + '#character-encoding UTF-8\n', 'ENCODING_NOT_FIRST', 3, '#character-encoding UTF-8'],
    ['#player3 Cy Cy\n', 'BAD_PRAGMA', 1, '#player3'],
    ['#player1\n', 'BAD_PRAGMA', 1, 'no nickname'],
    ['#player1 A:b x\n', 'BAD_PRAGMA', 1, '"A:b"'],
    ['#player1 Ann Ann\n#player1 Bob Bob\n', 'PLAYER_NUMBER_REDUNDANT', 2, '#player1'],
    ['#player1 Ann Ann Smith\n#player2 Ann Bob\n', 'DUPLICATE_NICKNAMES', 2, '"Ann"'],
    ['#player1 Ann Ann Smith\n#player2 Bob Ann Smith\n', 'DUPLICATE_NAMES', 2, '"Ann Smith"'],
    ['#player1 Ann Ann Smith\n', 'MISSING_PLAYERS', 2, '#player2'],
    ['#lexicon A\n#lexicon B\n' + HEAD, 'REDUNDANT_PRAGMA', 2, '#lexicon'],
    ['#id io.woogles\n' + HEAD, 'BAD_PRAGMA', 1, '#id io.woogles'],
    [HEAD + '>Ann: AB 8H AB +8 8\n#lexicon X\n', 'PRAGMA_AFTER_EVENTS', 4, '#lexicon X'],
    [HEAD + '>Ann: AB 8H AB +8 8\n#player1 C C\n', 'PRAGMA_AFTER_EVENTS', 4, '#player1 C C'],
    [HEAD + '#note early\n', 'NOTE_BEFORE_EVENTS', 3, '#note early'],
    ['#player1 Ann Ann\n>Ann: AB 8H AB +8 8\n', 'EVENT_BEFORE_PLAYERS', 2, '>Ann:'],
    ['#player1 Ann Ann\n#rack1 AB\n', 'EVENT_BEFORE_PLAYERS', 2, '#rack1'],
    [HEAD + '#rack1 AB\n>Ann: AB 8H AB +8 8\n', 'EVENT_AFTER_LAST_RACK', 4, '>Ann:'],
    [HEAD + '#rack1 AB\n#rack1 CD\n', 'REDUNDANT_PRAGMA', 4, '#rack1'],
    [HEAD + '#rack1 a1\n', 'BAD_RACK', 3, '"1"'],
    [HEAD + '>Cy: AB 8H AB +8 8\n', 'UNKNOWN_PLAYER', 3, '"Cy"'],
    [HEAD + '>Ann AB 8H AB +8 8\n', 'BAD_EVENT', 3, '>Ann AB'],
    [HEAD + '>Ann: AB 8H AB 8 8\n', 'BAD_EVENT', 3, 'signed score'],
    [HEAD + '>Ann: AB DAB +8 8\n', 'BAD_EVENT', 3, '"DAB" is not an event'],
    [HEAD + '>Ann: A B C D +8 8\n', 'BAD_EVENT', 3, '4 fields'],
    [HEAD + '>Ann: KLMO8RTV 4D VOLK +33 433\n', 'BAD_RACK', 3, '"8" at position 5 of the rack "KLMO8RTV"'],
    [HEAD + '>Ann: AB ZZ AB +8 8\n', 'BAD_COORDINATE', 3, '"ZZ"'],
    [HEAD + '>Ann: AB 8H A2 +8 8\n', 'BAD_WORD', 3, '"2" at position 2'],
    [HEAD + '>Ann: AB -A.B +0 8\n', 'BAD_EXCHANGE', 3, '"." at position 3'],
    [HEAD + '>Ann: (#) +2 8\n', 'BAD_RACK', 3, '"#"'],
    [HEAD + '>Ann: () +2 8\n', 'BAD_RACK', 3, 'no tiles'],
    [HEAD + 'stray text\n', 'UNRECOGNIZED_LINE', 3, '"stray text"'],
  ])('%j → %s', (text, code, line, fragment) => {
    const r = parseGcg(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code, line });
    expect(r.error.message).toContain(`Line ${line}: `);
    expect(r.error.message).toContain(fragment);
  });
});

describe('bytes and encodings', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

  test('ISO-8859-1 by default: 0xE9 is é, and 0x80–0x9F are not read as Windows-1252', () => {
    const doc = parsed(bytes('#player1 c', [0xe9], 'sar x', [0x80], '\n#player2 b b\n'));
    expect(doc.players[0].nickname).toBe('c\u00e9sar');
    expect(doc.players[0].name).toBe('x\u0080');
  });
  test('#character-encoding UTF-8 on line 1 switches to UTF-8', () => {
    const doc = parsed(bytes('#character-encoding UTF-8\n#player1 c', [0xc3, 0xa9], 'sar c\n#player2 b b\n'));
    expect(doc.players[0].nickname).toBe('c\u00e9sar');
  });
  test('a UTF-8 byte-order mark means UTF-8 and is dropped', () => {
    const doc = parsed(bytes([0xef, 0xbb, 0xbf], '#player1 c', [0xc3, 0xa9], ' c\n#player2 b b\n'));
    expect(doc.players[0].nickname).toBe('c\u00e9');
  });
  test('a byte-order mark with an ISO-8859-1 declaration is a contradiction', () => {
    const r = parseGcg(bytes([0xef, 0xbb, 0xbf], '#character-encoding ISO-8859-1\n', HEAD));
    expect(r.ok ? null : r.error.code).toBe('ENCODING_MISMATCH');
  });
  test('invalid UTF-8 names its line', () => {
    const r = parseGcg(bytes('#character-encoding utf8\r\n#player1 a a\r\n#player2 b ', [0xe9], '\r\n'));
    expect(r.ok ? null : r.error).toMatchObject({ code: 'BAD_ENCODING', line: 3 });
  });
});

describe('formatGcg', () => {
  test('writes the canonical record, LF-terminated and declared UTF-8', () => {
    const doc = parsed(
      '#player1 Ann Ann Smith\r\n#player2 Bob Bob\r\n#lexicon CSW21\r\n>Ann: AB? 8h AbC +8 8 x y\r\n#note n1\r\nmore\r\n' +
        '>Bob: CD  H8 (A)D -0 0\r\n>Bob: CD -- -3 0\r\n>Ann:  (CD) +6 14\r\n>Bob: CD (time) -10 -10\r\n#rack1 AB\r\n',
    );
    expect(formatGcg(doc)).toBe(
      '#character-encoding UTF-8\n#player1 Ann Ann Smith\n#player2 Bob Bob\n#lexicon CSW21\n' +
        '>Ann: AB? 8H AbC +8 8  x y\n#note n1\nmore\n>Bob: CD H8 .D +0 0\n>Bob: CD -- -3 0\n>Ann:  (CD) +6 14\n' +
        '>Bob: CD (time) -10 -10\n#rack1 AB\n',
    );
  });
  test('note lines that would not read back as continuations become #note lines', () => {
    const doc = parsed(`${HEAD}>Ann: AB 8H AB +8 8\n`);
    const withNote: GcgDocument = { ...doc, events: [{ ...doc.events[0]!, notes: ['a\n\n#b\nc'] }] };
    expect(formatGcg(withNote)).toContain('#note a\n#note #b\nc\n');
  });
});
