/**
 * What a `.kwg` file cannot say about itself (the format has no header): which lexicon it holds and
 * which letters its tile numbers stand for. It travels beside the file as `NAME.kwg.json`.
 */
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { lexiconError } from './codes.js';
import { KWG_MAX_TILES } from './kwg.js';
import { normaliseLexiconName } from './wordlist.js';

export const KWG_MANIFEST_FORMAT = 'arbiter-kwg-manifest/1';

export interface KwgManifest {
  readonly format: typeof KWG_MANIFEST_FORMAT;
  /** The lexicon's name and content hash: the same identity as its `.dawg` (`wordlist.ts`). */
  readonly name: string;
  readonly hash: string;
  readonly wordCount: number;
  /** The distribution the tile numbers follow (`tiles.ts`), and its letters in tile order (tile 1 first). */
  readonly distribution: string;
  readonly alphabet: readonly string[];
  /** Words of the list that cannot be spelled in the alphabet's tiles (left out of the graph). */
  readonly unspellable: number;
  readonly nodes: number;
  /** SHA-256 (hex) of the `.kwg` bytes, so loading checks integrity without walking every node. */
  readonly sha256?: string;
}

export const formatKwgManifest = (m: KwgManifest): string => `${JSON.stringify(m, null, 2)}\n`;

const HASH = /^sha256:[0-9a-f]{64}$/;

/** Parses and checks a manifest; every failure is `LEXICON_BAD_HEADER` naming the field. */
export const parseKwgManifest = (text: string): Result<KwgManifest, RuleError> => {
  const bad = (why: string): Result<KwgManifest, RuleError> =>
    err(lexiconError('LEXICON_BAD_HEADER', `The KWG manifest is invalid: ${why}.`, { reason: why }));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return bad('it is not JSON');
  }
  if (typeof raw !== 'object' || raw === null) return bad('it is not an object');
  const m = raw as Record<string, unknown>;
  if (m.format !== KWG_MANIFEST_FORMAT) return bad(`"format" is not ${KWG_MANIFEST_FORMAT}`);
  if (typeof m.name !== 'string' || !normaliseLexiconName(m.name).ok) return bad('"name" is not a lexicon name');
  if (typeof m.hash !== 'string' || !HASH.test(m.hash)) return bad('"hash" is not sha256:<64 hex digits>');
  for (const k of ['wordCount', 'unspellable', 'nodes'] as const) {
    const v = m[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return bad(`"${k}" is not a count`);
  }
  if (typeof m.distribution !== 'string') return bad('"distribution" is not a name');
  const a = m.alphabet;
  if (!Array.isArray(a) || a.length === 0 || a.length > KWG_MAX_TILES || !a.every((l) => typeof l === 'string' && l.length > 0)) {
    return bad(`"alphabet" is not a list of 1–${KWG_MAX_TILES} letters`);
  }
  if (m.sha256 !== undefined && (typeof m.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(m.sha256)))
    return bad('"sha256" is not 64 hex digits');
  return ok(m as unknown as KwgManifest);
};
