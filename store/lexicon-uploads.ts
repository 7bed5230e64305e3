import type { Tx } from './db.js';
import { registerLexicon } from './lexicons.js';

/**
 * Uploaded word lists (issue 21), compiled to `.dawg` bytes and kept in the database: a Lambda has no lasting
 * disk, and every container must judge with the same list. Each edition of a name is a row; the newest is
 * the one new games get, older ones keep judging the games made with them.
 */
export interface LexiconUploadRow {
  readonly name: string;
  readonly contentHash: string;
  readonly distribution: string;
  readonly dawg: Uint8Array;
  readonly unspellable: number;
  readonly uploadedBy: string;
  readonly createdAt: Date;
}

/** An edition's move-generation graph: null bytes for an edition stored before uploads got one. */
export interface LexiconUploadKwgRow {
  readonly contentHash: string;
  readonly distribution: string;
  readonly wordCount: number;
  readonly unspellable: number;
  readonly kwg: Uint8Array | null;
}

export interface NewLexiconUpload {
  readonly name: string;
  readonly contentHash: string;
  readonly wordCount: number;
  readonly distribution: string;
  readonly dawg: Uint8Array;
  readonly kwg: Uint8Array;
  readonly unspellable: number;
  readonly uploadedBy: string;
}

/** Stores an edition (its `lexicons` row first, which games reference); uploading the same words again changes nothing. */
export const insertLexiconUpload = async (tx: Tx, u: NewLexiconUpload): Promise<void> => {
  await registerLexicon(tx, { name: u.name, contentHash: u.contentHash, wordCount: u.wordCount });
  await tx.lexiconUpload.upsert({
    where: { name_contentHash: { name: u.name, contentHash: u.contentHash } },
    create: {
      name: u.name,
      contentHash: u.contentHash,
      distribution: u.distribution,
      dawg: Buffer.from(u.dawg),
      kwg: Buffer.from(u.kwg),
      unspellable: u.unspellable,
      uploadedBy: u.uploadedBy,
    },
    update: {},
  });
};

/** One edition by name and hash, or the newest of the name when `hash` is null (without the KWG: the referee needs only the `.dawg`). */
export const findLexiconUpload = async (client: Tx, name: string, hash: string | null): Promise<LexiconUploadRow | null> =>
  client.lexiconUpload.findFirst({
    where: { name, ...(hash === null ? {} : { contentHash: hash }) },
    orderBy: { createdAt: 'desc' },
    select: { name: true, contentHash: true, distribution: true, dawg: true, unspellable: true, uploadedBy: true, createdAt: true },
  });

/** The KWG of one edition by name and hash, or of the newest of the name when `hash` is null. */
export const findLexiconUploadKwg = async (client: Tx, name: string, hash: string | null): Promise<LexiconUploadKwgRow | null> => {
  const row = await client.lexiconUpload.findFirst({
    where: { name, ...(hash === null ? {} : { contentHash: hash }) },
    orderBy: { createdAt: 'desc' },
    select: { contentHash: true, distribution: true, unspellable: true, kwg: true, lexicon: { select: { wordCount: true } } },
  });
  return (
    row && {
      contentHash: row.contentHash,
      distribution: row.distribution,
      unspellable: row.unspellable,
      kwg: row.kwg,
      wordCount: row.lexicon.wordCount,
    }
  );
};

/** Who first uploaded a name (its owner: nobody else may upload under it), or null when nobody has. */
export const lexiconNameOwner = async (client: Tx, name: string): Promise<string | null> =>
  (await client.lexiconUpload.findFirst({ where: { name }, orderBy: { createdAt: 'asc' }, select: { uploadedBy: true } }))?.uploadedBy ??
  null;

/** Every uploaded name with its newest edition's identity (the lexicons listing). */
export const listLexiconUploads = async (
  client: Tx,
): Promise<{ name: string; contentHash: string; distribution: string; unspellable: number; createdAt: Date }[]> =>
  client.lexiconUpload.findMany({
    distinct: ['name'],
    orderBy: [{ name: 'asc' }, { createdAt: 'desc' }],
    select: { name: true, contentHash: true, distribution: true, unspellable: true, createdAt: true },
  });

/** The content hash of a name's newest edition (without its bytes), or null when the name was never uploaded. */
export const newestLexiconUploadHash = async (client: Tx, name: string): Promise<string | null> =>
  (await client.lexiconUpload.findFirst({ where: { name }, orderBy: { createdAt: 'desc' }, select: { contentHash: true } }))?.contentHash ??
  null;
