import { describe, expect, test } from 'vitest';
import { crosstable } from './crosstable.js';
import { divisionOf, type TournamentState } from './state.js';
import { formatRecord, standings } from './standings.js';
import { divisionSpec, override, result, run, tournamentWith } from './tournament.fixtures.js';

const division = (s: TournamentState) => divisionOf(s, 'A')!;

/** Three rounds of four players, results worked by hand in the comments below. */
const threeRounds = (order: 'forward' | 'backward') => {
  let s = tournamentWith(4, divisionSpec({ roundCount: 3, method: 'manual' }));
  s = run(
    s,
    override('A', 1, [
      [1, 2],
      [3, 4],
    ]),
  );
  s = run(
    s,
    override('A', 2, [
      [1, 3],
      [2, 4],
    ]),
  );
  s = run(
    s,
    override('A', 3, [
      [1, 4],
      [2, 3],
    ]),
  );
  const results = [
    result('A', 1, 1, 2, 400, 350),
    result('A', 1, 3, 4, 380, 380),
    result('A', 2, 1, 3, 300, 410),
    result('A', 2, 2, 4, 420, 400),
    result('A', 3, 1, 4, 390, 380),
    result('A', 3, 2, 3, 350, 360),
  ];
  for (const c of order === 'forward' ? results : results.reverse()) s = run(s, c);
  return s;
};

describe('standings', () => {
  // By hand: P1 W+50 L-110 W+10 = 2–1 −50; P2 L-50 W+20 L-10 = 1–2 −40; P3 T0 W+110 W+10 = 2½–½ +120; P4 T0 L-20 L-10 = ½–2½ −30.
  test('wins (a tie ½), losses, spread, ranks by wins then spread', () => {
    const rows = standings(division(threeRounds('forward')));
    expect(rows.map((r) => [r.rank, r.entrant.number, r.wins, r.losses, r.spread])).toEqual([
      [1, 3, 2.5, 0.5, 120],
      [2, 1, 2, 1, -50],
      [3, 2, 1, 2, -40],
      [4, 4, 0.5, 2.5, -30],
    ]);
  });

  test('firsts and seconds follow who went first', () => {
    const rows = standings(division(threeRounds('forward')));
    const fs = Object.fromEntries(rows.map((r) => [r.entrant.number, [r.firsts, r.seconds]]));
    expect(fs).toEqual({ 1: [3, 0], 2: [2, 1], 3: [1, 2], 4: [0, 3] });
  });

  test('the same numbers whatever order the results came in', () => {
    const strip = (s: TournamentState) => standings(division(s)).map((r) => [r.entrant.number, r.wins, r.spread, r.firsts, r.rank]);
    expect(strip(threeRounds('backward'))).toEqual(strip(threeRounds('forward')));
  });

  test('standings through a round count only that far', () => {
    const rows = standings(division(threeRounds('forward')), 1);
    expect(rows.map((r) => [r.entrant.number, r.wins, r.spread])).toEqual([
      [1, 1, 50],
      [3, 0.5, 0],
      [4, 0.5, 0],
      [2, 0, -50],
    ]);
  });

  test('a bye is a win by the rule set’s byeSpread (NSA 50) and counts neither first nor second', () => {
    let s = tournamentWith(5, divisionSpec({ roundCount: 2, method: 'manual' }));
    s = run(
      s,
      override(
        'A',
        1,
        [
          [1, 2],
          [3, 4],
        ],
        5,
      ),
    );
    const p5 = standings(division(s)).find((r) => r.entrant.number === 5)!;
    expect([p5.wins, p5.losses, p5.spread, p5.byes, p5.firsts, p5.seconds]).toEqual([1, 0, 50, 1, 0, 0]);
  });

  test('tiebreaks in order: Buchholz before spread when the rule set says so', () => {
    const s0 = threeRounds('forward');
    const patched = {
      ...s0,
      divisions: s0.divisions.map((d) => ({
        ...d,
        spec: {
          ...d.spec,
          rules: { ...d.spec.rules, tournament: { ...d.spec.rules.tournament, tiebreaks: ['buchholz', 'spread'] as const } },
        },
      })),
    };
    // Through round 2: P1 1–1 (opps P2 1, P3 1½ → 2½), P3 1½, P2 1–1 (opps P1 1, P4 ½ → 1½), P4 ½.
    const rows = standings(division(patched), 2);
    expect(rows.map((r) => [r.entrant.number, r.wins, r.buchholz])).toEqual([
      [3, 1.5, 1.5],
      [1, 1, 2.5],
      [2, 1, 1.5],
      [4, 0.5, 2.5],
    ]);
  });

  test('head-to-head among the tied players', () => {
    let s = tournamentWith(
      4,
      divisionSpec({
        roundCount: 1,
        method: 'manual',
        rulesPatch: (r) => ({ ...r, tournament: { ...r.tournament, tiebreaks: ['head-to-head', 'spread'] } }),
      }),
    );
    s = run(
      s,
      override('A', 1, [
        [1, 2],
        [3, 4],
      ]),
    );
    s = run(s, result('A', 1, 1, 2, 301, 300));
    s = run(s, result('A', 1, 3, 4, 500, 300));
    // P1 and P3 are 1–0; P1 beat nobody of the tied pair, nor did P3: spread decides (P3 +200).
    expect(standings(division(s)).map((r) => r.entrant.number)).toEqual([3, 1, 2, 4]);
  });
});

describe('crosstable', () => {
  test('each cell: opponent, first or second, both scores and the record so far', () => {
    const rows = crosstable(division(threeRounds('forward')));
    const p1 = rows.find((r) => r.standing.entrant.number === 1)!;
    expect(p1.cells.map((c) => [c.opponent, c.position, c.score, c.opponentScore, c.wins, c.losses, c.spread])).toEqual([
      [2, 'first', 400, 350, 1, 0, 50],
      [3, 'first', 300, 410, 1, 1, -60],
      [4, 'first', 390, 380, 2, 1, -50],
    ]);
  });
});

test.each([
  [5, 2, '5–2'],
  [4.5, 2.5, '4½–2½'],
  [0.5, 0.5, '½–½'],
])('formatRecord(%s, %s) = %s', (w, l, text) => expect(formatRecord(w, l)).toBe(text));

describe('standings CSV', () => {
  test('a header, then one RFC 4180 row per player in rank order; names with commas quoted', async () => {
    const { formatStandingsCsv } = await import('./standings-csv.js');
    let s = tournamentWith(2, divisionSpec({ roundCount: 1, method: 'manual' }));
    s = {
      ...s,
      divisions: s.divisions.map((d) => ({ ...d, entrants: d.entrants.map((e) => (e.number === 2 ? { ...e, name: 'Doe, "J"' } : e)) })),
    };
    s = run(s, override('A', 1, [[1, 2]]));
    s = run(s, result('A', 1, 1, 2, 350, 400));
    expect(formatStandingsCsv(standings(division(s)))).toBe(
      'rank,number,name,rating,class,wins,losses,spread,firsts,seconds,byes,played,withdrawn\r\n' +
        '1,2,"Doe, ""J""",1950,,1,0,50,0,1,0,1,false\r\n' +
        '2,1,Player 1,2000,,0,1,-50,1,0,0,1,false\r\n',
    );
  });
});
