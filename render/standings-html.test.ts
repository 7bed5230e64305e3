import { describe, expect, it } from 'vitest';
import { run, tournamentWith } from '../engine/tournament/tournament.fixtures.js';
import type { TournamentState } from '../engine/tournament/state.js';
import { renderStandingsPage } from './standings-html.js';

/** Five players (an odd round: a bye), one named with markup, round 1 paired and played, player 5 withdrawn from round 2. */
const played = (): TournamentState => {
  let s = tournamentWith(5);
  s = {
    ...s,
    name: 'Open <b>&</b>',
    divisions: [
      { ...s.divisions[0]!, entrants: s.divisions[0]!.entrants.map((e) => (e.number === 2 ? { ...e, name: '<script>x</script>' } : e)) },
    ],
  };
  s = run(s, { type: 'pair-round', division: 'A', round: 1, method: 'king-of-the-hill', seed: 's' });
  s = run(s, { type: 'start-round', division: 'A', round: 1 });
  for (const g of s.divisions[0]!.rounds[0]!.games)
    s = run(s, {
      type: 'record-result',
      division: 'A',
      round: 1,
      players: [g.first, g.second],
      scores: [400, 350],
      kind: 'played',
      forfeiter: null,
      forfeitReason: null,
      gameId: null,
      final: false,
    });
  return run(s, { type: 'withdraw-player', division: 'A', player: 5, fromRound: 2, reason: 'left' });
};

describe('the standings page (render/standings-html.ts)', () => {
  const html = renderStandingsPage(played(), { tournamentId: 't1', asOf: new Date('2026-03-07T12:00:00Z') })!;

  it('is a whole document in English with one h1, its text escaped', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<h1>Open &lt;b&gt;&amp;&lt;/b&gt;</h1>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script');
  });

  it('tables with captions, column and row headers; a bye, a withdrawal and a round not played', () => {
    expect(html).toContain('<caption>Standings of division A after round 1 of 7</caption>');
    expect(html.match(/<th scope="row">/g)).toHaveLength(10);
    expect(html).toContain('(withdrawn)');
    expect(html).toMatch(/<td data-round="1">Bye \+50<\/td>/);
    expect(html).toMatch(/<td data-round="2"><span aria-hidden="true">—<\/span><span class="vh">No game<\/span><\/td>/);
    expect(html).toMatch(/<span class="vh">Won<\/span> 400–350 v \d, first/);
  });

  it('one division alone; null for a division that does not exist; no links with a single division', () => {
    expect(renderStandingsPage(played(), { tournamentId: 't1', division: 'A', asOf: new Date() })).toContain(
      '<h1>Open &lt;b&gt;&amp;&lt;/b&gt;, division A</h1>',
    );
    expect(renderStandingsPage(played(), { tournamentId: 't1', division: 'Z', asOf: new Date() })).toBeNull();
    expect(html).not.toContain('<nav');
  });
});
