import { cite, ruleError, type RuleError } from '../errors.js';
import { lexiconLanguage } from '../lexicon/languages.js';
import { err, ok, type Result } from '../result.js';
import { BLANK, DISTRIBUTIONS, distributionNamed, type Distribution } from '../tiles.js';
import type { GcgDocument, GcgPragma } from './document.js';
import { tilesOf } from './rack-text.js';

/**
 * The pragmas that name a record's tile set, as tools write them: `#letterdistribution polish`,
 * Arbiter's `#tile-distribution polish`, and macondo/Woogles' header note
 * `#note LetterDistribution: polish`.
 */
const DISTRIBUTION_KEYWORDS = new Set(['letterdistribution', 'letter-distribution', 'tile-distribution']);
const MACONDO_NOTE = /^LetterDistribution\s*:\s*(\S+)/i;

/** The pragma that names the tile set and the name it gives, if any. */
export const distributionPragma = (doc: GcgDocument): { readonly pragma: GcgPragma; readonly name: string } | undefined => {
  for (const p of doc.pragmas) {
    if (DISTRIBUTION_KEYWORDS.has(p.keyword.toLowerCase())) return { pragma: p, name: p.value };
    const note = p.keyword === 'note' ? MACONDO_NOTE.exec(p.value) : null;
    if (note) return { pragma: p, name: note[1]! };
  }
  return undefined;
};

/** The standard set of a language (the first listed), the English super set on the 21×21 board. */
const setOfLanguage = (language: string, layout: string): Distribution | undefined =>
  language === 'en' && layout === 'SuperCrosswordGame'
    ? DISTRIBUTIONS.english_super
    : Object.values(DISTRIBUTIONS).find((d) => d.language === language);

export interface TileSetChoice {
  readonly distribution: Distribution;
  /** How it was chosen, for messages and docs: the option, a pragma, the lexicon, the record's letters, or the board's default. */
  readonly from: 'option' | 'pragma' | 'lexicon' | 'letters' | 'default';
}

/** Every tile the record shows: racks, played letters (blanks by their letter), exchanges, end racks. */
const tilesShown = (doc: GcgDocument): Set<string> => {
  const out = new Set<string>();
  const add = (text: string) => tilesOf(text)?.forEach((t) => out.add(t));
  for (const e of doc.events) {
    add(e.rack);
    if (e.kind === 'end-rack-points' || e.kind === 'end-rack-penalty') add(e.tiles);
    if (e.kind === 'move' && e.move.kind === 'exchange') e.move.tiles?.forEach((t) => out.add(t));
    if (e.kind === 'move' && e.move.kind === 'play') for (const w of e.move.word) if (w.kind === 'letter') out.add(w.letter);
  }
  for (const r of doc.lastRacks) if (r) add(r.rack);
  out.delete(BLANK);
  return out;
};

/**
 * A record that names nothing but shows tiles the English set has not (`Ć`, `[CH]`): the first set,
 * in the order of `DISTRIBUTIONS`, whose letters include every tile shown. A record in plain A–Z
 * (French, Dutch, Italian …) cannot be told from English this way and needs a pragma or the option.
 */
const setByLetters = (doc: GcgDocument, fallback: Distribution): Distribution | undefined => {
  const shown = [...tilesShown(doc)];
  const has = (d: Distribution) => {
    const letters = new Set(d.letters.map((k) => k.letter));
    return shown.every((t) => letters.has(t));
  };
  return has(fallback) ? undefined : Object.values(DISTRIBUTIONS).find(has);
};

/**
 * The tile set a record is played with, first found of: the caller's explicit choice (API, CLI
 * `--tile-set`), a pragma naming it, the language of its `#lexicon` (`FRA20` → French, `OSPS49` →
 * Polish), the tiles it shows when English has not got them (`Ć` → Polish), else English (the super
 * set on the 21×21 board). A name Arbiter does not have is
 * `UNKNOWN_VARIANT`, never a silent fallback.
 */
export const chooseTileSet = (doc: GcgDocument, layout: string, option?: string | null): Result<TileSetChoice, RuleError> => {
  const unknown = (name: string, where: string) =>
    err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The ${where} tile distribution "${name}" is not one Arbiter has (${Object.keys(DISTRIBUTIONS).join(', ')}).`,
        { distribution: name },
        cite('gcg', '§2 tile-distribution'),
      ),
    );
  if (option) {
    const d = distributionNamed(option);
    return d ? ok({ distribution: d, from: 'option' }) : unknown(option, 'requested');
  }
  const named = distributionPragma(doc);
  if (named) {
    const d = distributionNamed(named.name);
    return d ? ok({ distribution: d, from: 'pragma' }) : unknown(named.name, 'record’s');
  }
  const lexicon = doc.pragmas.find((p) => p.keyword === 'lexicon')?.value;
  const language = lexicon === undefined ? undefined : lexiconLanguage(lexicon);
  const byLexicon = language === undefined ? undefined : setOfLanguage(language, layout);
  if (byLexicon) return ok({ distribution: byLexicon, from: 'lexicon' });
  const fallback = setOfLanguage('en', layout)!;
  const byLetters = setByLetters(doc, fallback);
  return ok(byLetters ? { distribution: byLetters, from: 'letters' } : { distribution: fallback, from: 'default' });
};
