/**
 * The tournament service (issue 30) on PGlite and Postgres: creating a tournament of an event, an
 * over-the-board division of 8 run through the service (pairing, results, signatures, submission, a
 * change by ruling, standings), who may see and do what, idempotent retries, the version check under
 * concurrency, and that a refused command writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standings } from '../../engine/tournament/standings.js';
import type { TournamentCommand } from '../../engine/tournament/commands.js';
import {
  createTournament,
  exportTshDivision,
  getTournament,
  importTshDivision,
  listTournaments,
  standingsCsv,
  tournamentLog,
  type TournamentView,
} from '../../service/tournaments.js';
import type { PlayerRow } from '../../store/players.js';
import { codeOf, command, makeGlobalDirector, openSuite, roundIn, STORE_TARGETS, value, written, type Suite } from './fixture.js';

const RATINGS = [1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100];

describe.each(STORE_TARGETS)('tournament service on $kind', (target) => {
  let s: Suite;
  let td: PlayerRow;
  let other: PlayerRow;
  let stranger: PlayerRow;
  let accounts: PlayerRow[];
  let eventId: string;
  let clubId: string;

  beforeAll(async () => {
    s = await openSuite(target);
    td = await s.player('td');
    other = await s.player('otherdirector');
    stranger = await s.player('stranger');
    accounts = [];
    for (const h of ['ann', 'bob', 'cyd', 'dee']) accounts.push(await s.player(h));
    eventId = await s.organization('Saturday Open 2027', [td]);
    await s.organization('Another Event', [other]);
    clubId = await s.organization('Sunday Club', [td], 'club');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Division A: entrants 1–4 with accounts (ann … dee), 5–8 names only; 3 rounds of swiss. */
  const openDivision = async (options: { public?: boolean } = {}): Promise<TournamentView> =>
    value(
      await createTournament(s.deps, td.id, {
        organizationId: eventId,
        name: `Saturday Open ${randomUUID().slice(0, 6)}`,
        public: options.public ?? true,
        divisions: [
          {
            name: 'A',
            rounds: 3,
            players: RATINGS.map((rating, i) => (i < 4 ? { handle: accounts[i]!.handle, rating } : { name: `Name Only ${i + 1}`, rating })),
          },
        ],
      }),
    );

  it('creates a tournament only for a director of an event, with the defaults and nothing written on a refusal', async () => {
    const before = await written(s);
    const division = { name: 'A', rounds: 3 };
    expect(codeOf(await createTournament(s.deps, accounts[0]!.id, { organizationId: eventId, name: 'X', divisions: [division] }))).toBe(
      'NOT_DIRECTOR',
    );
    expect(codeOf(await createTournament(s.deps, other.id, { organizationId: eventId, name: 'X', divisions: [division] }))).toBe(
      'NOT_DIRECTOR',
    );
    expect(codeOf(await createTournament(s.deps, td.id, { organizationId: clubId, name: 'X', divisions: [division] }))).toBe(
      'NOT_AN_EVENT',
    );
    expect(codeOf(await createTournament(s.deps, td.id, { organizationId: randomUUID(), name: 'X', divisions: [division] }))).toBe(
      'ORGANIZATION_NOT_FOUND',
    );
    const badRule = await createTournament(s.deps, td.id, {
      organizationId: eventId,
      name: 'X',
      divisions: [{ ...division, overrides: { challenge: { points: 'ten' } } }],
    });
    expect(badRule.ok ? null : badRule.error.details?.['field']).toMatch(/^divisions\[0\]\./);
    const unknown = await createTournament(s.deps, td.id, {
      organizationId: eventId,
      name: 'X',
      divisions: [{ ...division, players: [{ handle: 'ann' }, { handle: 'nobody' }] }],
    });
    expect(unknown.ok ? null : [unknown.error.code, unknown.error.details?.['field']]).toEqual([
      'PLAYER_NOT_FOUND',
      'divisions[0].players[1].handle',
    ]);
    const twice = await createTournament(s.deps, td.id, { organizationId: eventId, name: 'X', divisions: [division, division] });
    expect(twice.ok ? null : [twice.error.code, twice.error.details?.['field']]).toEqual(['DIVISION_EXISTS', 'divisions[1].name']);
    expect(await written(s)).toEqual(before);

    const view = await openDivision();
    const d = view.state.divisions[0]!;
    expect(view.viewerRole).toBe('director');
    expect(d.spec).toMatchObject({
      mode: 'over-the-board',
      ruleSetId: 'NSA_2008',
      maxRepeats: 0,
      gibsonSpreadPerGame: 250,
      timeControl: null,
    });
    expect(d.spec.rounds.map((r) => r.method)).toEqual(['swiss', 'swiss', 'swiss']);
    expect(d.entrants.map((e) => e.playerId !== null)).toEqual([true, true, true, true, false, false, false, false]);
    expect(view.version).toBe(1 + 1 + 8);
    const log = value(await tournamentLog(s.deps, null, view.id, 0));
    expect(log.map((e) => e.type)).toEqual(['tournament-created', 'division-added', ...Array(8).fill('player-added')]);
    expect(log[1]!.payload['lexiconHash']).toBe(LEXICON_HASH());
    expect(log[0]!.by).toBe('td');
    expect(await s.t.db.prisma.tournamentPlayer.count({ where: { tournamentId: view.id } })).toBe(4);
  });

  const LEXICON_HASH = (): string | null => {
    const l = s.deps.lexicons.get(s.deps.lexicons.defaultName!);
    return l.ok ? l.value.hash : null;
  };

  it('runs an over-the-board division of 8: pairing, results, slips signed and submitted, a ruling, standings', async () => {
    const t = await openDivision();
    const run = (who: PlayerRow, c: TournamentCommand) => command(s, who, t.id, c);
    let view = value(await run(td, { type: 'pair-round', division: 'A', round: 1, method: null, seed: '' }));
    const r1 = roundIn(view, 'A', 1);
    expect(r1.status).toBe('paired');
    expect(r1.games).toHaveLength(4);
    expect(r1.seed).toMatch(/^[0-9a-f]{32}$/);
    const gameOf = (n: number) => r1.games.find((g) => g.first === n || g.second === n)!;
    const annGame = gameOf(1);
    const annPlayers = [annGame.first, annGame.second] as [number, number];
    const annScores = (annGame.first === 1 ? [420, 380] : [380, 420]) as [number, number];

    // ann records her own game; a stranger and a player of another game cannot sign its slip.
    value(
      await run(accounts[0]!, {
        type: 'record-result',
        division: 'A',
        round: 1,
        players: annPlayers,
        scores: annScores,
        kind: 'played',
        forfeiter: null,
        forfeitReason: null,
        gameId: null,
        final: false,
      }),
    );
    expect(codeOf(await run(stranger, { type: 'sign-slip', division: 'A', round: 1, players: annPlayers }))).toBe('NOT_ALLOWED');
    expect(codeOf(await run(accounts[1]!, { type: 'sign-slip', division: 'A', round: 1, players: annPlayers }))).toBe(
      'SLIP_SIGNER_NOT_IN_GAME',
    );
    expect(codeOf(await run(accounts[1]!, { type: 'submit-slip', division: 'A', round: 1, players: annPlayers }))).toBe('NOT_ALLOWED');
    value(await run(accounts[0]!, { type: 'sign-slip', division: 'A', round: 1, players: annPlayers }));
    // Her opponent has no account: the director hands the slip in.
    view = value(await run(td, { type: 'submit-slip', division: 'A', round: 1, players: annPlayers }));
    expect(roundIn(view, 'A', 1).slips[annGame.first]).toMatchObject({ status: 'submitted', signers: [1] });
    expect(
      codeOf(await run(accounts[0]!, { type: 'correct-slip', division: 'A', round: 1, players: annPlayers, scores: [430, 380] })),
    ).toBe('SLIP_SUBMITTED');

    // The other three games: the higher seed wins by 50 + 10·i.
    for (const [i, g] of r1.games.entries()) {
      if (g === annGame) continue;
      value(
        await run(td, {
          type: 'record-result',
          division: 'A',
          round: 1,
          players: [g.first, g.second],
          scores: [400 + 10 * i, 350],
          kind: 'played',
          forfeiter: null,
          forfeitReason: null,
          gameId: null,
          final: true,
        }),
      );
    }
    // After submission only a director's tally-slip-change ruling changes ann's slip: ann's game is reversed.
    const ruling = { kind: 'tally-slip-change' as const, reason: 'The scores were entered the wrong way round.', disputeId: null };
    view = value(
      await run(td, { type: 'change-slip', division: 'A', round: 1, players: annPlayers, scores: [annScores[1], annScores[0]], ruling }),
    );
    const slip = roundIn(view, 'A', 1).slips[annGame.first]!;
    expect(slip.changes).toEqual([
      expect.objectContaining({ ruling: expect.objectContaining(ruling), by: expect.objectContaining({ role: 'director', name: 'td' }) }),
    ]);

    view = value(await run(td, { type: 'end-round', division: 'A', round: 1 }));
    expect(roundIn(view, 'A', 1).status).toBe('ended');
    const rows = standings(view.state.divisions[0]!);
    expect(rows.filter((r) => r.wins === 1)).toHaveLength(4);
    expect(rows.find((r) => r.entrant.number === 1)!.wins).toBe(0);
    const csv = value(await standingsCsv(s.deps, null, t.id, 'A'));
    expect(csv.split('\r\n')[0]).toBe('rank,number,name,rating,class,wins,losses,spread,firsts,seconds,byes,played,withdrawn');
    expect(csv.split('\r\n')).toHaveLength(10);

    // Round 2 by swiss: no pair of round 1 meets again (maxRepeats 0).
    view = value(await run(td, { type: 'pair-round', division: 'A', round: 2, method: null, seed: 'fixed-seed' }));
    const met = new Set(r1.games.map((g) => [g.first, g.second].sort().join('-')));
    expect(roundIn(view, 'A', 2).games.some((g) => met.has([g.first, g.second].sort().join('-')))).toBe(false);
    expect(roundIn(view, 'A', 2).seed).toBe('fixed-seed');

    const kinds = await s.t.db.prisma.outboxMessage.findMany({
      where: { tournamentId: t.id },
      orderBy: { id: 'asc' },
      select: { kind: true },
    });
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['round-paired', 'result-recorded', 'slip-submitted', 'standings-changed']));
  });

  it('creates a tournament once for a retried request', async () => {
    const input = { organizationId: eventId, name: 'Retried Open', divisions: [{ name: 'A', rounds: 2 }] };
    const first = value(await createTournament(s.deps, td.id, input, 'create-1'));
    const again = value(await createTournament(s.deps, td.id, input, 'create-1'));
    expect(again.id).toBe(first.id);
    expect(codeOf(await createTournament(s.deps, td.id, { ...input, name: 'Other' }, 'create-1'))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await s.t.db.prisma.tournament.count({ where: { name: 'Retried Open' } })).toBe(1);
  });

  it('answers a retried command once and refuses a reused key', async () => {
    const t = await openDivision();
    const c: TournamentCommand = { type: 'add-player', division: 'A', name: 'Late Entry', playerId: null, rating: 1000, class: null };
    const first = value(await command(s, td, t.id, c, { idempotencyKey: 'k-1' }));
    const again = value(await command(s, td, t.id, c, { idempotencyKey: 'k-1' }));
    expect(again.version).toBe(first.version);
    expect(again.state.divisions[0]!.entrants).toHaveLength(9);
    expect(codeOf(await command(s, td, t.id, { ...c, name: 'Other' }, { idempotencyKey: 'k-1' }))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await written(s, t.id)).events).toBe(first.version);
  });

  it('lets exactly one of two commands at the same version through (VERSION_CONFLICT for the other)', async () => {
    const t = await openDivision();
    const add = (name: string) =>
      command(
        s,
        td,
        t.id,
        { type: 'add-player', division: 'A', name, playerId: null, rating: 900, class: null },
        { expectedVersion: t.version },
      );
    const results = await Promise.all([add('Racer One'), add('Racer Two')]);
    expect(results.map(codeOf).sort()).toEqual(['OK', 'VERSION_CONFLICT']);
    const conflict = results.find((r) => !r.ok)!;
    expect(conflict.ok ? null : conflict.error.details).toMatchObject({ expected: t.version, actual: t.version + 1 });
    expect((await written(s, t.id)).events).toBe(t.version + 1);
  });

  it('writes nothing for a refused command', async () => {
    const t = await openDivision();
    value(await command(s, td, t.id, { type: 'pair-round', division: 'A', round: 1, method: 'round-robin', seed: '' }));
    const before = await written(s, t.id);
    const refusals: TournamentCommand[] = [
      {
        type: 'record-result',
        division: 'A',
        round: 1,
        players: [1, 1],
        scores: [400, 300],
        kind: 'played',
        forfeiter: null,
        forfeitReason: null,
        gameId: null,
        final: false,
      },
      { type: 'pair-round', division: 'A', round: 2, method: 'swiss', seed: '' },
      { type: 'pair-round', division: 'B', round: 1, method: null, seed: '' },
      { type: 'end-round', division: 'A', round: 1 },
      { type: 'record-league-game', division: 'A', round: 1, players: [1, 8], gameId: randomUUID() },
    ];
    const codes = [];
    for (const c of refusals) codes.push(codeOf(await command(s, td, t.id, c, { idempotencyKey: randomUUID() })));
    expect(codes).toEqual([
      'GAME_NOT_IN_ROUND',
      'PREVIOUS_ROUND_NOT_FINISHED',
      'DIVISION_NOT_FOUND',
      'ROUND_HAS_OPEN_GAMES',
      'NOT_ALLOWED',
    ]);
    expect(await written(s, t.id)).toEqual(before);
  });

  it('hides a private tournament from everyone but its directors and players', async () => {
    const t = await openDivision({ public: false });
    const pub = await openDivision();
    expect(codeOf(await getTournament(s.deps, null, t.id))).toBe('TOURNAMENT_NOT_FOUND');
    expect(codeOf(await getTournament(s.deps, stranger.id, t.id))).toBe('TOURNAMENT_NOT_FOUND');
    expect(codeOf(await getTournament(s.deps, other.id, t.id))).toBe('TOURNAMENT_NOT_FOUND');
    expect(codeOf(await tournamentLog(s.deps, stranger.id, t.id, 0))).toBe('TOURNAMENT_NOT_FOUND');
    expect(codeOf(await command(s, stranger, t.id, { type: 'sign-slip', division: 'A', round: 1, players: [1, 5] }))).toBe(
      'TOURNAMENT_NOT_FOUND',
    );
    expect(value(await getTournament(s.deps, accounts[2]!.id, t.id))).toMatchObject({
      viewerRole: 'player',
      myEntrants: [{ division: 'A', number: 3 }],
    });
    expect(value(await getTournament(s.deps, stranger.id, pub.id)).viewerRole).toBe('public');

    const ids = async (callerId: string | null) =>
      value(await listTournaments(s.deps, callerId, { organizationId: eventId, first: 50 })).edges.map((e) => e.node.id);
    expect(await ids(null)).not.toContain(t.id);
    expect(await ids(stranger.id)).not.toContain(t.id);
    expect(await ids(null)).toContain(pub.id);
    expect(await ids(accounts[0]!.id)).toContain(t.id);
    expect(await ids(td.id)).toContain(t.id);
    await makeGlobalDirector(s, 'otherdirector');
    expect(value(await getTournament(s.deps, other.id, t.id)).viewerRole).toBe('director');
    expect(await ids(other.id)).toContain(t.id);
  });

  it('imports a real TSH division into a tournament and exports it back exactly; a bad line writes nothing', async () => {
    const t = await openDivision();
    const text = readFileSync(new URL('../fixtures/tsh/cop-2006-b.t', import.meta.url), 'utf8');
    const before = await written(s, t.id);
    const bad = await importTshDivision(s.deps, td.id, t.id, { name: 'B', rounds: 1 }, 'Edley, Joe 2007 1 2; 300 x00\n');
    expect(bad.ok ? null : [bad.error.code, bad.error.details?.['line'], bad.error.details?.['field']]).toEqual(['BAD_SCORE', 1, 'scores']);
    expect(codeOf(await importTshDivision(s.deps, accounts[0]!.id, t.id, { name: 'B', rounds: 1 }, text))).toBe('NOT_ALLOWED');
    expect(await written(s, t.id)).toEqual(before);
    const view = value(await importTshDivision(s.deps, td.id, t.id, { name: 'B', rounds: 1 }, text));
    const b = view.state.divisions.find((d) => d.spec.name === 'B')!;
    expect(b.rounds).toHaveLength(14);
    expect(b.rounds.every((r) => r.status === 'ended')).toBe(true);
    expect(value(await exportTshDivision(s.deps, null, t.id, 'B'))).toBe(text);
    const outbox = await s.t.db.prisma.outboxMessage.findMany({ where: { tournamentId: t.id, tournamentSeq: { gt: before.events } } });
    expect(outbox.map((m) => m.kind)).toEqual(['standings-changed']);
  });

  it('pages the tournament list', async () => {
    const all = value(await listTournaments(s.deps, td.id, { organizationId: eventId, first: 50 }));
    const page1 = value(await listTournaments(s.deps, td.id, { organizationId: eventId, first: 2 }));
    const page2 = value(await listTournaments(s.deps, td.id, { organizationId: eventId, first: 2, after: page1.edges[1]!.cursor }));
    expect([...page1.edges, ...page2.edges].map((e) => e.node.id)).toEqual(all.edges.slice(0, 4).map((e) => e.node.id));
    expect(page2).toMatchObject({ hasPreviousPage: true, totalCount: all.totalCount });
    expect(codeOf(await listTournaments(s.deps, td.id, { after: 'bm9wZQ' }))).toBe('CURSOR_INVALID');
  });
});
