import { rows, type Distribution } from './spec.js';

/** Norwegian: 100 tiles with Æ Ø Å; no Q, X or Z tiles. */
export const NORWEGIAN: Distribution = {
  name: 'norwegian',
  language: 'nb',
  blanks: 2,
  letters: rows(`
    A,7,1,v B,3,4 C,1,10 D,5,1 E,9,1,v F,4,2 G,4,2 H,3,3 I,5,1,v J,2,4 K,4,2 L,5,1 M,3,2 N,6,1
    O,4,2,v P,2,4 R,6,1 S,6,1 T,6,1 U,3,4,v V,3,4 W,1,8 Y,1,6,v Æ,1,6,v Ø,2,5,v Å,2,4,v`),
  source:
    'Norsk Scrabbleforbund (NSF), the set of the Norwegian edition; checked against macondo data/letterdistributions/norwegian.csv, wolges src/alphabets/norwegian.txt and Wikipedia "Scrabble letter distributions" (Norwegian).',
};
