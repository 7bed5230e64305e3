/**
 * Records in every language (issue 21): one hand-made record per tile set, replayed with the scores
 * worked out by hand on the standard board (H8 the double-word centre; I7 and I9 double letter; J6
 * triple letter; H5–H7, H9, K6–K10 plain). No lexicon for these languages is installed, so replay
 * checks placement and scores only (`wordsJudgedBy: null`); each record names its tile set a
 * different way, so every route of `chooseTileSet` is exercised.
 */
import { describe, expect, test } from 'vitest';
import type { Lexicon } from '../lexicon/lexicon.js';
import { encodeGcg, formatGcg } from './format.js';
import { parseGcg } from './parse.js';
import { replayGcg, type ReplayOptions, type ReplayReport } from './replay.js';
import type { GcgDocument } from './document.js';

const doc = (lines: readonly string[] | string | Uint8Array): GcgDocument => {
  const r = parseGcg(typeof lines === 'string' || lines instanceof Uint8Array ? lines : lines.join('\n') + '\n');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const replay = (lines: readonly string[], options?: ReplayOptions): ReplayReport => replayGcg(doc(lines), options);
const PLAYERS = ['#player1 Ann Ann Smith', '#player2 Bob Bob Jones'];

const CASES: readonly { set: string; record: string[]; scores: Record<string, number>; options?: ReplayOptions }[] = [
  {
    set: 'french',
    // 8H KEPI: (K 10 + E 1 + P 3 + I 1) × 2 = 30 (English values would give 20).
    // K6 MA.S down through the I: M 2 + A 1 + I 1 + S 1 = 5, no premium.
    record: ['#lexicon FRA20', ...PLAYERS, '>Ann: EIKPRST 8H KEPI +30 30', '>Bob: AEMORSU K6 MA.S +5 5'],
    scores: { Ann: 30, Bob: 5 },
  },
  {
    set: 'german',
    // 8H ÖL: (Ö 8 + L 2) × 2 = 20.
    // I6 MÜ.L down through the L: M 3 + Ü 6 × 2 (I7) + L 2 + L 2 × 2 (I9) = 3 + 12 + 2 + 4 = 21.
    record: ['#lexicon RD28', ...PLAYERS, '>Ann: AEILNRÖ 8H ÖL +20 20', '>Bob: EILMRSÜ I6 MÜ.L +21 21'],
    scores: { Ann: 20, Bob: 21 },
  },
  {
    set: 'spanish',
    // 8H [CH]AL: (CH 5 + A 1 + L 1) × 2 = 14.
    // I8 .ÑO down from the A: A 1 + Ñ 8 × 2 (I9) + O 1 = 18.
    record: ['#lexicon FILE2017', ...PLAYERS, '>Ann: [CH]AEILRS 8H [CH]AL +14 14', '>Bob: EINOÑST I8 .ÑO +18 18'],
    scores: { Ann: 14, Bob: 18 },
  },
  {
    set: 'catalan',
    // 8H CE[L·L]A: (C 2 + E 1 + L·L 10 + A 1) × 2 = 28.
    // K8 .[ny]S down from the A, the NY a blank: A 1 + 0 + S 1 = 2.
    record: ['#lexicon DISC2', ...PLAYERS, '>Ann: ACE[L·L]RST 8H CE[L·L]A +28 28', '>Bob: ?AEIRST K8 .[ny]S +2 2'],
    scores: { Ann: 28, Bob: 2 },
  },
  {
    set: 'norwegian',
    // 8H BÅT: (B 4 + Å 4 + T 1) × 2 = 18.
    // I7 S. down onto the Å: S 1 × 2 (I7) + Å 4 = 6.
    record: [...PLAYERS, '#note LetterDistribution: norwegian', '>Ann: ABRTÅÆØ 8H BÅT +18 18', '>Bob: EILNRST I7 S. +6 6'],
    scores: { Ann: 18, Bob: 6 },
  },
  {
    set: 'dutch',
    // 8H KAT: (K 3 + A 1 + T 2) × 2 = 12 (English: 14).
    // J6 WA. down onto the T: W 5 × 3 (J6) + A 1 + T 2 = 18.
    record: ['#letterdistribution dutch', ...PLAYERS, '>Ann: AEIKNRT 8H KAT +12 12', '>Bob: AEINRSW J6 WA. +18 18'],
    scores: { Ann: 12, Bob: 18 },
  },
  {
    set: 'slovene',
    // 8H ŽAR: (Ž 10 + A 1 + R 1) × 2 = 24.
    // H6 NO. down onto the Ž: N 1 + O 1 + Ž 10 = 12 (a tile already placed keeps its face value, no premium).
    record: ['#tile-distribution slovene', ...PLAYERS, '>Ann: AEIJRSŽ 8H ŽAR +24 24', '>Bob: AEINOST H6 NO. +12 12'],
    scores: { Ann: 24, Bob: 12 },
  },
  {
    set: 'italian',
    // 8H ZIO: (Z 8 + I 1 + O 1) × 2 = 20.
    // H5 PAZ.O down through the Z: P 5 + A 1 + Z 8 + Z 8 + O 1 = 23, no premium on H5–H7 or H9.
    record: [...PLAYERS, '>Ann: AEILOTZ 8H ZIO +20 20', '>Bob: AEIOPRZ H5 PAZ.O +23 23'],
    scores: { Ann: 20, Bob: 23 },
    options: { tileSet: 'italian' },
  },
  {
    set: 'polish',
    // The record of the issue (macondo gcgio/testdata/polish_endgame.gcg, first lines); nothing names
    // the set, the tiles Ć and Ę do. 8F HUJA: (H 3 + U 3 + J 3 + A 1) × 2 = 20, withdrawn.
    // 8G STĘPIĆ: S 1 + T 2 + Ę 5 + P 2 + I 1 + Ć 6 × 2 (L8) = 23, × 2 (H8) = 46.
    // 7I HOI: H 3 × 2 (I7) + O 1 + I 1 = 8; HĘ 6 + 5 = 11; OP 1 + 2 = 3; II 1 + 1 = 2: 24.
    record: [
      '#character-encoding UTF-8',
      '#player1 1 ptf1559',
      '#player2 2 smut3k',
      '>1: AHIJOUY 8F HUJA +20 20',
      '>1: AHIJOUY --  -20 0',
      '>2: ĆĘIKPST 8G STĘPIĆ +46 46',
      '>1: AHIJOUY 7I HOI +24 24',
    ],
    scores: { '1': 24, '2': 46 },
  },
];

describe('a hand-made record per tile set replays with its scores', () => {
  test.each(CASES)('$set', ({ set, record, scores, options }) => {
    const r = replay(record, options);
    expect(r.errors).toEqual([]);
    expect(r.mismatches).toEqual([]);
    expect(r).toMatchObject({ ok: true, tileSet: set, finalScores: scores, wordsJudgedBy: null });
    expect(r.rules.board.distribution).toBe(set);
  });
});

describe('how the tile set is picked', () => {
  const polish = CASES.find((c) => c.set === 'polish')!.record;

  test('the issue’s Polish record was refused as English; told it is English, it still is', () => {
    const r = replay(polish, { tileSet: 'english' });
    expect(r.ok).toBe(false);
    expect(r.errors[0]).toMatchObject({ code: 'RACK_NOT_IN_BAG', line: 6 });
  });

  test('#lexicon OSPS49 and #note LetterDistribution: polish both name Polish', () => {
    for (const head of ['#lexicon OSPS49', '#note LetterDistribution: polish']) {
      expect(replay([polish[0]!, head, ...polish.slice(1)]).tileSet).toBe('polish');
    }
  });

  test('the option wins over the record; a pragma over the lexicon', () => {
    const french = CASES[0]!.record;
    expect(replay(french, { tileSet: 'dutch' }).tileSet).toBe('dutch');
    expect(replay(['#letterdistribution dutch', ...french]).tileSet).toBe('dutch');
  });

  test('plain A–Z with nothing named is English (French scores then disagree, line 4)', () => {
    const r = replay(CASES[0]!.record.slice(1));
    expect(r.tileSet).toBe('english');
    expect(r.mismatches[0]).toMatchObject({ code: 'SCORE_MISMATCH', line: 3, expected: 30, actual: 20 });
  });

  test('a set Arbiter does not have is UNKNOWN_VARIANT on the pragma’s line, never a silent fallback', () => {
    const r = replay(['#letterdistribution klingon', ...PLAYERS, '>Ann: AEIQRST 8H QI +22 22']);
    expect(r.ok).toBe(false);
    expect(r.errors).toMatchObject([{ code: 'UNKNOWN_VARIANT', line: 1 }]);
    expect(r.errors[0]!.message).toMatch(/"klingon" is not one Arbiter has/);
  });
  test('an unknown set asked for by the caller is UNKNOWN_VARIANT with no line', () => {
    const r = replay(['#letterdistribution dutch', ...PLAYERS, '>Ann: AEIQRST 8H QI +22 22'], { tileSet: 'klingon' });
    expect(r.errors).toMatchObject([{ code: 'UNKNOWN_VARIANT', line: null }]);
  });
});

describe('word checks and the language of the lexicon', () => {
  /** A one-word stand-in named like the shipped English list (its name is what says its language). */
  const english = (): Lexicon => ({ name: 'SOWPODS', hash: 'sha256:test', wordCount: 1, has: (w) => w === 'QI' });
  test('an English lexicon is set aside for a Polish record: placement and scores are still checked', () => {
    const r = replay(CASES.find((c) => c.set === 'polish')!.record, { lexicon: english() });
    expect(r).toMatchObject({ ok: true, wordsJudgedBy: null, phonies: [] });
    expect(r.lexiconSetAside).toMatch(/^SOWPODS is a word list in "en", the record is played with the polish tiles/);
  });
  test('an English lexicon judges an English record', () => {
    const r = replay([...PLAYERS, '>Ann: AEIQRST 8H QI +22 22'], { lexicon: english() });
    expect(r).toMatchObject({ ok: true, wordsJudgedBy: 'SOWPODS', lexiconSetAside: null });
  });
});

describe('encodings: the writer writes what it read', () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

  test('a Latin-1 German record (no encoding line) replays and is written back as ISO-8859-1 bytes', () => {
    const text = CASES[1]!.record.join('\n') + '\n';
    const d = doc(latin1(text));
    expect(d.encoding).toBe('ISO-8859-1');
    expect(replayGcg(d)).toMatchObject({ ok: true, tileSet: 'german' });
    const out = formatGcg(d);
    expect(out.split('\n')[0]).toBe('#character-encoding ISO-8859-1');
    const bytes = encodeGcg(d);
    // Ö is one byte, D6, in Latin-1 (two, C3 96, in UTF-8).
    expect(bytes.includes(0xd6)).toBe(true);
    expect(bytes.includes(0xc3)).toBe(false);
    const again = doc(bytes);
    const unlined = (x: GcgDocument) => x.events.map((e) => ({ ...e, line: 0 }));
    expect(again.encoding).toBe('ISO-8859-1');
    expect(unlined(again)).toEqual(unlined(d));
  });

  test('a UTF-8 Polish record is written back as UTF-8, with its distribution pragma', () => {
    const polish = CASES.find((c) => c.set === 'polish')!.record;
    const d = doc(new TextEncoder().encode([polish[0]!, '#note LetterDistribution: polish', ...polish.slice(1)].join('\n')));
    expect(d.encoding).toBe('UTF-8');
    const out = formatGcg(d);
    expect(out).toMatch(/^#character-encoding UTF-8\n/);
    expect(out).toContain('#note LetterDistribution: polish\n');
    expect(replayGcg(doc(out))).toMatchObject({ ok: true, tileSet: 'polish' });
  });

  test('a Latin-1 record whose text no longer fits Latin-1 is written as UTF-8', () => {
    const d = doc(latin1(CASES[1]!.record.join('\n')));
    const renamed: GcgDocument = { ...d, players: [{ ...d.players[0], name: 'Łukasz' }, d.players[1]] };
    expect(formatGcg(renamed).split('\n')[0]).toBe('#character-encoding UTF-8');
  });

  test('decomposed accents (E + U+0301, O + U+0308) are read as the NFC tiles', () => {
    const decomposed = CASES[1]!.record.map((l) => l.normalize('NFD'));
    expect(decomposed.join('').length).toBeGreaterThan(CASES[1]!.record.join('').length);
    expect(replay(decomposed)).toMatchObject({ ok: true, tileSet: 'german', finalScores: { Ann: 20, Bob: 21 } });
  });
});
