import { rows, type Distribution } from './spec.js';

/** Italian: 120 tiles; no J, K, W, X or Y tiles (words with them are foreign and not played). */
export const ITALIAN: Distribution = {
  name: 'italian',
  language: 'it',
  blanks: 2,
  letters: rows(`
    A,14,1,v B,3,5 C,6,2 D,3,5 E,11,1,v F,3,5 G,2,8 H,2,8 I,12,1,v L,5,3 M,5,3 N,5,3 O,15,1,v
    P,3,5 Q,1,10 R,6,2 S,6,2 T,6,2 U,5,3,v V,3,5 Z,2,8`),
  source:
    'Federazione Italiana Scrabble (FISc), the Mattel Italian edition of 120 tiles; checked against Wikipedia "Scrabble letter distributions" (Italian) and gtoal.com/scrabble/details/italian (the Spear’s table).',
};
