/**
 * The language of a lexicon, known from its name: the word lists clubs play carry their
 * federation's prefix (Woogles and macondo name them the same way). A name not in the table has no
 * known language: it is taken to be in the language of the game it judges.
 */
const LEXICON_LANGUAGES: readonly (readonly [RegExp, string])[] = [
  // NASPA (NWL, OTCWL, TWL, OWL, NSWL), Collins (CSW, SOWPODS), Woogles' common-word lists, and the lists Arbiter ships.
  [/^(NWL|OTCWL|TWL|OWL|NSWL|CSW|SOWPODS|ECWL|CEL|WORDLIST)/i, 'en'],
  // FISF: L'Officiel du Scrabble (ODS); Woogles names it FRA20, FRA24.
  [/^(FRA|ODS)/i, 'fr'],
  // Scrabble Deutschland: Referenzliste (RD28 on Woogles).
  [/^RD\d/i, 'de'],
  // PFS: Oficjalny Słownik Polskiego Scrabblisty.
  [/^OSPS/i, 'pl'],
  // Norsk Scrabbleforbund: Norsk Scrabbleforbunds ordliste.
  [/^NSF/i, 'nb'],
  // FISE: Lexicón Internacional (FILE), its earlier FISE lists.
  [/^(FISE|FILE)/i, 'es'],
  // Diccionari Informatitzat de l'Scrabble en Català.
  [/^DISC/i, 'ca'],
];

/** The BCP 47 language of a lexicon by its name (`FRA20` → `fr`, `OSPS49` → `pl`), or undefined when the name does not say. */
export const lexiconLanguage = (name: string): string | undefined => LEXICON_LANGUAGES.find(([re]) => re.test(name.trim()))?.[1];
