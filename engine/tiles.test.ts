/**
 * The tile sets against their published figures. The totals below are typed from each association's
 * published set (and Wikipedia "Scrabble letter distributions"), not computed from the data modules.
 */
import { describe, expect, test } from 'vitest';
import { blankFace, DISTRIBUTIONS, distributionNamed, totalTiles } from './tiles.js';

/** id → [tiles in the bag, blanks, the letters of the alphabet that have tiles]. */
const PUBLISHED: Record<string, [number, number, string]> = {
  english: [100, 2, 'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z'],
  english_super: [200, 4, 'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z'],
  spanish: [100, 2, 'A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z'],
  french: [102, 2, 'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z'],
  german: [102, 2, 'A Ä B C D E F G H I J K L M N O Ö P Q R S T U Ü V W X Y Z'],
  catalan: [100, 2, 'A B C Ç D E F G H I J L L·L M N NY O P QU R S T U V X Z'],
  polish: [100, 2, 'A Ą B C Ć D E Ę F G H I J K L Ł M N Ń O Ó P R S Ś T U W Y Z Ź Ż'],
  norwegian: [100, 2, 'A B C D E F G H I J K L M N O P R S T U V W Y Æ Ø Å'],
  dutch: [102, 2, 'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z'],
  slovene: [100, 2, 'A B C Č D E F G H I J K L M N O P R S Š T U V Z Ž'],
  italian: [120, 2, 'A B C D E F G H I L M N O P Q R S T U V Z'],
};

describe('every tile set', () => {
  test('the eleven sets of issue 21 are all there, and nothing else', () => {
    expect(Object.keys(DISTRIBUTIONS).sort()).toEqual(Object.keys(PUBLISHED).sort());
  });

  test.each(Object.entries(PUBLISHED))(
    '%s: total and blanks as published, every letter of its alphabet with a value',
    (id, [total, blanks, alphabet]) => {
      const d = DISTRIBUTIONS[id]!;
      expect(totalTiles(d)).toBe(total);
      expect(d.blanks).toBe(blanks);
      expect(d.letters.map((k) => k.letter)).toEqual(alphabet.split(' '));
      for (const k of d.letters) {
        expect(k.score, `${id} ${k.letter}`).toBeGreaterThan(0);
        expect(k.count, `${id} ${k.letter}`).toBeGreaterThan(0);
      }
      expect(d.source.length).toBeGreaterThan(20);
    },
  );

  test.each(Object.keys(PUBLISHED))('%s: faces are NFC capitals whose lower case (the blank) reads back as the same tile', (id) => {
    for (const { letter } of DISTRIBUTIONS[id]!.letters) {
      expect(letter.normalize('NFC')).toBe(letter);
      expect(letter.toUpperCase()).toBe(letter);
      const blank = blankFace(letter);
      expect(blank).not.toBe(letter);
      expect(blank.toUpperCase()).toBe(letter);
    }
  });
});

describe('published values, spot checks', () => {
  const value = (id: string, letter: string) => DISTRIBUTIONS[id]!.letters.find((k) => k.letter === letter);
  test.each([
    ['french', 'K', 1, 10],
    ['german', 'Ö', 1, 8],
    ['spanish', 'Ñ', 1, 8],
    ['catalan', 'L·L', 1, 10],
    ['catalan', 'Ç', 1, 10],
    ['catalan', 'QU', 1, 8],
    ['polish', 'Ź', 1, 9],
    ['polish', 'Ń', 1, 7],
    ['norwegian', 'Æ', 1, 6],
    ['dutch', 'E', 18, 1],
    ['slovene', 'Ž', 1, 10],
    ['italian', 'Q', 1, 10],
    ['italian', 'O', 15, 1],
  ] as const)('%s %s: %i tile(s) worth %i', (id, letter, count, score) => {
    expect(value(id, letter)).toMatchObject({ count, score });
  });

  test('the Catalan L·L is written with the middle dot U+00B7', () => {
    expect([...DISTRIBUTIONS.catalan!.letters.find((k) => k.letter.startsWith('L·'))!.letter].map((c) => c.codePointAt(0))).toEqual([
      0x4c, 0xb7, 0x4c,
    ]);
  });
});

describe('distributionNamed', () => {
  test.each([
    ['Polish', 'polish'],
    ['english-super', 'english_super'],
    ['super_english', 'english_super'],
    ['SLOVENIAN', 'slovene'],
  ])('%s → %s', (name, id) => {
    expect(distributionNamed(name)?.name).toBe(id);
  });
  test('an unknown name is undefined', () => {
    expect(distributionNamed('klingon')).toBeUndefined();
  });
});
