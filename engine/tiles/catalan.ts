import { rows, type Distribution } from './spec.js';

/**
 * Catalan: 100 tiles with the digraph tiles L·L (written with the middle dot U+00B7), NY and QU,
 * and Ç. The tournament set has QU where the boxed set has Q: a Q is only ever followed by U.
 */
export const CATALAN: Distribution = {
  name: 'catalan',
  language: 'ca',
  blanks: 2,
  letters: rows(`
    A,12,1,v B,2,3 C,3,2 Ç,1,10 D,3,2 E,13,1,v F,1,4 G,2,3 H,1,8 I,8,1,v J,1,8 L,4,1 L·L,1,10
    M,3,2 N,6,1 NY,1,10 O,5,1,v P,2,3 QU,1,8 R,8,1 S,8,1 T,5,1 U,4,1,v V,1,4 X,1,10 Z,1,8`),
  source:
    'Associació de Jugadors de Scrabble en Català (tournament set, QU tile); checked against wolges src/alphabets/catalan.txt and Wikipedia "Scrabble letter distributions" (Catalan).',
};
