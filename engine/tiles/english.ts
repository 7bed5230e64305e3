import { rows, type Distribution } from './spec.js';

/** Standard English: 100 tiles, 2 blanks, 187 face points (reference/tiles-and-boards.md §5). */
export const ENGLISH: Distribution = {
  name: 'english',
  language: 'en',
  blanks: 2,
  letters: rows(`
    A,9,1,v B,2,3 C,2,3 D,4,2 E,12,1,v F,2,4 G,3,2 H,2,4 I,9,1,v J,1,8 K,1,5 L,4,1 M,2,3
    N,6,1 O,8,1,v P,2,3 Q,1,10 R,6,1 S,4,1 T,6,1 U,4,1,v V,2,4 W,2,4 X,1,8 Y,2,4 Z,1,10`),
  source:
    'The standard English set (NASPA and WESPA play it); reference/tiles-and-boards.md §5; checked against wolges src/alphabets/english.txt and Wikipedia "Scrabble letter distributions" (English).',
};

/** English super set for the 21×21 board: 200 tiles, 4 blanks (macondo/liwords `english_super`). */
export const ENGLISH_SUPER: Distribution = {
  name: 'english_super',
  language: 'en',
  blanks: 4,
  letters: rows(`
    A,16,1,v B,4,3 C,6,3 D,8,2 E,24,1,v F,4,4 G,5,2 H,5,4 I,13,1,v J,2,8 K,2,5 L,7,1 M,6,3
    N,13,1 O,15,1,v P,4,3 Q,2,10 R,13,1 S,10,1 T,15,1 U,7,1,v V,3,4 W,4,4 X,2,8 Y,4,4 Z,2,10`),
  source:
    'Super Scrabble (Winning Moves/Tinderbox, 2004): 200 tiles; as macondo/liwords `english_super` and wolges src/alphabets/super_english.txt.',
};
