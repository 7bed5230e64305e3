import { describe, expect, test } from 'vitest';
import { decideTournament } from './decide.js';
import { divisionOf, type TournamentState } from './state.js';
import { standings } from './standings.js';
import { divisionSpec, override, refusal, result, run, T0, tournamentWith } from './tournament.fixtures.js';

const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const paired = (spec = divisionSpec({ roundCount: 3, method: 'manual' })): TournamentState =>
  run(
    tournamentWith(4, spec),
    override('A', 1, [
      [1, 2],
      [3, 4],
    ]),
  );
const startClock = { type: 'start-late-clock' as const, division: 'A', round: 1, player: 4 };
const forfeit = { type: 'forfeit-late' as const, division: 'A', round: 1, player: 4 };

describe('late arrival (seed-001 §1)', () => {
  test('the clock starts no earlier than 5 minutes after the announced start', () => {
    const early = decideTournament(paired(), startClock, { actor: { role: 'director', playerId: null, name: 'td' }, now: at(4) });
    expect(early.ok ? null : [early.error.code, early.error.citation?.source, early.error.citation?.rule]).toEqual([
      'LATE_CLOCK_TOO_EARLY',
      'seed-001',
      '§1',
    ]);
    expect(refusal(paired(), startClock, undefined, at(5))).toBe('OK');
  });

  test('the game is forfeited at 25 minutes, not before', () => {
    expect(refusal(paired(), forfeit, undefined, at(24))).toBe('LATE_FORFEIT_TOO_EARLY');
    const s = run(paired(), forfeit, undefined, at(25));
    const slip = divisionOf(s, 'A')!.rounds[0]!.slips[3]!;
    expect([slip.kind, slip.forfeiter, slip.forfeitReason, slip.scores, slip.status]).toEqual([
      'forfeit',
      4,
      'late-arrival',
      [50, 0],
      'submitted',
    ]);
  });

  test('or when the started clock would read −0:01, if that comes first', () => {
    const short = divisionSpec({ roundCount: 3, method: 'manual', rulesPatch: (r) => ({ ...r, time: { ...r.time, gameMinutes: 10 } }) });
    const s = run(paired(short), startClock, undefined, at(5));
    expect(refusal(s, forfeit, undefined, at(15))).toBe('LATE_FORFEIT_TOO_EARLY');
    expect(refusal(s, forfeit, undefined, new Date(Date.parse(at(15)) + 1000).toISOString())).toBe('OK');
  });

  test('a round without an announced start has no late arrival', () => {
    const noStart = divisionSpec({ rounds: [{ method: 'manual', startsAt: null, deadline: null }] });
    expect(refusal(paired(noStart), startClock, undefined, at(30))).toBe('NO_ANNOUNCED_START');
  });

  test('WESPA 2.3: the clock may start at once; the forfeit comes when the time is gone (a 100-point win)', () => {
    const wespa = divisionSpec({ ruleSetId: 'WESPA', roundCount: 3, method: 'manual' });
    expect(refusal(paired(wespa), startClock, undefined, at(0))).toBe('OK');
    const s = run(paired(wespa), startClock, undefined, at(0));
    expect(refusal(s, forfeit, undefined, at(25))).toBe('LATE_FORFEIT_TOO_EARLY');
    const done = run(s, forfeit, undefined, at(26));
    expect(divisionOf(done, 'A')!.rounds[0]!.slips[3]!.scores).toEqual([100, 0]);
  });
});

describe('forfeits and byes (seed-001 §4)', () => {
  test('a forfeiter counts first, then second, then first; the opponent and the bye neither', () => {
    let s = tournamentWith(5, divisionSpec({ roundCount: 3, method: 'manual' }));
    const noShow = (round: number, a: number, b: number) => ({
      type: 'record-result' as const,
      division: 'A',
      round,
      players: [a, b] as [number, number],
      scores: null,
      kind: 'forfeit' as const,
      forfeiter: 4,
      forfeitReason: 'no-show' as const,
      gameId: null,
      final: true,
    });
    s = run(
      s,
      override(
        'A',
        1,
        [
          [3, 4],
          [1, 2],
        ],
        5,
      ),
    );
    s = run(s, noShow(1, 3, 4));
    s = run(s, result('A', 1, 1, 2, 400, 300));
    s = run(
      s,
      override(
        'A',
        2,
        [
          [4, 1],
          [2, 5],
        ],
        3,
      ),
    );
    s = run(s, noShow(2, 4, 1));
    s = run(
      s,
      override(
        'A',
        3,
        [
          [2, 4],
          [5, 3],
        ],
        1,
      ),
    );
    s = run(s, noShow(3, 2, 4));
    const rows = Object.fromEntries(standings(divisionOf(s, 'A')!).map((r) => [r.entrant.number, r]));
    expect(rows[4]!.outcomes.map((o) => o.position)).toEqual(['first', 'second', 'first']);
    expect(rows[3]!.outcomes.map((o) => o.position)).toEqual(['neither', 'neither', 'second']);
    expect([rows[4]!.wins, rows[4]!.losses, rows[4]!.spread]).toEqual([0, 3, -150]);
    expect([rows[1]!.wins, rows[1]!.spread, rows[1]!.byes]).toEqual([3, 100 + 50 + 50, 1]);
  });
});
