import { describe, expect, test } from 'vitest';
import { decideTournament } from './decide.js';
import { divisionOf, type TournamentState } from './state.js';
import { standings } from './standings.js';
import { divisionSpec, DIRECTOR, override, playerActor, refusal, result, run, T0, tournamentWith } from './tournament.fixtures.js';
import type { Actor } from './events.js';

const SCOREKEEPER: Actor = { role: 'scorekeeper', playerId: null, name: 'sk' };
const paired = (spec = divisionSpec({ roundCount: 2, method: 'manual' })): TournamentState =>
  run(
    tournamentWith(4, spec),
    override('A', 1, [
      [1, 2],
      [3, 4],
    ]),
  );
const slip = (s: TournamentState) => divisionOf(s, 'A')!.rounds[0]!.slips[1]!;
const on = (type: 'sign-slip' | 'submit-slip') => ({ type, division: 'A', round: 1, players: [1, 2] as [number, number] });

describe('tally slips (seed-001 §3)', () => {
  test('a player of the game records it; a stranger may not, nor sign it', () => {
    expect(refusal(paired(), result('A', 1, 1, 2, 400, 350), playerActor(3))).toBe('SLIP_SIGNER_NOT_IN_GAME');
    const s = run(paired(), result('A', 1, 2, 1, 350, 400), playerActor(2));
    expect(slip(s).scores).toEqual([400, 350]); // first player first, whatever order it was given in
    expect(refusal(s, on('sign-slip'), playerActor(4))).toBe('SLIP_SIGNER_NOT_IN_GAME');
  });

  test('signed by both, submitted; then only a director’s ruling changes it, and the change is on the record', () => {
    let s = run(paired(), result('A', 1, 1, 2, 400, 350), playerActor(1));
    s = run(s, { type: 'correct-slip', division: 'A', round: 1, players: [1, 2], scores: [410, 350] }, playerActor(2));
    expect(refusal(s, on('submit-slip'), SCOREKEEPER)).toBe('SLIP_NOT_SIGNED');
    s = run(s, on('sign-slip'), playerActor(1));
    expect(refusal(s, on('sign-slip'), playerActor(1))).toBe('SLIP_ALREADY_SIGNED');
    s = run(s, on('sign-slip'), playerActor(2));
    expect(slip(s).status).toBe('signed');
    s = run(s, on('submit-slip'), SCOREKEEPER);
    expect(slip(s).status).toBe('submitted');
    const correct = {
      type: 'correct-slip' as const,
      division: 'A',
      round: 1,
      players: [1, 2] as [number, number],
      scores: [300, 350] as [number, number],
    };
    const refused = decideTournament(s, correct, { actor: playerActor(1), now: T0 });
    expect(refused.ok ? null : [refused.error.code, refused.error.citation]).toEqual([
      'SLIP_SUBMITTED',
      { source: 'seed-001', rule: '§3', verification: 'Seed' },
    ]);
    const change = {
      type: 'change-slip' as const,
      division: 'A',
      round: 1,
      players: [1, 2] as [number, number],
      scores: [340, 350] as [number, number],
      ruling: { kind: 'tally-slip-change' as const, reason: 'score sheets show 340', disputeId: null },
    };
    expect(refusal(s, change, playerActor(1))).toBe('NOT_ALLOWED');
    s = run(s, change, DIRECTOR, '2026-03-07T12:00:00.000Z');
    expect(slip(s).scores).toEqual([340, 350]);
    expect(slip(s).changes.map((c) => [c.from, c.to, c.ruling?.reason ?? null, c.by.role])).toEqual([
      [[400, 350], [410, 350], null, 'player'],
      [[410, 350], [340, 350], 'score sheets show 340', 'director'],
    ]);
    const p1 = standings(divisionOf(s, 'A')!).find((r) => r.entrant.number === 1)!;
    expect([p1.wins, p1.losses, p1.spread]).toEqual([0, 1, -10]);
  });

  test('a correction clears the signatures: the corrected slip is signed again', () => {
    let s = run(paired(), result('A', 1, 1, 2, 400, 350));
    s = run(s, on('sign-slip'), playerActor(1));
    s = run(s, { type: 'correct-slip', division: 'A', round: 1, players: [1, 2], scores: [401, 350] }, playerActor(2));
    expect([slip(s).status, slip(s).signers]).toEqual(['recorded', []]);
  });

  test('WESPA 5.4.1: after submission only reversed scores change', () => {
    let s = paired(divisionSpec({ ruleSetId: 'WESPA', roundCount: 2, method: 'manual' }));
    s = run(s, result('A', 1, 1, 2, 400, 350, true), SCOREKEEPER);
    const ruling = { kind: 'tally-slip-change' as const, reason: 'scores entered reversed', disputeId: null };
    expect(refusal(s, { type: 'change-slip', division: 'A', round: 1, players: [1, 2], scores: [390, 350], ruling })).toBe(
      'SLIP_CHANGE_NOT_ALLOWED',
    );
    expect(refusal(s, { type: 'change-slip', division: 'A', round: 1, players: [1, 2], scores: [350, 400], ruling })).toBe('OK');
  });

  test('WESPA 3.5(d): a signed slip is not corrected', () => {
    let s = run(paired(divisionSpec({ ruleSetId: 'WESPA', roundCount: 2, method: 'manual' })), result('A', 1, 1, 2, 400, 350));
    s = run(s, on('sign-slip'), playerActor(2));
    expect(refusal(s, { type: 'correct-slip', division: 'A', round: 1, players: [1, 2], scores: [401, 350] }, playerActor(1))).toBe(
      'SLIP_SIGNED',
    );
  });

  test.each([
    ['a game not in the round', result('A', 1, 1, 3, 400, 350), 'GAME_NOT_IN_ROUND'],
    ['a round that does not exist', result('A', 9, 1, 2, 400, 350), 'ROUND_NOT_FOUND'],
    ['a division that does not exist', result('B', 1, 1, 2, 400, 350), 'DIVISION_NOT_FOUND'],
    ['a score that is not a whole number', result('A', 1, 1, 2, 400.5, 350), 'BAD_INPUT'],
    ['a round not yet paired', result('A', 2, 1, 2, 400, 350), 'ROUND_NOT_PAIRED'],
  ])('refused: %s', (_what, command, code) => expect(refusal(paired(), command)).toBe(code));

  test('a second result for the same game is refused: the slip is corrected instead', () => {
    expect(refusal(run(paired(), result('A', 1, 1, 2, 400, 350)), result('A', 1, 2, 1, 350, 400))).toBe('RESULT_EXISTS');
  });

  test('a tie where the rule set forbids one', () => {
    const noTies = divisionSpec({
      roundCount: 2,
      method: 'manual',
      rulesPatch: (r) => ({ ...r, tournament: { ...r.tournament, tiesAllowed: false } }),
    });
    expect(refusal(paired(noTies), result('A', 1, 1, 2, 380, 380))).toBe('TIE_NOT_ALLOWED');
    expect(refusal(paired(), result('A', 1, 1, 2, 380, 380))).toBe('OK');
  });

  test('the change is the tally-slip-change dispute, ruled under the division’s rule set', () => {
    const s = run(paired(), result('A', 1, 1, 2, 400, 350, true), SCOREKEEPER);
    const change = (findings: Record<string, boolean>) => ({
      type: 'change-slip' as const,
      division: 'A',
      round: 1,
      players: [1, 2] as [number, number],
      scores: [390, 350] as [number, number],
      ruling: { kind: 'tally-slip-change' as const, reason: 'as found', disputeId: null, findings },
    });
    const stands = decideTournament(s, change({ slipMatchesAgreedScore: true }), { actor: DIRECTOR, now: T0 });
    expect(stands.ok ? null : [stands.error.code, stands.error.details?.['ruling'], stands.error.citation?.source]).toEqual([
      'SLIP_CHANGE_NOT_ALLOWED',
      'RESULT_STANDS',
      'seed-001',
    ]);
    const discretion = run(s, change({ slipMatchesAgreedScore: true, unethicalConductProven: true }));
    expect(slip(discretion).changes[0]!.ruling).toMatchObject({
      code: 'DIRECTOR_DISCRETION',
      citations: [{ source: 'seed-001', rule: '§3' }],
    });
    expect(slip(run(s, change({}))).changes[0]!.ruling?.code).toBe('SLIP_CORRECTED');
  });

  test('a player files a dispute on a submitted slip; the director upholds it with a change, or dismisses it', () => {
    let s = run(paired(), result('A', 1, 1, 2, 400, 350, true), SCOREKEEPER);
    const file = (by: number, scores: [number, number]) => ({
      type: 'file-slip-dispute' as const,
      division: 'A',
      round: 1,
      players: [by, by === 1 ? 2 : 1] as [number, number],
      scores,
      reason: 'my sheet says otherwise',
    });
    expect(refusal(s, file(3, [350, 400]), playerActor(3))).toBe('GAME_NOT_IN_ROUND');
    expect(refusal(s, file(1, [390, 350]), DIRECTOR)).toBe('NOT_ALLOWED');
    s = run(s, file(2, [360, 400]), playerActor(2));
    expect(refusal(s, file(1, [400, 360]), playerActor(1))).toBe('DISPUTE_OPEN');
    expect(slip(s).disputes).toMatchObject([{ number: 1, scores: [400, 360], status: 'open', by: { entrant: 2 } }]);
    const change = (disputeId: string) => ({
      type: 'change-slip' as const,
      division: 'A',
      round: 1,
      players: [1, 2] as [number, number],
      scores: [400, 360] as [number, number],
      ruling: { kind: 'tally-slip-change' as const, reason: 'sheets agree on 360', disputeId },
    });
    expect(refusal(s, change('7'))).toBe('DISPUTE_NOT_FOUND');
    s = run(s, change('1'));
    expect([slip(s).scores, slip(s).disputes[0]!.status, slip(s).disputes[0]!.ruledReason]).toEqual([
      [400, 360],
      'upheld',
      'sheets agree on 360',
    ]);
    s = run(s, file(1, [410, 360]), playerActor(1));
    const dismiss = {
      type: 'dismiss-slip-dispute' as const,
      division: 'A',
      round: 1,
      players: [2, 1] as [number, number],
      number: 2,
      reason: 'no score sheet shows 410',
    };
    expect(refusal(s, dismiss, playerActor(2))).toBe('NOT_ALLOWED');
    s = run(s, dismiss);
    expect([slip(s).scores, slip(s).disputes.map((d) => d.status)]).toEqual([
      [400, 360],
      ['upheld', 'dismissed'],
    ]);
    expect(s.slipDisputes).toBe(2);
  });

  test('a slip not yet submitted is corrected, not disputed', () => {
    const s = run(paired(), result('A', 1, 1, 2, 400, 350));
    expect(
      refusal(s, { type: 'file-slip-dispute', division: 'A', round: 1, players: [1, 2], scores: [410, 350], reason: 'x' }, playerActor(1)),
    ).toBe('SLIP_NOT_SUBMITTED');
  });
});
