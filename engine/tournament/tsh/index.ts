/**
 * TSH division files (`.t`): syntax only — parse to a syntax tree, check the lines against each
 * other, format back (byte for byte for a parsed file). Standings and the import into a
 * tournament live elsewhere. See docs/tsh.md.
 */
export * from './document.js';
export { parseTsh, parseTshLine } from './parse.js';
export { formatTsh, formatTshPlayer, type TshPlayerContent } from './format.js';
export { checkTsh, TSH_PROBLEM_CODES, type TshProblem, type TshProblemCode } from './check.js';
export { TSH_ERROR_CODES, type TshError, type TshErrorCode } from './tsh-error.js';
