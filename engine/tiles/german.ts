import { rows, type Distribution } from './spec.js';

/** German: 102 tiles with the umlauts Ä Ö Ü as tiles of their own (no ß tile: it is written SS). */
export const GERMAN: Distribution = {
  name: 'german',
  language: 'de',
  blanks: 2,
  letters: rows(`
    A,5,1,v Ä,1,6,v B,2,3 C,2,4 D,4,1 E,15,1,v F,2,4 G,3,2 H,4,2 I,6,1,v J,1,6 K,2,4 L,3,2
    M,4,3 N,9,1 O,3,2,v Ö,1,8,v P,1,4 Q,1,10 R,6,1 S,7,1 T,6,1 U,6,1,v Ü,1,6,v V,1,6 W,1,3
    X,1,8 Y,1,10 Z,1,3`),
  source:
    'Scrabble Deutschland e.V., the set of the German edition (since 1991); checked against wolges src/alphabets/german.txt and Wikipedia "Scrabble letter distributions" (German).',
};
