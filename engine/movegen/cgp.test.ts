import { describe, expect, test } from 'vitest';
import { formatBoard } from '../board.js';
import { buildKwg } from '../lexicon/kwg-build.js';
import { ENGLISH } from '../tiles.js';
import { cgpOperand, formatCgp, parseCgp, positionFromCgp } from './cgp.js';
import { bestMoves } from './generate.js';

const EMPTY = '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AELNOQT/ 0/0 0 lex NWL18; lm exchange 2;';
/** The endgame of the Maven paper, from the CGP specification's examples. */
const MAVEN =
  '5BERGS5/4PA3U5/2QAID3R5/3BEE3F2S2/1P1ET2VIATIC2/MA1TAW3c2H2/ES3IS2E2A2/AT1FOLIA4V2/LI1L1EX1E6/1N1O1D2N2Y3/1GNU2C1JETE3/2ER2OHO2N3/2O3GOY6/1INDOW1U7/4DORR7 IKLMTZ/AEINRU? 0/0 0 lex OSPD1;';

const parsed = (text: string) => {
  const r = parseCgp(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('parseCgp / formatCgp', () => {
  test.each([
    ['the empty board of the specification', EMPTY],
    ['the Maven endgame', MAVEN],
    [
      'a Spanish board with digraph tiles and a blank digraph',
      '7[CH]7/7A7/15/15/15/15/15/15/15/15/15/15/15/15/[ll]14 [RR]A?/ 12/-4 3 ld spanish;',
    ],
    [
      'the 21×21 super board, bingo bonus and exchange limit',
      `${'21/'.repeat(10)}10QI9/${'21/'.repeat(9)}21 ABC/DEF 22/0 1 bb 35; bdn SuperCrosswordGame; etl 1;`,
    ],
  ])('%s round-trips', (_, text) => expect(formatCgp(parsed(text))).toBe(text));

  test('the Maven endgame reads as the board of the paper: racks, blank, opcodes', () => {
    const cgp = parsed(MAVEN);
    expect(cgp.racks).toEqual([[...'IKLMTZ'], [...'AEINRU?']]);
    expect(cgp.scores).toEqual([0, 0]);
    expect(cgpOperand(cgp, 'lex')).toBe('OSPD1');
    expect(formatBoard(cgp.board).split('\n')[5]).toBe('MA.TAW...c..H..');
    expect(cgp.board.tileCount).toBe(100 - 13);
  });

  test('a digraph tile is one square and a lowercase one is a blank', () => {
    const cgp = parsed('7[CH]7/7A7/15/15/15/15/15/15/15/15/15/15/15/15/[ll]14 [RR]A?/ 12/-4 3 ld spanish;');
    expect(cgp.board.cells[7]).toEqual({ letter: 'CH', blank: false });
    expect(cgp.board.cells[14 * 15]).toEqual({ letter: 'LL', blank: true });
    expect(cgp.racks[0]).toEqual(['RR', 'A', '?']);
    expect(cgp.scores).toEqual([12, -4]);
    expect(cgp.zeroTurns).toBe(3);
  });

  test.each([
    ['three fields', '15/15 A/B 0/0', 'at least four fields'],
    ['a short row', `14/${'15/'.repeat(13)}15 A/ 0/0 0`, 'row 1 covers 14 squares'],
    ['a letter of another alphabet', `7Ñ7/${'15/'.repeat(13)}15 A/ 0/0 0`, '"Ñ", which is not a english tile'],
    ['an unknown distribution', `${'15/'.repeat(14)}15 A/ 0/0 0 ld klingon;`, 'letter distribution "klingon"'],
    ['a score that is not a number', `${'15/'.repeat(14)}15 A/ x/0 0`, '"x/0" is not whole numbers'],
    ['an operation without its semicolon', `${'15/'.repeat(14)}15 A/ 0/0 0 lex CSW21`, 'does not end with ";"'],
    ['a board size with no layout', '3/3/3 A/ 0/0 0', '3 rows match no layout'],
  ])('%s is BAD_CGP naming the field', (_, text, message) => {
    const r = parseCgp(text);
    expect(!r.ok && r.error.code).toBe('BAD_CGP');
    expect(!r.ok && r.error.message).toContain(message);
  });
});

describe('positionFromCgp', () => {
  test('the player to move, the unseen tiles, and a full bag minus the opponent’s rack', () => {
    const pos = positionFromCgp(parsed(EMPTY));
    expect(pos.rack).toEqual([...'AELNOQT']);
    expect(pos.unseen).toHaveLength(93);
    expect(pos.bagCount).toBe(86);
  });

  test('a hand-made position: the best play is found through the CGP', () => {
    const words = ['QI', 'QIS', 'AT', 'TA', 'IT', 'TI', 'IS', 'SI'].sort();
    const built = buildKwg(
      words,
      ENGLISH.letters.map((l) => l.letter),
    );
    if (!built.ok) throw new Error(built.error.message);
    const cgp = parsed(`${'15/'.repeat(7)}7QI6/${'15/'.repeat(6)}15 STA/ 0/0 0 lex TINY;`);
    const [best] = bestMoves(positionFromCgp(cgp), built.value.kwg, 1, { order: 'score' });
    // 8H QIS: Q and I on the board (10 + 1) plus S on J8 (1, no premium) = 12.
    expect(best?.notation).toBe('8H ..S');
    expect(best?.score).toBe(12);
  });
});
