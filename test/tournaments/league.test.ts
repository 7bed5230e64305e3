/**
 * A correspondence league (issue 30, item 8) on PGlite and Postgres: the director pairs and starts round 1,
 * Arbiter makes its games; a game's end (a resignation through the game service, a timeout by the deadline
 * sweeper) records the result as a final slip in the turn's transaction; the last result ends the round and
 * Arbiter pairs and starts the next one with its games. The tournament's webhooks reach the event's
 * directors and the games' players.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standings } from '../../engine/tournament/standings.js';
import type { RoundState } from '../../engine/tournament/state.js';
import { resignGame, sweepDeadlines } from '../../service/lifecycle.js';
import { createTournament, getTournament, type TournamentView } from '../../service/tournaments.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import type { PlayerRow } from '../../store/players.js';
import { command, openSuite, roundIn, START, STORE_TARGETS, value, written, type Suite } from './fixture.js';

const DAY = 24 * 3600 * 1000;
const at = (ms: number) => new Date(START.getTime() + ms);

describe.each(STORE_TARGETS)('correspondence league on $kind', (target) => {
  let s: Suite;
  let td: PlayerRow;
  let players: PlayerRow[];
  let t: TournamentView;

  beforeAll(async () => {
    s = await openSuite(target);
    td = await s.player('leaguedirector');
    players = [];
    for (const h of ['pia', 'quin', 'rae', 'sol']) players.push(await s.player(h));
    const eventId = await s.organization('Spring League 2027', [td]);
    t = value(
      await createTournament(s.deps, td.id, {
        organizationId: eventId,
        name: 'Spring League',
        divisions: [
          {
            name: 'L',
            mode: 'correspondence',
            rounds: 3,
            method: 'round-robin',
            roundPlans: [{}, {}, { deadline: at(20 * DAY).toISOString() }],
            players: players.map((p, i) => ({ handle: p.handle, rating: 1600 - 100 * i })),
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const player = (view: TournamentView, entrant: number): PlayerRow =>
    players.find((p) => p.id === view.state.divisions[0]!.entrants[entrant - 1]!.playerId)!;
  const gameIdsOf = (r: RoundState): string[] => r.games.map((g) => r.gameIds[g.first]!);

  it('needs an account for every player of a league', async () => {
    const c = await command(s, td, t.id, {
      type: 'add-player',
      division: 'L',
      name: 'No Account',
      playerId: null,
      rating: 1000,
      class: null,
    });
    expect(c.ok ? null : [c.error.code, c.error.details?.['field']]).toEqual(['BAD_INPUT', 'playerId']);
  });

  it('makes a started round’s games, records their ends and runs the next rounds itself', async () => {
    expect(t.state.divisions[0]!.spec.timeControl).toMatchObject({ kind: 'correspondence', turnSeconds: 3 * 24 * 3600, bankSeconds: 0 });
    let view = value(await command(s, td, t.id, { type: 'pair-round', division: 'L', round: 1, method: null, seed: '' }));
    expect(roundIn(view, 'L', 1).status).toBe('paired');
    expect((await written(s, t.id)).games).toBe(0);
    view = value(await command(s, td, t.id, { type: 'start-round', division: 'L', round: 1 }));
    const r1 = roundIn(view, 'L', 1);
    expect(r1.status).toBe('started');
    const ids = gameIdsOf(r1);
    expect(ids).toHaveLength(2);
    for (const [i, id] of ids.entries()) {
      const g = await s.t.db.prisma.game.findUniqueOrThrow({ where: { id }, include: { seats: { orderBy: { seat: 'asc' } } } });
      expect(g).toMatchObject({
        tournamentId: t.id,
        tournamentDivision: 'L',
        tournamentRound: 1,
        status: 'playing',
        organizationId: t.organizationId,
      });
      expect(g.seats.map((x) => x.playerId)).toEqual([player(view, r1.games[i]!.first).id, player(view, r1.games[i]!.second).id]);
    }

    // The first game: its first player resigns. The slip is final, the round goes on.
    s.setNow(at(DAY));
    value(await resignGame(s.deps, player(view, r1.games[0]!.first).id, ids[0]!));
    view = value(await getTournament(s.deps, td.id, t.id));
    const slip = roundIn(view, 'L', 1).slips[r1.games[0]!.first]!;
    expect(slip).toMatchObject({ status: 'submitted', signedForBoth: true, gameId: ids[0], kind: 'played', scores: [0, 50] });
    expect(slip.recordedAt).toBe(at(DAY).toISOString());
    expect(roundIn(view, 'L', 1).status).toBe('started');
    const ended = await s.t.db.prisma.outboxMessage.findFirstOrThrow({ where: { gameId: ids[0], kind: 'game-ended' } });
    expect(ended.payload).toMatchObject({ tournamentId: t.id, tournamentDivision: 'L', tournamentRound: 1 });

    // The second game: its second player resigns; the round ends and round 2 is paired, started and made.
    value(await resignGame(s.deps, player(view, r1.games[1]!.second).id, ids[1]!));
    view = value(await getTournament(s.deps, td.id, t.id));
    expect(roundIn(view, 'L', 1).status).toBe('ended');
    const r2 = roundIn(view, 'L', 2);
    expect(r2.status).toBe('started');
    expect(r2.history[0]!.by.role).toBe('system');
    expect(gameIdsOf(r2).every((id) => typeof id === 'string')).toBe(true);
    const pairs = (r: RoundState) => r.games.map((g) => [g.first, g.second].sort().join('-'));
    expect(pairs(r2).some((p) => pairs(r1).includes(p))).toBe(false);
    expect(standings(view.state.divisions[0]!).map((r) => r.wins)).toEqual([1, 1, 0, 0]);

    // Round 2: nobody moves; three days on, the deadline sweeper times both games out.
    const swept = await sweepDeadlines({ db: s.t.db, now: () => at(DAY + 3 * DAY + 1000) });
    expect(swept).toMatchObject({ scanned: 2, timedOut: 2 });
    s.setNow(at(5 * DAY));
    view = value(await getTournament(s.deps, td.id, t.id));
    const r2after = roundIn(view, 'L', 2);
    expect(Object.values(r2after.slips).map((x) => [x.kind, x.forfeitReason, x.status])).toEqual([
      ['forfeit', 'timeout', 'submitted'],
      ['forfeit', 'timeout', 'submitted'],
    ]);
    expect(r2after.status).toBe('ended');
    expect(roundIn(view, 'L', 3).status).toBe('started');
    expect(view.overdue).toEqual([]);

    // Past round 3's deadline with its games still on: overdue, left to the director.
    s.setNow(at(21 * DAY));
    view = value(await getTournament(s.deps, null, t.id));
    expect(view.overdue).toEqual([
      {
        division: 'L',
        round: 3,
        deadline: at(20 * DAY).toISOString(),
        openGames: roundIn(view, 'L', 3).games.map((g) => [g.first, g.second]),
      },
    ]);
    expect(await written(s, t.id)).toMatchObject({ games: 6 });
  });

  it('gives the odd player out a bye and still runs the league', async () => {
    const eventId = t.organizationId;
    const three = value(
      await createTournament(s.deps, td.id, {
        organizationId: eventId,
        name: 'Trio League',
        divisions: [
          {
            name: 'T',
            mode: 'correspondence',
            rounds: 3,
            method: 'round-robin',
            players: players.slice(0, 3).map((p) => ({ handle: p.handle })),
          },
        ],
      }),
    );
    value(await command(s, td, three.id, { type: 'pair-round', division: 'T', round: 1, method: null, seed: '' }));
    let view = value(await command(s, td, three.id, { type: 'start-round', division: 'T', round: 1 }));
    const r1 = roundIn(view, 'T', 1);
    expect([r1.games.length, r1.byes.length]).toEqual([1, 1]);
    value(await resignGame(s.deps, player(view, r1.games[0]!.first).id, gameIdsOf(r1)[0]!));
    view = value(await getTournament(s.deps, td.id, three.id));
    expect(roundIn(view, 'T', 1).status).toBe('ended');
    expect(roundIn(view, 'T', 2)).toMatchObject({ status: 'started', games: [expect.anything()], byes: [expect.anything()] });
    expect(roundIn(view, 'T', 2).byes[0]!.player).not.toBe(r1.byes[0]!.player);
  });

  it('announces the league to the directors and the players concerned', async () => {
    await s.subscribe(td, ['round-paired', 'standings-changed']);
    const first = players[0]!;
    await s.subscribe(first, ['result-recorded', 'slip-submitted']);
    await fanOutOutbox(s.t.db, { now: () => s.now() });
    const rows = await s.t.db.prisma.outboxMessage.findMany({ where: { tournamentId: t.id } });
    const deliveries = await s.t.db.prisma.webhookDelivery.findMany({
      where: { outbox: { tournamentId: t.id } },
      include: { subscription: true, outbox: true },
    });
    const to = (p: PlayerRow, kind: string) => deliveries.filter((d) => d.subscription.ownerId === p.id && d.kind === kind);
    expect(to(td, 'round-paired')).toHaveLength(rows.filter((r) => r.kind === 'round-paired').length);
    expect(to(td, 'round-paired').length).toBe(3);
    expect(to(td, 'standings-changed').length).toBeGreaterThan(0);
    const view = value(await getTournament(s.deps, first.id, t.id));
    const mine = view.myEntrants[0]!.number;
    const results = rows.filter((r) => r.kind === 'result-recorded');
    expect(to(first, 'result-recorded')).toHaveLength(
      results.filter((r) => ((r.payload as { entrants: number[] }).entrants ?? []).includes(mine)).length,
    );
    expect(to(first, 'result-recorded').length).toBe(2);
    expect(to(first, 'round-paired')).toHaveLength(0);
  });
});
