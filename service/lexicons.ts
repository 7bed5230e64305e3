import { ruleError, type RuleError } from '../engine/errors.js';
import { lexiconDirs, listLexicons, loadLexicon, type LexiconDir } from '../store/lexicon-files.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { normaliseLexiconName } from '../engine/lexicon/wordlist.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Tx } from '../store/db.js';
import { registerLexicon } from '../store/lexicons.js';

/**
 * The lexicons a server judges with, loaded once per process (per Lambda container) and shared by
 * every request. Lookups are by name, case-insensitive; a game's exact list by name and hash.
 */
export interface LexiconRegistry {
  /** Loaded lexicons, in search order (shipped first). */
  readonly all: readonly Lexicon[];
  /** The name used when a request names none (the first loaded: SOWPODS when it is built). */
  readonly defaultName: string | null;
  get(name: string): Result<Lexicon, RuleError>;
  /** The list a stored game was judged with; `LEXICON_HASH_MISMATCH` when only another edition is loaded. */
  getMatching(identity: { readonly name: string; readonly hash: string }): Result<Lexicon, RuleError>;
  /**
   * Adds an uploaded list loaded from the database (service/lexicon-uploads.ts) for the life of the process.
   * `current`: it is the newest edition of its name, which `get` answers (an older one still judges the
   * games made with it, through `getMatching`). A name of a lexicon loaded from files is never replaced.
   */
  add(lexicon: Lexicon, current: boolean): void;
  /** Whether `name` is a lexicon loaded from files (shipped or the user's directory), which no upload may take. */
  isBuiltIn(name: string): boolean;
}

/** A registry over lexicons already in memory (tests pass small ones). */
export const lexiconRegistry = (lexicons: readonly Lexicon[]): LexiconRegistry => {
  const byName = new Map(lexicons.map((l) => [l.name, l]));
  const builtIn = new Set(byName.keys());
  const all = [...lexicons];
  const identity = (l: { readonly name: string; readonly hash: string }): string => `${l.name}\n${l.hash}`;
  const editions = new Map(lexicons.map((l) => [identity(l), l]));
  const get = (raw: string): Result<Lexicon, RuleError> => {
    const name = normaliseLexiconName(raw);
    const found = name.ok ? byName.get(name.value) : undefined;
    if (found) return ok(found);
    const known = [...byName.keys()];
    return err(
      ruleError(
        'LEXICON_NOT_FOUND',
        `No lexicon named ${JSON.stringify(raw)} is loaded here; the lexicons are ${known.length ? known.join(', ') : '(none: run npm run lexicons)'}.`,
        {
          name: raw,
          known,
        },
      ),
    );
  };
  return {
    all,
    defaultName: lexicons[0]?.name ?? null,
    get,
    add: (lexicon, current) => {
      if (builtIn.has(lexicon.name)) return;
      editions.set(identity(lexicon), lexicon);
      if (!current) return;
      const old = byName.get(lexicon.name);
      if (old) all.splice(all.indexOf(old), 1);
      byName.set(lexicon.name, lexicon);
      all.push(lexicon);
    },
    isBuiltIn: (name) => builtIn.has(name),
    getMatching: (wanted) => {
      const edition = editions.get(identity(wanted));
      if (edition) return ok(edition);
      const found = get(wanted.name);
      if (!found.ok || found.value.hash === wanted.hash) return found;
      return err(
        ruleError(
          'LEXICON_HASH_MISMATCH',
          `The lexicon ${found.value.name} loaded here has hash ${found.value.hash}, not ${wanted.hash}: it is a different word list.`,
          {
            name: found.value.name,
            expected: wanted.hash,
            found: found.value.hash,
          },
        ),
      );
    },
  };
};

/**
 * Loads every lexicon in the search directories (shipped, then the user's). A file that fails to
 * load is reported through `warn` and left out, so one bad user file does not stop a server.
 */
export const loadLexiconRegistry = (
  dirs: readonly LexiconDir[] = lexiconDirs(),
  warn: (message: string) => void = console.warn,
): LexiconRegistry => {
  const loaded: Lexicon[] = [];
  for (const listing of listLexicons(dirs)) {
    const lexicon = loadLexicon(listing.name, dirs);
    if (lexicon.ok) loaded.push(lexicon.value);
    else warn(`lexicon ${listing.name} not loaded: ${lexicon.error.message}`);
  }
  return lexiconRegistry(loaded);
};

/** Records every loaded lexicon in the database (games reference lexicons by name and hash). Idempotent. */
export const registerLexicons = async (client: Tx, registry: LexiconRegistry): Promise<void> => {
  for (const l of registry.all) await registerLexicon(client, { name: l.name, contentHash: l.hash, wordCount: l.wordCount });
};
