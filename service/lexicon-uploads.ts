import { ruleError, type RuleError } from '../engine/errors.js';
import { buildLexicon, compileKwg } from '../engine/lexicon/compile.js';
import { decodeKwg } from '../engine/lexicon/kwg.js';
import { decodeDawgFile, encodeDawgFile } from '../engine/lexicon/dawg-file.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { checkUpload } from '../engine/lexicon/upload.js';
import { normaliseLexiconName } from '../engine/lexicon/wordlist.js';
import { err, ok, type Result } from '../engine/result.js';
import { DISTRIBUTIONS } from '../engine/tiles.js';
import { findLexiconUpload, insertLexiconUpload, lexiconNameOwner, newestLexiconUploadHash } from '../store/lexicon-uploads.js';
import type { ServiceDeps } from './context.js';
import { rememberUploadKwg } from './upload-kwgs.js';

/**
 * Word lists uploaded by players and API keys with the `lexicons:manage` scope (issue 21). An upload is
 * normalised and checked by the engine (engine/lexicon/upload.ts), compiled to a `.dawg`, and stored in
 * the database; any process loads it from there the first time a request names it, then keeps it.
 */

export interface LexiconUploadInput {
  readonly name: string;
  /** A tile set (distribution) id of engine/tiles.ts: `english`, `spanish` … */
  readonly tileSet: string;
  /** The list: one word a line; blank lines and `#` comments ignored. */
  readonly words: string;
}

export interface LexiconUploadResult {
  readonly lexicon: Lexicon;
  readonly tileSet: string;
  /** Words the tile set cannot spell (kept in the list, never playable), and the first of them. */
  readonly unspellableCount: number;
  readonly unspellable: readonly string[];
  /** False when the very same list was already uploaded under this name (nothing changed). */
  readonly created: boolean;
}

const unknownTileSet = (tileSet: string): RuleError =>
  ruleError(
    'UNKNOWN_DISTRIBUTION',
    `No tile set is called ${JSON.stringify(tileSet)}; the tile sets are ${Object.keys(DISTRIBUTIONS).join(', ')}.`,
    {
      field: 'tileSet',
      tileSet,
      known: Object.keys(DISTRIBUTIONS),
    },
  );

/** Checks, compiles and stores an upload; the uploader owns the name (only they may upload new editions of it). */
export async function uploadLexicon(
  deps: ServiceDeps,
  playerId: string,
  input: LexiconUploadInput,
): Promise<Result<LexiconUploadResult, RuleError>> {
  const distribution = DISTRIBUTIONS[input.tileSet];
  if (!distribution) return err(unknownTileSet(input.tileSet));
  const checked = checkUpload(input.name, distribution, input.words);
  if (!checked.ok) return checked;
  const { name, list, unspellable, unspellableCount } = checked.value;
  if (deps.lexicons.isBuiltIn(name)) {
    return err(
      ruleError('LEXICON_NAME_TAKEN', `${name} is a lexicon of this server: upload your list under another name.`, { field: 'name', name }),
    );
  }
  const owner = await lexiconNameOwner(deps.db.prisma, name);
  if (owner !== null && owner !== playerId) {
    return err(
      ruleError('LEXICON_NAME_TAKEN', `Another player has uploaded a list called ${name}: choose another name.`, { field: 'name', name }),
    );
  }
  const existing = await findLexiconUpload(deps.db.prisma, name, list.hash);
  const built = buildLexicon(name, list);
  if (!built.ok) return built;
  if (!existing) {
    // The move generator's graph too (robots, analysis), over the tile set the list was spelled in.
    const kwg = compileKwg(name, list, distribution);
    if (!kwg.ok) return kwg;
    const dawg = encodeDawgFile(built.value);
    await deps.db.transaction((tx) =>
      insertLexiconUpload(tx, {
        name,
        contentHash: list.hash,
        wordCount: list.words.length,
        distribution: distribution.name,
        dawg,
        kwg: kwg.value.bytes,
        unspellable: unspellableCount,
        uploadedBy: playerId,
      }),
    );
    const decoded = decodeKwg(kwg.value.bytes, kwg.value.manifest.alphabet);
    if (decoded.ok) rememberUploadKwg({ kwg: decoded.value, manifest: kwg.value.manifest, path: `lexicon_uploads:${name}` });
  }
  deps.lexicons.add(built.value, true);
  return ok({ lexicon: built.value, tileSet: distribution.name, unspellableCount, unspellable, created: !existing });
}

/**
 * Loads an uploaded list into this process's registry: the edition `hash`, or the newest of the name when
 * `hash` is null. False when there is no such upload (the caller answers its usual LEXICON_NOT_FOUND).
 */
export async function loadUploadedLexicon(deps: ServiceDeps, rawName: string, hash: string | null): Promise<boolean> {
  const name = normaliseLexiconName(rawName);
  if (!name.ok || deps.lexicons.isBuiltIn(name.value)) return false;
  const row = await findLexiconUpload(deps.db.prisma, name.value, hash);
  if (!row) return false;
  const lexicon = decodeDawgFile(row.dawg);
  if (!lexicon.ok) return false;
  const newest = hash === null ? row : await findLexiconUpload(deps.db.prisma, name.value, null);
  deps.lexicons.add(lexicon.value, newest?.contentHash === row.contentHash);
  return true;
}

/**
 * The lexicon a request names: a lexicon of the server's files, else the newest edition of an upload (loaded
 * now if this process has not got it: another server instance may have taken a newer one). Errors as the
 * registry's `get`.
 */
export async function lexiconByName(deps: ServiceDeps, raw: string): Promise<Result<Lexicon, RuleError>> {
  const name = normaliseLexiconName(raw);
  if (!name.ok || deps.lexicons.isBuiltIn(name.value)) return deps.lexicons.get(raw);
  const hash = await newestLexiconUploadHash(deps.db.prisma, name.value);
  if (hash === null) return deps.lexicons.get(raw);
  const identity = { name: name.value, hash };
  const loaded = deps.lexicons.getMatching(identity);
  if (loaded.ok) return loaded;
  return (await loadUploadedLexicon(deps, name.value, hash)) ? deps.lexicons.getMatching(identity) : loaded;
}
