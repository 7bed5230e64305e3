/**
 * The lexicons Arbiter ships, compiled by `npm run lexicons` from npm packages whose licences allow
 * redistribution. Tournament lists (NWL, CSW) are licensed and are not shipped: users compile
 * their own copy with `arbiter lexicon compile`.
 */
export const SHIPPED_LEXICONS = [
  {
    name: 'SOWPODS',
    package: 'sowpods',
    file: 'SOWPODS.txt',
    licence: 'ISC',
    description: 'SOWPODS, the older combined British/American tournament list (words of 2–15 letters)',
  },
  {
    name: 'WORDLIST',
    package: 'word-list',
    file: 'words.txt',
    licence: 'MIT',
    description: 'General English word list (atebits/Words, 2–28 letters, some offensive words removed)',
  },
] as const;

export type ShippedLexiconName = (typeof SHIPPED_LEXICONS)[number]['name'];
export const SHIPPED_LEXICON_NAMES: readonly string[] = SHIPPED_LEXICONS.map((l) => l.name);
