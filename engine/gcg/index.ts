/**
 * GCG game records: syntax only (parse, format). Replaying a record against the rules lives
 * beside it. See reference/gcg-format.md.
 */
export * from './document.js';
export { parseGcg, decodeGcg, GCG_ERROR_CODES, GCG_ENCODINGS } from './parse.js';
export type { GcgError, GcgErrorCode, GcgEncoding } from './parse.js';
export { encodeGcg, formatGcg } from './format.js';
