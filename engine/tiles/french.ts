import { rows, type Distribution } from './spec.js';

/**
 * French: 102 tiles (100 letters and 2 blanks; the blanks were added to the original 100). Accents
 * are not written on tiles: É plays as E.
 */
export const FRENCH: Distribution = {
  name: 'french',
  language: 'fr',
  blanks: 2,
  letters: rows(`
    A,9,1,v B,2,3 C,2,3 D,3,2 E,15,1,v F,2,4 G,2,2 H,2,4 I,8,1,v J,1,8 K,1,10 L,5,1 M,3,2
    N,6,1 O,6,1,v P,2,3 Q,1,8 R,6,1 S,6,1 T,6,1 U,6,1,v V,2,4 W,1,10 X,1,10 Y,1,10,v Z,1,10`),
  source:
    'Fédération Internationale de Scrabble Francophone (FISF), the set of the French edition; checked against macondo data/letterdistributions/french.csv, wolges src/alphabets/french.txt and Wikipedia "Scrabble letter distributions" (French).',
};
