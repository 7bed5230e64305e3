import { rows, type Distribution } from './spec.js';

/** Slovene: 100 tiles with Č Š Ž; no Q, W, X or Y tiles (a blank may still stand for them in loanwords). */
export const SLOVENE: Distribution = {
  name: 'slovene',
  language: 'sl',
  blanks: 2,
  letters: rows(`
    A,10,1,v B,2,4 C,1,8 Č,1,5 D,4,2 E,11,1,v F,1,10 G,2,4 H,1,5 I,9,1,v J,4,1 K,3,3 L,4,1
    M,2,3 N,7,1 O,8,1,v P,2,3 R,6,1 S,6,1 Š,1,6 T,4,1 U,2,3,v V,4,2 Z,2,4 Ž,1,10`),
  source:
    'Slovenska zveza Scrabble, the set of the Slovene edition; checked against macondo data/letterdistributions/slovene, wolges src/alphabets/slovene.txt and Wikipedia "Scrabble letter distributions" (Slovenian).',
};
