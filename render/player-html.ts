import { renderRatingChartSvg, type ChartPoint } from './rating-chart.js';

/**
 * A player's public page as HTML (issue 33, item 4; docs/players.md), from the data the player-profile
 * service answers (typed here structurally: render/ imports only engine/). Pure, no script; each rating's
 * chart is inlined as SVG (render/rating-chart.ts). Accessible as the standings page is
 * (render/standings-html.ts): `lang`, one `h1`, a heading per part, tables with captions and scoped
 * headers, results in words.
 */

export const PLAYER_PAGE_CSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1b1b1b;background:#fff;line-height:1.4}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:2px solid #a8894a}h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
a{color:#0b4f8a}a:focus{outline:3px solid #f0a020}table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}th,td{border:1px solid #c8c8c8;padding:.25rem .5rem;text-align:right;white-space:nowrap}
th[scope=row],th.name{text-align:left}thead th{background:#f3ecd9}svg{max-width:100%;height:auto}
`.trim();

export interface PlayerPageData {
  readonly handle: string;
  readonly displayName: string;
  readonly memberSince: Date;
  readonly ratings: readonly {
    readonly category: string;
    readonly rating: number;
    readonly deviation: number;
    readonly provisional: boolean;
    readonly games: number;
    readonly history: readonly ChartPoint[];
  }[];
  readonly records: readonly {
    readonly opponent: { readonly handle: string; readonly displayName: string };
    readonly wins: number;
    readonly draws: number;
    readonly losses: number;
    readonly games: number;
  }[];
  readonly recentGames: readonly {
    readonly gameId: string;
    readonly status: string;
    readonly opponent: { readonly handle: string; readonly displayName: string } | null;
    readonly result: string | null;
    readonly scores: readonly [number, number] | null;
  }[];
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const RESULT_WORDS: Readonly<Record<string, string>> = { win: 'Won', loss: 'Lost', draw: 'Tied', aborted: 'Aborted' };

const table = (caption: string, columns: readonly string[], rows: readonly string[]): string =>
  `<table><caption>${caption}</caption><thead><tr>${columns.map((c, i) => `<th scope="col"${i === 0 ? ' class="name"' : ''}>${c}</th>`).join('')}</tr></thead>` +
  `<tbody>${rows.join('')}</tbody></table>`;

const playerLink = (p: { handle: string; displayName: string }): string =>
  `<a href="/players/${encodeURIComponent(p.handle)}">${escapeHtml(p.displayName)}</a>`;

const ratingsPart = (d: PlayerPageData): string => {
  if (d.ratings.length === 0) return '<h2>Ratings</h2><p>No rated games yet.</p>';
  return (
    '<h2>Ratings</h2>' +
    d.ratings
      .map(
        (r) =>
          `<section><h3>${escapeHtml(r.category)}</h3><p>${Math.round(r.rating)}${r.provisional ? '? (provisional)' : ''}, ` +
          `deviation ${Math.round(r.deviation)}, ${r.games} rated game${r.games === 1 ? '' : 's'}.</p>` +
          renderRatingChartSvg({
            handle: d.handle,
            category: r.category,
            points: r.history,
            idPrefix: `chart-${r.category.replace('/', '-')}`,
          }) +
          '</section>',
      )
      .join('')
  );
};

/** The whole page. */
export const renderPlayerPage = (d: PlayerPageData): string => {
  const name = escapeHtml(d.displayName);
  const records = d.records.map(
    (r) =>
      `<tr><th scope="row">${playerLink(r.opponent)}</th><td>${r.wins}</td><td>${r.draws}</td><td>${r.losses}</td><td>${r.games}</td></tr>`,
  );
  const recent = d.recentGames.map(
    (g) =>
      `<tr><th scope="row">${g.opponent ? playerLink(g.opponent) : 'someone without an account'}</th>` +
      `<td>${g.result ? RESULT_WORDS[g.result] : 'In play'}</td><td>${g.scores ? `${g.scores[0]}–${g.scores[1]}` : ''}</td>` +
      `<td><a href="/play#game=${g.gameId}">Open the game</a></td></tr>`,
  );
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${name} (${escapeHtml(d.handle)})</title><style>${PLAYER_PAGE_CSS}</style></head><body><main>` +
    `<h1>${name} <small>(${escapeHtml(d.handle)})</small></h1><p>Member since ${d.memberSince.toISOString().slice(0, 10)}.</p>` +
    ratingsPart(d) +
    '<h2>Record against each opponent</h2>' +
    (records.length
      ? table('Finished games, rated and casual', ['Opponent', 'Won', 'Tied', 'Lost', 'Games'], records)
      : '<p>No finished games yet.</p>') +
    '<h2>Recent games</h2>' +
    (recent.length ? table('Latest games, latest first', ['Opponent', 'Result', 'Score', 'Game'], recent) : '<p>No games yet.</p>') +
    '</main></body></html>\n'
  );
};
