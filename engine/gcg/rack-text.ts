import { parseRack } from '../move.js';

/** The tiles of a rack as a GCG line writes it (`.` also stands for a blank), `[]` for none, or null if it is not a rack. */
export const tilesOf = (text: string): string[] | null => {
  if (text === '') return [];
  const r = parseRack(text.replace(/\./g, '?'));
  return r.ok ? r.value : null;
};
