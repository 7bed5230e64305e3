/**
 * Builds a KWG (DAWG + GADDAG, `kwg.ts`) from a normalised word list and an alphabet of tiles.
 *
 * Words are spelled in tiles first. A digraph tile (`CH`, `LL`, `RR`, `L·L`) is one tile, and a word
 * is stored under every way its letters split into tiles: `CHICO` as CH·I·C·O and C·H·I·C·O. That is
 * what the referee accepts (it judges the letters a play spells, `placement.ts`), so the move
 * generator finds exactly the plays the referee would allow. Words with a letter outside the
 * alphabet can never be played and are left out.
 *
 * Both graphs go through one incremental minimisation (Daciuk et al. 2000, over sorted input): a
 * finished sibling list is replaced by an identical one already written, so the GADDAG's lists after
 * the direction switch are the DAWG's own, as the format intends.
 */
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { lexiconError } from './codes.js';
import { KWG_ACCEPTS, KWG_IS_END, KWG_MAX_NODES, KWG_MAX_TILES, KWG_TILE_SHIFT, Kwg } from './kwg.js';

/**
 * Every way to spell `word` in tiles of `alphabet` (tile `t` is `alphabet[t - 1]`), as strings whose
 * char codes are tile numbers (compact, and they sort as tile sequences).
 */
export const tileSpellings = (word: string, alphabet: readonly string[]): string[] => {
  if (alphabet.every((l) => l.length === 1)) return singleLetterSpelling(word, alphabet);
  const out: string[] = [];
  const walk = (at: number, spelled: string): void => {
    if (at === word.length) {
      out.push(spelled);
      return;
    }
    for (let t = 0; t < alphabet.length; t++) {
      const letter = alphabet[t]!;
      if (word.startsWith(letter, at)) walk(at + letter.length, spelled + String.fromCharCode(t + 1));
    }
  };
  walk(0, '');
  return out;
};

const singleTables = new WeakMap<readonly string[], Map<number, number>>();
/** The one spelling of a word when every tile is one character (English): a table lookup per letter. */
const singleLetterSpelling = (word: string, alphabet: readonly string[]): string[] => {
  let table = singleTables.get(alphabet);
  if (!table) {
    table = new Map(alphabet.map((l, i) => [l.charCodeAt(0), i + 1]));
    singleTables.set(alphabet, table);
  }
  let s = '';
  for (let i = 0; i < word.length; i++) {
    const t = table.get(word.charCodeAt(i));
    if (t === undefined) return [];
    s += String.fromCharCode(t);
  }
  return [s];
};

/** One sibling list being built: parallel arrays, reused across words. */
interface OpenList {
  tiles: number[];
  accepts: number[];
  children: number[];
}

class Minimiser {
  nodes = new Uint32Array(1 << 16);
  length = 2; // nodes 0 and 1 are the root pointers
  overflow = false;
  private readonly byHash = new Map<number, number>();
  private readonly chain = new Map<number, number>();
  private readonly scratch: number[] = [];

  /** Writes the list unless an identical one exists; returns its index (0 for an empty list). */
  register(list: OpenList): number {
    const n = list.tiles.length;
    if (n === 0) return 0;
    const enc = this.scratch;
    enc.length = n;
    let h = n;
    for (let i = 0; i < n; i++) {
      const e =
        ((list.tiles[i]! << KWG_TILE_SHIFT) | (list.accepts[i] ? KWG_ACCEPTS : 0) | (i === n - 1 ? KWG_IS_END : 0) | list.children[i]!) >>>
        0;
      enc[i] = e;
      h = Math.imul(h ^ e, 0x9e3779b1) ^ (h >>> 15);
    }
    for (let id = this.byHash.get(h); id !== undefined; id = this.chain.get(id)) if (this.same(id, enc)) return id;
    const id = this.length;
    if (id + n > KWG_MAX_NODES) {
      this.overflow = true;
      return 0;
    }
    this.grow(id + n);
    for (let i = 0; i < n; i++) this.nodes[id + i] = enc[i]!;
    this.length = id + n;
    const first = this.byHash.get(h);
    if (first !== undefined) this.chain.set(id, first);
    this.byHash.set(h, id);
    return id;
  }

  private same(id: number, enc: readonly number[]): boolean {
    for (let i = 0; i < enc.length; i++) if (this.nodes[id + i] !== enc[i]) return false;
    return true;
  }

  private grow(size: number): void {
    if (size <= this.nodes.length) return;
    const bigger = new Uint32Array(Math.max(size, this.nodes.length * 2));
    bigger.set(this.nodes);
    this.nodes = bigger;
  }

  /** Adds sorted, unique sequences (strings of tile char codes); returns the root list. */
  addSorted(sequences: readonly string[]): number {
    const stack: OpenList[] = [{ tiles: [], accepts: [], children: [] }];
    const closeTo = (depth: number): void => {
      for (let d = stack.length - 1; d > depth; d--) {
        const parent = stack[d - 1]!;
        parent.children[parent.children.length - 1] = this.register(stack[d]!);
      }
      stack.length = depth + 1;
    };
    let prev = '';
    for (const s of sequences) {
      let p = 0;
      const m = Math.min(prev.length, s.length);
      while (p < m && prev.charCodeAt(p) === s.charCodeAt(p)) p++;
      closeTo(p);
      for (let i = p; i < s.length; i++) {
        const list = stack[i]!;
        list.tiles.push(s.charCodeAt(i));
        list.accepts.push(i === s.length - 1 ? 1 : 0);
        list.children.push(0);
        stack.push({ tiles: [], accepts: [], children: [] });
      }
      prev = s;
    }
    closeTo(0);
    return this.register(stack[0]!);
  }
}

/** The GADDAG entries of a word (tile string): its reversal, and each reversed prefix + switch + rest. */
const gaddagEntries = (w: string, out: string[]): void => {
  const r = [...w].reverse().join('');
  out.push(r);
  for (let i = 1; i < w.length; i++) out.push(`${r.slice(w.length - i)}\u0000${w.slice(i)}`);
};

const sortUnique = (xs: string[]): string[] => {
  xs.sort();
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[n - 1]) xs[n++] = xs[i]!;
  xs.length = n;
  return xs;
};

/** What {@link buildKwg} made, and the words it could not spell in the alphabet's tiles. */
export interface BuiltKwg {
  readonly kwg: Kwg;
  readonly unspellable: number;
}

/**
 * Builds the KWG (DAWG and GADDAG) of `words` (normalised: uppercase, sorted, unique) over
 * `alphabet` (a distribution's letters, in its order: tile `t` is `alphabet[t - 1]`).
 */
export const buildKwg = (words: readonly string[], alphabet: readonly string[]): Result<BuiltKwg, RuleError> => {
  if (alphabet.length > KWG_MAX_TILES) {
    return err(lexiconError('LEXICON_TOO_LARGE', `A KWG numbers at most ${KWG_MAX_TILES} tiles; the alphabet has ${alphabet.length}.`, {}));
  }
  const spelled: string[] = [];
  let unspellable = 0;
  for (const w of words) {
    const s = tileSpellings(w, alphabet);
    if (s.length === 0) unspellable++;
    for (const x of s) spelled.push(x);
  }
  sortUnique(spelled);
  const m = new Minimiser();
  const dawgRoot = m.addSorted(spelled);
  const entries: string[] = [];
  for (const w of spelled) gaddagEntries(w, entries);
  const gaddagRoot = m.addSorted(sortUnique(entries));
  if (m.overflow) {
    return err(lexiconError('LEXICON_TOO_LARGE', `The KWG needs more than ${KWG_MAX_NODES} nodes.`, { maxNodes: KWG_MAX_NODES }));
  }
  const nodes = m.nodes.slice(0, m.length);
  nodes[0] = (KWG_IS_END | dawgRoot) >>> 0;
  nodes[1] = (KWG_IS_END | gaddagRoot) >>> 0;
  return ok({ kwg: new Kwg(nodes, alphabet), unspellable });
};
