/**
 * A word list that judges words. Words are uppercase strings; a word with digraph tiles is the
 * concatenation of its tiles' letters (`CHICO`). `name` + `hash` identify the exact list, so a
 * stored game always knows which list judged it.
 */
export interface Lexicon {
  readonly name: string;
  /** Content hash of the normalised word list (`sha256:` + hex), independent of the binary encoding. */
  readonly hash: string;
  readonly wordCount: number;
  has(word: string): boolean;
}
