/**
 * The shape of a tile set, shared by the data modules of this folder and by `../tiles.ts`
 * (kept apart so the data modules do not import the module that lists them).
 */

export interface TileKind {
  /** The face as written in notation, NFC, upper case: `A`, `Ñ`, or several letters for a digraph tile (`CH`, `L·L`). */
  readonly letter: string;
  readonly count: number;
  readonly score: number;
  readonly vowel: boolean;
}

export interface Distribution {
  /** The id used in rule sets (`board.distribution`), GCG pragmas and the API, as Woogles/macondo name it. */
  readonly name: string;
  /** BCP 47 language code of the set (`en`, `fr`, `ca` …). */
  readonly language: string;
  readonly blanks: number;
  readonly letters: readonly TileKind[];
  /** Where the counts and values come from (the association's set, and the public copies they were checked against). */
  readonly source: string;
}

/**
 * Reads a set written as `LETTER,COUNT,SCORE[,v]` cells (`v` marks a vowel), one set per template
 * literal, so a data module reads like the association's table.
 */
export const rows = (spec: string): TileKind[] =>
  spec
    .trim()
    .split(/\s+/)
    .map((cell) => {
      const [letter, count, score, vowel] = cell.split(',');
      return { letter: letter!.normalize('NFC'), count: Number(count), score: Number(score), vowel: vowel === 'v' };
    });
