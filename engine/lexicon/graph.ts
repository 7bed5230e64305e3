/**
 * The word graph behind every lexicon: a minimal DAWG stored KWG-style as one `Uint32Array` of arcs.
 *
 * Each arc is one 32-bit entry:
 *
 * | bits  | field                                                                      |
 * |-------|----------------------------------------------------------------------------|
 * | 24–31 | letter index, 1-based into the lexicon's alphabet (0 only in the root pointer) |
 * | 23    | accepts: the path ending with this arc spells a word                        |
 * | 22    | last: this arc ends its sibling list                                        |
 * | 0–21  | child: index of the first arc of the next sibling list, 0 = none            |
 *
 * Entry 0 is a pointer whose child is the root's sibling list. Siblings are sorted by letter index,
 * and every child index is smaller than the index of the arc that points to it (children are
 * written first), which keeps the graph acyclic and lets the decoder check that in one pass.
 * Finality lives on arcs rather than nodes, so `CAT`/`CATS` and `DOG`/`DOGS` share the `S` arc.
 */
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import type { Lexicon } from './lexicon.js';
import { lexiconError } from './codes.js';

export const ARC_CHILD_MASK = 0x3f_ffff;
export const ARC_LAST = 1 << 22;
export const ARC_ACCEPTS = 1 << 23;
export const ARC_LETTER_SHIFT = 24;
/** Letter indices fit in 8 bits and 0 is reserved. */
export const MAX_ALPHABET = 255;
/** Child indices fit in 22 bits. */
export const MAX_ARCS = ARC_CHILD_MASK + 1;

export const arcLetter = (arc: number): number => arc >>> ARC_LETTER_SHIFT;
export const arcAccepts = (arc: number): boolean => (arc & ARC_ACCEPTS) !== 0;
export const arcIsLast = (arc: number): boolean => (arc & ARC_LAST) !== 0;
export const arcChild = (arc: number): number => arc & ARC_CHILD_MASK;

/** A graph as data: what the binary format stores besides the header. */
export interface WordGraphData {
  /** The letters, sorted by UTF-16 code unit; letter index `i` is `alphabet[i - 1]`. */
  readonly alphabet: readonly string[];
  readonly nodes: Uint32Array;
}

/** The sorted distinct code units of `words`: a lexicon's alphabet is whatever its words use. */
const alphabetOf = (words: readonly string[]): string[] => {
  const seen = new Uint8Array(0x10000);
  for (const w of words) for (let i = 0; i < w.length; i++) seen[w.charCodeAt(i)] = 1;
  const out: string[] = [];
  for (let c = 0; c < seen.length; c++) if (seen[c]) out.push(String.fromCharCode(c));
  return out;
};

interface OpenNode {
  letters: number[];
  accepts: number[];
  children: number[];
}
const openNode = (): OpenNode => ({ letters: [], accepts: [], children: [] });

/**
 * Builds the minimal DAWG of a normalised word list (sorted by code unit, unique — see
 * `normaliseWords`) with Daciuk's incremental algorithm: each finished node is replaced by an
 * identical registered one when it exists, so the graph is minimal when the last word is in.
 */
export const buildWordGraph = (words: readonly string[]): Result<WordGraphData, RuleError> => {
  const alphabet = alphabetOf(words);
  if (alphabet.length > MAX_ALPHABET) {
    return err(
      lexiconError('LEXICON_TOO_LARGE', `The word list uses ${alphabet.length} distinct letters; at most ${MAX_ALPHABET} fit.`, {
        letters: alphabet.length,
      }),
    );
  }
  const index = new Uint8Array(0x10000);
  alphabet.forEach((ch, i) => (index[ch.charCodeAt(0)] = i + 1));

  const out: number[] = [0];
  const registry = new Map<string, number>();
  let overflow = false;
  const register = (node: OpenNode): number => {
    const n = node.letters.length;
    if (n === 0) return 0;
    let key = '';
    for (let i = 0; i < n; i++) key += `${(node.letters[i]! << 1) | node.accepts[i]!}:${node.children[i]!},`;
    const known = registry.get(key);
    if (known !== undefined) return known;
    const id = out.length;
    if (id + n > MAX_ARCS) {
      overflow = true;
      return 0;
    }
    for (let i = 0; i < n; i++) {
      out.push(
        ((node.letters[i]! << ARC_LETTER_SHIFT) |
          (node.accepts[i] ? ARC_ACCEPTS : 0) |
          (i === n - 1 ? ARC_LAST : 0) |
          node.children[i]!) >>>
          0,
      );
    }
    registry.set(key, id);
    return id;
  };
  const closeTo = (stack: OpenNode[], depth: number): void => {
    for (let d = stack.length - 1; d > depth; d--) {
      const parent = stack[d - 1]!;
      parent.children[parent.children.length - 1] = register(stack[d]!);
    }
    stack.length = depth + 1;
  };

  const stack: OpenNode[] = [openNode()];
  let prev = '';
  for (const w of words) {
    if (w <= prev && prev !== '') throw new Error(`buildWordGraph: words not sorted and unique at "${prev}", "${w}"`);
    let p = 0;
    const m = Math.min(prev.length, w.length);
    while (p < m && prev.charCodeAt(p) === w.charCodeAt(p)) p++;
    closeTo(stack, p);
    for (let i = p; i < w.length; i++) {
      const node = stack[i]!;
      node.letters.push(index[w.charCodeAt(i)]!);
      node.accepts.push(i === w.length - 1 ? 1 : 0);
      node.children.push(0);
      stack.push(openNode());
    }
    prev = w;
  }
  closeTo(stack, 0);
  const root = register(stack[0]!);
  if (overflow) {
    return err(lexiconError('LEXICON_TOO_LARGE', `The word graph needs more than ${MAX_ARCS} arcs.`, { maxArcs: MAX_ARCS }));
  }
  out[0] = (ARC_LAST | root) >>> 0;
  return ok({ alphabet, nodes: Uint32Array.from(out) });
};

/** Name, hash and word count: what identifies a lexicon besides its graph. */
export interface LexiconMeta {
  readonly name: string;
  readonly hash: string;
  readonly wordCount: number;
}

/**
 * A lexicon backed by a word graph. Lookups walk the arc array and allocate nothing; the raw
 * navigation (`root`, `findArc`, the `arc*` field readers over `nodes`) is what move generation
 * builds on.
 */
export class GraphLexicon implements Lexicon {
  readonly name: string;
  readonly hash: string;
  readonly wordCount: number;
  readonly alphabet: readonly string[];
  readonly nodes: Uint32Array;
  /** Code unit → letter index (0 = not in the alphabet). */
  private readonly letterTable: Uint8Array;

  /** Trusts `graph`: use `buildWordGraph` or `decodeDawgFile`, which check it. */
  constructor(meta: LexiconMeta, graph: WordGraphData) {
    this.name = meta.name;
    this.hash = meta.hash;
    this.wordCount = meta.wordCount;
    this.alphabet = graph.alphabet;
    this.nodes = graph.nodes;
    this.letterTable = new Uint8Array(0x10000);
    graph.alphabet.forEach((ch, i) => (this.letterTable[ch.charCodeAt(0)] = i + 1));
  }

  /** Index of the first arc of the root sibling list; 0 when the lexicon is empty. */
  get root(): number {
    return this.nodes[0]! & ARC_CHILD_MASK;
  }

  /** Number of arcs in the graph (entry 0, the root pointer, excluded). */
  get arcCount(): number {
    return this.nodes.length - 1;
  }

  /** Letter index of one letter (1-based), 0 when the lexicon does not use it. */
  letterIndex(letter: string): number {
    return letter.length === 1 ? this.letterTable[letter.charCodeAt(0)]! : 0;
  }

  /** The arc for `letter` (an index) in the sibling list starting at `first`, or -1. */
  findArc(first: number, letter: number): number {
    if (first === 0) return -1;
    const n = this.nodes;
    for (let a = first; ; a++) {
      const e = n[a]!;
      const l = e >>> ARC_LETTER_SHIFT;
      if (l === letter) return a;
      if (l > letter || (e & ARC_LAST) !== 0) return -1;
    }
  }

  /** Whether `word` (uppercase, as normalised) is in the list. */
  has(word: string): boolean {
    const n = this.nodes;
    const table = this.letterTable;
    const len = word.length;
    if (len === 0) return false;
    let first = n[0]! & ARC_CHILD_MASK;
    for (let i = 0; ;) {
      const letter = table[word.charCodeAt(i)]!;
      if (letter === 0 || first === 0) return false;
      let e: number;
      for (let a = first; ; a++) {
        e = n[a]!;
        const l = e >>> ARC_LETTER_SHIFT;
        if (l === letter) break;
        if (l > letter || (e & ARC_LAST) !== 0) return false;
      }
      if (++i === len) return (e & ARC_ACCEPTS) !== 0;
      first = e & ARC_CHILD_MASK;
    }
  }

  /** Every word, in code-unit order (the normalised list's order). */
  *words(): Generator<string, void, undefined> {
    const n = this.nodes;
    const path: string[] = [];
    const stack: number[] = [];
    if (this.root !== 0) stack.push(this.root);
    while (stack.length > 0) {
      const depth = stack.length - 1;
      const e = n[stack[depth]!]!;
      path[depth] = this.alphabet[(e >>> ARC_LETTER_SHIFT) - 1]!;
      path.length = depth + 1;
      if ((e & ARC_ACCEPTS) !== 0) yield path.join('');
      const child = e & ARC_CHILD_MASK;
      if (child !== 0) {
        stack.push(child);
        continue;
      }
      while (stack.length > 0) {
        const top = stack.length - 1;
        const a = stack[top]!;
        if ((n[a]! & ARC_LAST) !== 0) stack.pop();
        else {
          stack[top] = a + 1;
          break;
        }
      }
    }
  }
}
