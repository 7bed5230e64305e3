import { crosstable, type CrosstableCell, type CrosstableRow } from '../engine/tournament/crosstable.js';
import { formatRecord, standings, type StandingRow } from '../engine/tournament/standings.js';
import type { DivisionState, TournamentState } from '../engine/tournament/state.js';

/**
 * The public standings page of a tournament (issue 30, item 9), as HTML from the engine's state: per
 * division its standings and its crosstable, both computed by the engine (engine/tournament/standings.ts,
 * crosstable.ts). Pure: no I/O, no script. Accessible by construction: `lang`, one `h1`, a heading per
 * division, real tables with a `caption`, `th scope="col"` for the columns and `th scope="row"` for each
 * player, and words (not colours) for every result. The style sheet is {@link STANDINGS_CSS}, inlined
 * in a `<style>` element that the page's Content-Security-Policy allows by its hash (graph/tournament-page.ts).
 */

export const STANDINGS_CSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1b1b1b;background:#fff;line-height:1.4}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:2px solid #a8894a}h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem}a{color:#0b4f8a}a:focus{outline:3px solid #f0a020}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}th,td{border:1px solid #c8c8c8;padding:.25rem .5rem;text-align:right;white-space:nowrap}
th[scope=row],th.name{text-align:left}thead th{background:#f3ecd9}tbody tr:nth-child(even){background:#fafafa}
.withdrawn{color:#5a5a5a;font-style:italic}.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}footer{margin-top:2rem;font-size:.9rem;color:#4a4a4a}
`.trim();

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `+35`, `-12`, `0`, with a true minus sign. */
const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/** A table that scrolls sideways on a narrow screen: a region a keyboard can reach and scroll. */
const scroller = (label: string, table: string): string =>
  `<div class="scroll" role="region" tabindex="0" aria-label="${label}">${table}</div>`;

/** An id attribute from a division's name: `division-a`, unique on the page. */
const slug = (name: string, i: number): string =>
  `division-${i + 1}-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;

/** How many rounds have any result, for the captions ("after round 3"). */
const roundsWithResults = (division: DivisionState): number =>
  division.rounds.reduce((n, r) => (r.byes.length > 0 || Object.keys(r.slips).length > 0 ? r.number : n), 0);

const STANDING_COLUMNS = ['Rank', 'Player', 'Rating', 'Class', 'Won–lost', 'Spread', 'Firsts', 'Seconds', 'Byes'];

const standingRow = (s: StandingRow): string => {
  const name = `${escapeHtml(s.entrant.name)}${s.withdrawn ? ' <span class="withdrawn">(withdrawn)</span>' : ''}`;
  const cells = [
    `<td>${s.rank}</td>`,
    `<th scope="row">${name}</th>`,
    `<td>${s.entrant.rating}</td>`,
    `<td>${s.entrant.class === null ? '' : escapeHtml(s.entrant.class)}</td>`,
    `<td>${formatRecord(s.wins, s.losses)}</td>`,
    `<td>${signed(s.spread)}</td>`,
    `<td>${s.firsts}</td>`,
    `<td>${s.seconds}</td>`,
    `<td>${s.byes}</td>`,
  ];
  return `<tr data-player="${s.entrant.number}">${cells.join('')}</tr>`;
};

const standingsTable = (division: DivisionState, captionSuffix: string): string => {
  const head = STANDING_COLUMNS.map((c) => `<th scope="col"${c === 'Player' ? ' class="name"' : ''}>${c}</th>`).join('');
  const rows = standings(division).map(standingRow).join('');
  const name = escapeHtml(division.spec.name);
  return scroller(
    `Standings of division ${name}`,
    `<table class="standings" data-division="${name}"><caption>Standings of division ${name}${captionSuffix}</caption>` +
      `<thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`,
  );
};

const RESULT_WORDS = { win: ['W', 'Won'], loss: ['L', 'Lost'], tie: ['T', 'Tied'] } as const;

/** Shown short, read in full: `W` on screen, "Won" to a screen reader. */
const shortFor = (short: string, full: string): string => `<span aria-hidden="true">${short}</span><span class="vh">${full}</span>`;

/** One crosstable cell: `W 420–380 v 5, first` on screen, "Won 420–380 v 5, first" to a screen reader. */
export const cellText = (c: CrosstableCell): string => {
  if (c.kind === 'none') return shortFor('—', 'No game');
  if (c.kind === 'bye') return `Bye ${signed(c.score ?? 0)}`;
  const position = c.position === 'neither' ? '' : `, ${c.position}`;
  const forfeit = c.forfeit ? ' (forfeit)' : '';
  if (c.result === null) return `v ${c.opponent}${position}`;
  const [letter, word] = RESULT_WORDS[c.result];
  return `${shortFor(letter, word)} ${c.score}–${c.opponentScore} v ${c.opponent}${position}${forfeit}`;
};

const crosstableRow = (row: CrosstableRow): string => {
  const s = row.standing;
  const cells = row.cells.map((c) => `<td data-round="${c.round}">${cellText(c)}</td>`).join('');
  return (
    `<tr data-player="${s.entrant.number}"><td>${s.entrant.number}</td><th scope="row">${escapeHtml(s.entrant.name)}</th>` +
    `${cells}<td>${formatRecord(s.wins, s.losses)} ${signed(s.spread)}</td></tr>`
  );
};

const crosstableTable = (division: DivisionState, captionSuffix: string): string => {
  const rounds = division.rounds.map((r) => `<th scope="col">Round ${r.number}</th>`).join('');
  const rows = crosstable(division).map(crosstableRow).join('');
  const name = escapeHtml(division.spec.name);
  return scroller(
    `Crosstable of division ${name}`,
    `<table class="crosstable" data-division="${name}">` +
      `<caption>Crosstable of division ${name}${captionSuffix}: per round the result, both scores, the opponent’s number, and first or second</caption>` +
      `<thead><tr><th scope="col">No.</th><th scope="col" class="name">Player</th>${rounds}<th scope="col">Total</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
};

const divisionSection = (division: DivisionState, index: number): string => {
  const id = slug(division.spec.name, index);
  const through = roundsWithResults(division);
  const suffix = through === 0 ? ', before round 1' : ` after round ${through} of ${division.rounds.length}`;
  const players = division.entrants.length;
  return (
    `<section aria-labelledby="${id}"><h2 id="${id}">Division ${escapeHtml(division.spec.name)}</h2>` +
    `<p>${players} ${players === 1 ? 'player' : 'players'}, ${division.rounds.length} ${division.rounds.length === 1 ? 'round' : 'rounds'}.</p>` +
    `<h3>Standings</h3>${standingsTable(division, suffix)}<h3>Crosstable</h3>${crosstableTable(division, suffix)}</section>`
  );
};

export interface StandingsPageOptions {
  /** The tournament's id, for the links between its pages. */
  readonly tournamentId: string;
  /** Only this division (its own page); default every division. */
  readonly division?: string;
  /** The instant the page shows (its footer). */
  readonly asOf: Date;
}

const divisionNav = (state: TournamentState, id: string): string => {
  if (state.divisions.length < 2) return '';
  const base = `/tournaments/${encodeURIComponent(id)}`;
  const links = state.divisions.map(
    (d) => `<li><a href="${base}/divisions/${encodeURIComponent(d.spec.name)}">Division ${escapeHtml(d.spec.name)}</a></li>`,
  );
  return `<nav aria-label="Divisions"><ul><li><a href="${base}">All divisions</a></li>${links.join('')}</ul></nav>`;
};

/**
 * The page: the tournament's name, a navigation between its divisions when it has several, and per
 * division (or only `options.division`) its standings and crosstable. Null when that division does not exist.
 */
export const renderStandingsPage = (state: TournamentState, options: StandingsPageOptions): string | null => {
  const shown = options.division === undefined ? state.divisions : state.divisions.filter((d) => d.spec.name === options.division);
  if (options.division !== undefined && shown.length === 0) return null;
  const title = options.division === undefined ? state.name : `${state.name}, division ${options.division}`;
  const sections = shown.map((d) => divisionSection(d, state.divisions.indexOf(d))).join('');
  const empty = state.divisions.length === 0 ? '<p>No divisions yet.</p>' : '';
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} — standings</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STANDINGS_CSS}</style></head>` +
    `<body><header><h1>${escapeHtml(title)}</h1>${divisionNav(state, options.tournamentId)}</header><main>${empty}${sections}</main>` +
    `<footer><p>Standings as of ${options.asOf.toISOString().slice(0, 16).replace('T', ' ')} UTC, computed from the tournament’s log (version ${state.version}).</p></footer></body></html>\n`
  );
};
