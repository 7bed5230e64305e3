import { formatMove } from '../move.js';
import { encodeText, fitsLatin1 } from './decode.js';
import type { GcgDocument, GcgEvent } from './document.js';

const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);

const descriptor = (e: GcgEvent): string => {
  switch (e.kind) {
    case 'move':
      return formatMove(e.move);
    case 'phony-returned':
      return '--';
    case 'challenge-bonus':
      return '(challenge)';
    case 'time-penalty':
      return '(time)';
    case 'ruling-adjustment':
      return '(ruling)';
    case 'end-rack-points':
    case 'end-rack-penalty':
      return `(${e.tiles})`;
  }
};

/**
 * A note line that is empty or starts with `#` or `>` would not read back as a continuation
 * line, so such lines start a `#note` of their own.
 */
const noteLines = (note: string): string[] => {
  const out: string[] = [];
  note.split('\n').forEach((l, i) => {
    const t = l.trim();
    if (i === 0) out.push(t === '' ? '#note' : `#note ${t}`);
    else if (t === '') return;
    else out.push(/^[#>]/.test(t) ? `#note ${t}` : t);
  });
  return out;
};

/**
 * Writes a syntax tree as a GCG record (gcg §1–3): LF line ends, the first line declaring the
 * encoding the record was read in (`doc.encoding`; UTF-8 when absent, or when the text holds
 * characters ISO-8859-1 cannot: encode with {@link encodeGcg}), players first, then the header pragmas in order, the
 * events with their notes, and `#incomplete`/`#rack1`/`#rack2` last. Moves are written in
 * canonical notation (`.` for played-through squares).
 */
export const formatGcg = (doc: GcgDocument): string => {
  const body = formatBody(doc);
  const encoding = doc.encoding === 'ISO-8859-1' && fitsLatin1(body) ? 'ISO-8859-1' : 'UTF-8';
  return `#character-encoding ${encoding}\n${body}`;
};

/** The record's bytes in the encoding its first line declares (see {@link formatGcg}). */
export const encodeGcg = (doc: GcgDocument): Uint8Array => {
  const text = formatGcg(doc);
  return encodeText(text, text.startsWith('#character-encoding ISO-8859-1') ? 'ISO-8859-1' : 'UTF-8');
};

const formatBody = (doc: GcgDocument): string => {
  const out: string[] = [];
  doc.players.forEach((p, i) => out.push(`#player${i + 1} ${p.nickname}${p.name === '' ? '' : ` ${p.name}`}`));
  for (const p of doc.pragmas) out.push(p.value === '' ? `#${p.keyword}` : `#${p.keyword} ${p.value}`);
  for (const e of doc.events) {
    const fields = [`>${doc.players[e.player].nickname}:`, e.rack, descriptor(e), signed(e.score), `${e.cumulative}`];
    out.push(fields.join(' ') + (e.annotation === '' ? '' : `  ${e.annotation}`));
    for (const n of e.notes) out.push(...noteLines(n));
  }
  if (doc.incomplete) out.push(doc.incomplete.rack === '' ? '#incomplete' : `#incomplete ${doc.incomplete.rack}`);
  doc.lastRacks.forEach((r, i) => {
    if (r) out.push(`#rack${i + 1} ${r.rack}`);
  });
  return out.join('\n') + '\n';
};
