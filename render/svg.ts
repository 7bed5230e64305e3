/** A few helpers to write SVG as text: escaped attributes and content, numbers without float noise. */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a double-quoted attribute (player names come from users). */
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Coordinates rounded to 0.01: the same picture gives the same bytes (ETags) on every platform. */
const num = (n: number): string => String(Math.round(n * 100) / 100);

export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

const attrs = (a: Attrs): string =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => ` ${k}="${v === true ? 'true' : typeof v === 'number' ? num(v) : escapeXml(v as string)}"`)
    .join('');

/** An element with children already written as SVG text (none: self-closing). */
export const el = (tag: string, a: Attrs, ...children: readonly string[]): string =>
  children.length === 0 ? `<${tag}${attrs(a)}/>` : `<${tag}${attrs(a)}>${children.join('')}</${tag}>`;

/** A text element; `content` is escaped. */
export const text = (a: Attrs, content: string): string => el('text', a, escapeXml(content));
