import { rows, type Distribution } from './spec.js';

/** Spanish: 100 tiles with the digraph tiles CH, LL and RR (macondo `spanish`). */
export const SPANISH: Distribution = {
  name: 'spanish',
  language: 'es',
  blanks: 2,
  letters: rows(`
    A,12,1,v B,2,3 C,4,3 CH,1,5 D,5,2 E,12,1,v F,1,4 G,2,2 H,2,4 I,6,1,v J,1,8 L,4,1 LL,1,8
    M,2,3 N,5,1 Ñ,1,8 O,9,1,v P,2,3 Q,1,5 R,5,1 RR,1,8 S,6,1 T,4,1 U,5,1,v V,1,4 X,1,8 Y,1,4 Z,1,10`),
  source:
    'Federación Internacional de Scrabble en Español (FISE): the Spanish set sold outside North America, with CH, LL and RR tiles; as macondo data/letterdistributions/spanish and wolges src/alphabets/spanish.txt; Wikipedia "Scrabble letter distributions" (Spanish).',
};
