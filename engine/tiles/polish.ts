import { rows, type Distribution } from './spec.js';

/** Polish: 100 tiles with Ą Ć Ę Ł Ń Ó Ś Ź Ż; no Q, V or X tiles. */
export const POLISH: Distribution = {
  name: 'polish',
  language: 'pl',
  blanks: 2,
  letters: rows(`
    A,9,1,v Ą,1,5,v B,2,3 C,3,2 Ć,1,6 D,3,2 E,7,1,v Ę,1,5,v F,1,5 G,2,3 H,2,3 I,8,1,v J,2,3
    K,3,2 L,3,2 Ł,2,3 M,3,2 N,5,1 Ń,1,7 O,6,1,v Ó,1,5,v P,3,2 R,4,1 S,4,1 Ś,1,5 T,3,2 U,2,3,v
    W,4,1 Y,4,2,v Z,5,1 Ź,1,9 Ż,1,5`),
  source:
    'Polska Federacja Scrabble (PFS), the set of the Polish edition; checked against wolges src/alphabets/polish.txt and Wikipedia "Scrabble letter distributions" (Polish).',
};
