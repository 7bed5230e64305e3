/**
 * A recorded game's scorekeeper keeps the tournament slip of that game (issue 30, item 5): the result that
 * names the recorded game, the signature for both players, the submission. Anyone else naming the game
 * gets no such right. PGlite and Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordedGame } from '../../service/recorded-games.js';
import { createTournament } from '../../service/tournaments.js';
import type { PlayerRow } from '../../store/players.js';
import { codeOf, command, openSuite, roundIn, STORE_TARGETS, value, type Suite } from './fixture.js';

describe.each(STORE_TARGETS)('the scorekeeper of a recorded game on $kind', (target) => {
  let s: Suite;
  let td: PlayerRow, sam: PlayerRow, ann: PlayerRow, bob: PlayerRow, cyd: PlayerRow, dee: PlayerRow;
  let tournament: string;
  let gameId: string;

  beforeAll(async () => {
    s = await openSuite(target);
    [td, sam, ann, bob, cyd, dee] = [
      await s.player('td'),
      await s.player('sam'),
      await s.player('ann'),
      await s.player('bob'),
      await s.player('cyd'),
      await s.player('dee'),
    ];
    const event = await s.organization('Club Night 2027', [td]);
    const view = value(
      await createTournament(s.deps, td.id, {
        organizationId: event,
        name: 'Club Night',
        divisions: [
          {
            name: 'A',
            rounds: 1,
            method: 'manual',
            players: [
              { handle: 'ann', rating: 1800 },
              { handle: 'bob', rating: 1700 },
              { handle: 'cyd', rating: 1600 },
              { handle: 'dee', rating: 1500 },
            ],
          },
        ],
      }),
    );
    tournament = view.id;
    value(
      await command(s, td, tournament, {
        type: 'override-pairing',
        division: 'A',
        round: 1,
        games: [
          [1, 2],
          [3, 4],
        ],
        bye: null,
        reason: 'club night',
      }),
    );
    const game = value(await createRecordedGame(s.deps, sam.id, { players: [{ handle: 'ann' }, { handle: 'bob' }] }));
    gameId = game.id;
  });
  afterAll(async () => s?.close());

  const result = (players: [number, number], id: string | null) => ({
    type: 'record-result' as const,
    division: 'A',
    round: 1,
    players,
    scores: [402, 377] as [number, number],
    kind: 'played' as const,
    forfeiter: null,
    forfeitReason: null,
    gameId: id,
    final: false,
  });
  const onSlip = (type: 'sign-slip' | 'submit-slip') => ({ type, division: 'A', round: 1, players: [1, 2] as [number, number] });

  it('a stranger who names someone else’s recorded game is not its scorekeeper', async () => {
    expect(codeOf(await command(s, dee, tournament, result([1, 2], gameId)))).toBe('SLIP_SIGNER_NOT_IN_GAME');
    expect(codeOf(await command(s, cyd, tournament, result([3, 4], gameId)))).toBe('OK');
  });

  it('the scorekeeper records the result, signs for both players and submits the slip', async () => {
    value(await command(s, sam, tournament, result([1, 2], gameId)));
    value(await command(s, sam, tournament, onSlip('sign-slip')));
    const signed = roundIn(value(await command(s, sam, tournament, onSlip('submit-slip'))), 'A', 1).slips[1]!;
    expect([signed.status, signed.signedForBoth, signed.gameId, signed.changes.length]).toEqual(['submitted', true, gameId, 0]);
    expect(signed.scores).toEqual([402, 377]);
  });

  it('a player of the game is still a player, not its scorekeeper', async () => {
    expect(codeOf(await command(s, bob, tournament, onSlip('submit-slip')))).toBe('NOT_ALLOWED');
    expect(codeOf(await command(s, ann, tournament, onSlip('sign-slip')))).toBe('SLIP_SUBMITTED');
  });
});
