import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { divisionRatings, ratingLine } from './ratings.js';
import { divisionSpec, override, result, run, tournamentWith } from './tournament.fixtures.js';
import { exportTshDivision } from './tsh-division.js';
import { loadTshDivision } from './tsh-load.js';
import { formatTsh } from './tsh/format.js';
import { parseTsh } from './tsh/parse.js';
import { tshField, tshPlayers } from './tsh/document.js';
import type { DivisionState } from './state.js';

const DIR = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'tsh');
const read = (f: string) => readFileSync(join(DIR, f), 'utf8');

/** A real file as a division rated by `naspa`, and each line's `newr` as tsh wrote it. */
const realFile = (file: string) => {
  const text = read(file);
  const loaded = loadTshDivision(text);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const parsed = parseTsh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const division: DivisionState = { ...loaded.value.division, spec: { ...loaded.value.division.spec, ratingSystem: 'naspa' } };
  const newr = tshPlayers(parsed.value).map((l) => (tshField(l, 'newr') ?? []).map(Number));
  return { division, newr, ours: divisionRatings(division) };
};

describe('NASPA ratings against the newr of real .t files written by tsh', () => {
  test('cop-2023-a.t (26 rated players, 23 rounds, two segments): all 598 newr values, exactly', () => {
    const { newr, ours } = realFile('cop-2023-a.t');
    expect(ours.rounds).toBe(23);
    expect(newr.flat()).toHaveLength(598);
    newr.forEach((want, i) => expect(ours.players.get(i + 1)!.byRound, `entrant ${i + 1}`).toEqual(want));
  });

  test('team-pairings-2020-a.t (38 unrated players): round 1 exactly; later rounds are not claimed', () => {
    // Nobody is rated, so the newcomers' estimates have no anchor; from round 2 tsh's iteration does not
    // settle in 50 passes and it averages 50 more, a path we do not match (docs/tournaments.md).
    const { newr, ours } = realFile('team-pairings-2020-a.t');
    expect(newr).toHaveLength(38);
    newr.forEach((want, i) => expect(ours.players.get(i + 1)!.byRound[0], `entrant ${i + 1}`).toBe(want[0]));
  });

  test('the export keeps an imported file’s newr: the real files come back byte for byte', () => {
    for (const f of ['cop-2023-a.t', 'team-pairings-2020-a.t', 'cop-2006-b.t']) {
      const loaded = loadTshDivision(read(f));
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(formatTsh(exportTshDivision(loaded.value.division))).toBe(read(f));
    }
  });
});

describe('a division on Arbiter', () => {
  const spec = { ...divisionSpec({ roundCount: 3, method: 'manual' }), ratingSystem: 'naspa' };
  // Players 1–4 rated 2000, 1950, 1900, 1850 (the fixture's seeds).
  const played = () => {
    let s = tournamentWith(4, spec);
    s = run(
      s,
      override('A', 1, [
        [1, 2],
        [3, 4],
      ]),
    );
    s = run(s, result('A', 1, 1, 2, 400, 350));
    return s;
  };

  test('no rating out while a round has a game without a result; then every player has one', () => {
    const s = played();
    expect(divisionRatings(s.divisions[0]!).rounds).toBe(0);
    expect(ratingLine(s.divisions[0]!, 1)).toEqual({ ratingIn: 2000, ratingOut: null, ratingChange: null });
    const done = run(s, result('A', 1, 3, 4, 300, 420)).divisions[0]!;
    expect(divisionRatings(done).rounds).toBe(1);
    expect([1, 2, 3, 4].map((n) => ratingLine(done, n).ratingOut !== null)).toEqual([true, true, true, true]);
    expect(ratingLine(done, 4).ratingChange).toBeGreaterThan(0);
    expect(ratingLine(done, 3).ratingChange).toBeLessThan(0);
  });

  test('a forfeit before the game began is not rated; a correction changes the ratings after it', () => {
    let s = played();
    s = run(s, {
      type: 'record-result',
      division: 'A',
      round: 1,
      players: [3, 4],
      scores: null,
      kind: 'forfeit',
      forfeiter: 4,
      forfeitReason: 'no-show',
      gameId: null,
      final: true,
    });
    const d = s.divisions[0]!;
    expect([ratingLine(d, 3).ratingOut, ratingLine(d, 4).ratingOut]).toEqual([1900, 1850]);
    expect(ratingLine(d, 1).ratingChange).toBeGreaterThan(0);
  });

  test('the export writes newr after each complete round, and reading it back keeps it', () => {
    let s = played();
    s = run(s, result('A', 1, 3, 4, 300, 420));
    s = run(
      s,
      override('A', 2, [
        [1, 3],
        [2, 4],
      ]),
    );
    s = run(s, result('A', 2, 1, 3, 500, 300));
    s = run(s, result('A', 2, 2, 4, 390, 391));
    const d = s.divisions[0]!;
    const text = formatTsh(exportTshDivision(d));
    const lines = tshPlayers((parseTsh(text) as { ok: true; value: Parameters<typeof tshPlayers>[0] }).value);
    expect(lines.map((l) => tshField(l, 'newr'))).toEqual([1, 2, 3, 4].map((n) => divisionRatings(d).players.get(n)!.byRound.map(String)));
    const back = loadTshDivision(text, { rounds: 3 });
    if (!back.ok) throw new Error(back.error.message);
    expect(formatTsh(exportTshDivision(back.value.division))).toBe(text);
  });
});
