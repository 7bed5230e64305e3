import { ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { encodeDawgFile } from './dawg-file.js';
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
