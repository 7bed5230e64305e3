import type { StandingRow } from './standings.js';

/**
 * A division's standings as CSV (RFC 4180: comma-separated, CRLF line ends, a field quoted when it holds a
 * comma, a quote or a line end; quotes doubled), one row per player in rank order, for spreadsheets and
 * rating officers.
 */

export const STANDINGS_CSV_COLUMNS = [
  'rank',
  'number',
  'name',
  'rating',
  'class',
  'wins',
  'losses',
  'spread',
  'firsts',
  'seconds',
  'byes',
  'played',
  'withdrawn',
] as const;

const field = (v: string | number | boolean | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

export const formatStandingsCsv = (rows: readonly StandingRow[]): string =>
  [
    STANDINGS_CSV_COLUMNS.join(','),
    ...rows.map((r) =>
      [
        r.rank,
        r.entrant.number,
        r.entrant.name,
        r.entrant.rating,
        r.entrant.class,
        r.wins,
        r.losses,
        r.spread,
        r.firsts,
        r.seconds,
        r.byes,
        r.played,
        r.withdrawn,
      ]
        .map(field)
        .join(','),
    ),
  ]
    .map((l) => `${l}\r\n`)
    .join('');
