import type { Tx } from './db.js';

export interface LexiconRecord {
  readonly name: string;
  /** The lexicon's content hash (engine/lexicon), so a game can be replayed with exactly its word list. */
  readonly contentHash: string;
  readonly wordCount: number;
}

/** Records a lexicon (name + content hash) once; games reference it. Safe to call on every start. */
export const registerLexicon = async (tx: Tx, lexicon: LexiconRecord): Promise<void> => {
  await tx.lexicon.upsert({
    where: { name_contentHash: { name: lexicon.name, contentHash: lexicon.contentHash } },
    create: { name: lexicon.name, contentHash: lexicon.contentHash, wordCount: lexicon.wordCount },
    update: {},
  });
};
