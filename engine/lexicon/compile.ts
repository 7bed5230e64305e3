import { ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import type { Distribution } from '../tiles.js';
import { encodeDawgFile } from './dawg-file.js';
import { encodeKwg, kwgDigest } from './kwg.js';
import { buildKwg } from './kwg-build.js';
import { KWG_MANIFEST_FORMAT, type KwgManifest } from './kwg-manifest.js';
import { GraphLexicon, buildWordGraph } from './graph.js';
import { contentHash, normaliseLexiconName, normaliseWordList, type WordList } from './wordlist.js';

/** Builds the graph of a normalised list under a name (normalised to uppercase). */
export const buildLexicon = (rawName: string, list: WordList): Result<GraphLexicon, RuleError> => {
  const name = normaliseLexiconName(rawName);
  if (!name.ok) return name;
  const graph = buildWordGraph(list.words);
  if (!graph.ok) return graph;
  return ok(new GraphLexicon({ name: name.value, hash: list.hash, wordCount: list.words.length }, graph.value));
};

/** A compiled word list: the lexicon and its `.dawg` bytes. */
export interface CompiledLexicon {
  readonly lexicon: GraphLexicon;
  readonly bytes: Uint8Array;
}

/** Word list text → lexicon + `.dawg` bytes; what `arbiter lexicon compile` and the build script run. */
export const compileWordList = (rawName: string, text: string): Result<CompiledLexicon, RuleError> => {
  const list = normaliseWordList(text);
  if (!list.ok) return list;
  const lexicon = buildLexicon(rawName, list.value);
  if (!lexicon.ok) return lexicon;
  return ok({ lexicon: lexicon.value, bytes: encodeDawgFile(lexicon.value) });
};

/**
 * Recomputes the content hash from the graph's words. Loading trusts the stored hash (hashing
 * 270k words costs far more than loading them); this is the full check, for tests and audits.
 */
export const graphContentHash = (lex: GraphLexicon): string => contentHash([...lex.words()]);

/** A word list's move-generation graph: the `.kwg` bytes and the manifest that goes beside them. */
export interface CompiledKwg {
  readonly bytes: Uint8Array;
  readonly manifest: KwgManifest;
}

/**
 * The KWG of a normalised list over a distribution's tiles (its letters in order are the tile
 * numbers), with its manifest; what `npm run lexicons` and `arbiter lexicon compile` write.
 */
export const compileKwg = (rawName: string, list: WordList, distribution: Distribution): Result<CompiledKwg, RuleError> => {
  const name = normaliseLexiconName(rawName);
  if (!name.ok) return name;
  const alphabet = distribution.letters.map((l) => l.letter);
  const built = buildKwg(list.words, alphabet);
  if (!built.ok) return built;
  const bytes = encodeKwg(built.value.kwg);
  const manifest: KwgManifest = {
    format: KWG_MANIFEST_FORMAT,
    name: name.value,
    hash: list.hash,
    wordCount: list.words.length,
    distribution: distribution.name,
    alphabet,
    unspellable: built.value.unspellable,
    nodes: built.value.kwg.nodes.length,
    sha256: kwgDigest(bytes),
  };
  return ok({ bytes, manifest });
};
