import { rows, type Distribution } from './spec.js';

/** Dutch: 102 tiles. IJ is played as two tiles, I and J (there is no IJ tile). */
export const DUTCH: Distribution = {
  name: 'dutch',
  language: 'nl',
  blanks: 2,
  letters: rows(`
    A,6,1,v B,2,3 C,2,5 D,5,2 E,18,1,v F,2,4 G,3,3 H,2,4 I,4,1,v J,2,4 K,3,3 L,3,3 M,3,3
    N,10,1 O,6,1,v P,2,3 Q,1,10 R,5,2 S,5,2 T,5,2 U,3,4,v V,2,4 W,2,5 X,1,8 Y,1,8 Z,2,4`),
  source:
    'Nederlandse Scrabble Bond (NSB), the set of the Dutch edition; checked against macondo data/letterdistributions/dutch, wolges src/alphabets/dutch.txt and Wikipedia "Scrabble letter distributions" (Dutch).',
};
