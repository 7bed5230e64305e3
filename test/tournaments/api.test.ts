/**
 * Tournaments over GraphQL (issue 30, items 9–11), on PGlite and on Postgres: a director creates a
 * tournament of an event, adds eight players (two accounts, six names), pairs round 1, starts it, and the
 * results come in (from the director and from a player for their own game); the standings and the
 * crosstable are then what the results say. The typed errors: a non-director pairing (NOT_ALLOWED or
 * NOT_DIRECTOR), a result for a game not in the round (GAME_NOT_IN_ROUND, a RuleViolation), a slip signed
 * by a player of another game (SLIP_SIGNER_NOT_IN_GAME), a submitted slip corrected (SLIP_SUBMITTED), a
 * stale expectedVersion (StaleVersionError), a name-less player (ValidationError naming the field), an
 * unknown or private tournament (NotFoundError). A submitted slip changed by a ruling shows who and why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { freshKey, type Player } from '../e2e/client.js';
import { closeSuite, openSuite } from '../e2e/fixture.js';
import { EIGHT, eventDirectedBy, expectType, registerPlayers, run, scoresFor, type Json } from './client.js';

describe.each(STORE_TARGETS)('a tournament over GraphQL on $kind', (target) => {
  let api: TestApi;
  let admin: Player, dir: Player, ann: Player, ben: Player, cat: Player;
  let tournament: Json;
  let t: string;
  /** Round 1 as the director last saw it. */
  let round: Json;
  /** [first, second, firstScore, secondScore] of every game of round 1 as recorded. */
  const results = new Map<number, [number, number, number, number]>();

  beforeAll(async () => {
    api = await openSuite(target, 'tournament-api');
    [admin, dir, ann, ben, cat] = await registerPlayers(api, 'admin', 'dir', 'ann', 'ben', 'cat');
    const event = await eventDirectedBy(api, admin, dir, 'Saturday Open 2026');
    tournament = expectType(
      await run(
        api,
        'createTournament',
        {
          input: {
            organizationId: event,
            name: 'Saturday Open',
            divisions: [{ name: 'A', rounds: 3, method: 'SWISS', preset: 'NSA_2008' }],
          },
        },
        dir,
      ),
      'Tournament',
    );
    t = tournament.id;
  });
  afterAll(() => closeSuite(api));

  const version = async (): Promise<number> => expectType(await run(api, 'tournament', { id: t }, dir), 'Tournament').version;
  /** The event the tournament belongs to. */
  const eventOf = async (): Promise<string> => {
    const r = await api.gql(`query($id: ID!) { tournament(id: $id) { ... on Tournament { organizationId } } }`, { id: t });
    return r.body.data?.['tournament'].organizationId as string;
  };
  const game = (r: Json, player: number) => r.pairings.find((p: Json) => p.first === player || p.second === player) as Json;

  it('creates the tournament for its event’s director, public by default', () => {
    expect(tournament).toMatchObject({ name: 'Saturday Open', public: true, viewerRole: 'DIRECTOR', myEntrants: [] });
    expect(tournament.divisions).toEqual([{ name: 'A', mode: 'OVER_THE_BOARD', roundCount: 3, entrants: [], rounds: expect.any(Array) }]);
    expect(tournament.divisions[0].rounds.map((r: Json) => r.status)).toEqual(['UNPAIRED', 'UNPAIRED', 'UNPAIRED']);
  });

  it('adds eight players, accounts by handle and names only; a player with neither is a ValidationError naming the field', async () => {
    let division: Json = {};
    for (const p of EIGHT([ann, ben])) division = expectType(await run(api, 'addTournamentPlayer', { t, d: 'A', ...p }, dir), 'Division');
    expect(division.entrants.map((e: Json) => e.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(division.entrants[0]).toMatchObject({ name: 'ANN', playerId: ann.id, rating: 1900, class: 'A', withdrawnFromRound: null });
    expect(division.entrants[2]).toMatchObject({ name: 'Carter, Cy', playerId: null });
    const nameless = await run(api, 'addTournamentPlayer', { t, d: 'A', rating: 1000 }, dir);
    expect(nameless).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION', issues: [{ field: 'name' }] });
    // Ann now sees herself as a player of division A.
    expect(expectType(await run(api, 'tournament', { id: t }, ann), 'Tournament')).toMatchObject({
      viewerRole: 'PLAYER',
      myEntrants: [{ division: 'A', number: 1 }],
    });
  });

  it('only a director pairs: a player of the division and a stranger are refused, nothing is written', async () => {
    const before = await version();
    for (const p of [ann, cat]) {
      const refused = await run(api, 'pairRound', { t, d: 'A', r: 1, s: 'seed-1' }, p);
      expect(['NOT_ALLOWED', 'NOT_DIRECTOR'], JSON.stringify(refused)).toContain(refused.code);
    }
    expect(await version()).toBe(before);
  });

  it('the director pairs round 1 and starts it: four games, who goes first and why, the pairing kept with its author', async () => {
    round = expectType(await run(api, 'pairRound', { t, d: 'A', r: 1, s: 'seed-1', k: freshKey() }, dir), 'Round');
    expect(round).toMatchObject({ number: 1, division: 'A', status: 'PAIRED', method: 'SWISS', seed: 'seed-1', byes: [] });
    expect(round.pairings).toHaveLength(4);
    const everyone = round.pairings.flatMap((p: Json) => [p.first, p.second]).sort((a: number, b: number) => a - b);
    expect(everyone).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const p of round.pairings) {
      expect(p.firstName).not.toBe('');
      expect(p.slip).toBeNull();
      expect(p.repeats).toBe(0);
    }
    expect(round.history).toEqual([{ overridden: false, method: 'SWISS', reason: null, by: { role: 'DIRECTOR', name: 'dir' } }]);
    round = expectType(await run(api, 'startRound', { t, d: 'A', r: 1 }, dir), 'Round');
    expect(round.status).toBe('STARTED');
  });

  it('a result for two players who do not meet in the round is GAME_NOT_IN_ROUND, a RuleViolation', async () => {
    const mine = game(round, 1);
    const notMyOpponent = [2, 3, 4, 5].find((n) => n !== mine.first && n !== mine.second)!;
    const refused = await run(api, 'recordResult', { t, d: 'A', r: 1, p: 1, o: notMyOpponent, s: 400, os: 300 }, dir);
    expect(refused).toMatchObject({ __typename: 'RuleViolation', code: 'GAME_NOT_IN_ROUND' });
  });

  it('results come in: Ann enters her own game, the director the others; a retry with the same key records once', async () => {
    for (const p of round.pairings) {
      const [s, os] = scoresFor(p.first, p.second);
      const by = p.first === 1 || p.second === 1 ? ann : dir;
      const key = freshKey();
      const vars = { t, d: 'A', r: 1, p: p.first, o: p.second, s, os, k: key };
      round = expectType(await run(api, 'recordResult', vars, by), 'Round');
      const again = expectType(await run(api, 'recordResult', vars, by), 'Round');
      expect(again.version).toBe(round.version);
      results.set(p.first, [p.first, p.second, s, os]);
    }
    for (const p of round.pairings) {
      const [, , s, os] = results.get(p.first)!;
      expect(p.slip).toMatchObject({
        first: p.first,
        second: p.second,
        firstScore: s,
        secondScore: os,
        kind: 'PLAYED',
        status: 'RECORDED',
      });
    }
  });

  it('a player of another game may not sign a slip: SLIP_SIGNER_NOT_IN_GAME; a player signs their own', async () => {
    const annsGame = game(round, 1);
    const other = round.pairings.find((p: Json) => p !== annsGame && p.first !== 2 && p.second !== 2) as Json;
    const benIn = game(round, 2);
    // Ben signs a game he does not play in (Ann's, unless he is her opponent: then another one).
    const target = benIn === annsGame ? other : annsGame;
    const refused = await run(api, 'signSlip', { t, d: 'A', r: 1, p: target.first, o: target.second }, ben);
    expect(refused).toMatchObject({ code: 'SLIP_SIGNER_NOT_IN_GAME' });
    round = expectType(await run(api, 'signSlip', { t, d: 'A', r: 1, p: annsGame.first, o: annsGame.second }, ann), 'Round');
    expect(game(round, 1).slip.signers).toEqual([1]);
  });

  it('a submitted slip is corrected only by a ruling, which the slip keeps with who and why', async () => {
    const g = game(round, 8);
    const [first, second, s, os] = results.get(g.first)!;
    expectType(await run(api, 'submitSlip', { t, d: 'A', r: 1, p: first, o: second }, dir), 'Round');
    const refused = await run(api, 'correctSlip', { t, d: 'A', r: 1, p: first, o: second, s: s + 1, os }, dir);
    expect(refused).toMatchObject({ code: 'SLIP_SUBMITTED', citation: { source: 'seed-001' } });
    round = expectType(
      await run(
        api,
        'changeSlip',
        { t, d: 'A', r: 1, p: first, o: second, s: s + 10, os, why: 'The slip shows 10 fewer than agreed.' },
        dir,
      ),
      'Round',
    );
    expect(game(round, 8).slip).toMatchObject({
      firstScore: s + 10,
      status: 'SUBMITTED',
      changes: [
        {
          from: [s, os],
          to: [s + 10, os],
          by: { role: 'DIRECTOR', name: 'dir' },
          ruling: { kind: 'tally-slip-change', reason: 'The slip shows 10 fewer than agreed.' },
        },
      ],
    });
    results.set(first, [first, second, s + 10, os]);
  });

  it('the standings and the crosstable are what the results say', async () => {
    const answer = expectType(await run(api, 'standings', { id: t }), 'Tournament');
    const expected = new Map<number, { wins: number; spread: number; first: boolean; opponent: number; score: number; against: number }>();
    for (const [first, second, s, os] of results.values()) {
      expected.set(first, { wins: s > os ? 1 : 0, spread: s - os, first: true, opponent: second, score: s, against: os });
      expected.set(second, { wins: os > s ? 1 : 0, spread: os - s, first: false, opponent: first, score: os, against: s });
    }
    const rows = answer.division.standings as Json[];
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const r of rows) {
      const e = expected.get(r.number)!;
      expect(r).toMatchObject({
        wins: e.wins,
        losses: 1 - e.wins,
        spread: e.spread,
        firsts: e.first ? 1 : 0,
        seconds: e.first ? 0 : 1,
        byes: 0,
        played: 1,
      });
    }
    // Wins first, then spread (NASPA): the order of the rows.
    const key = (r: Json) => r.wins * 100000 + r.spread;
    expect(rows.map(key)).toEqual([...rows.map(key)].sort((a, b) => b - a));
    const cross = answer.division.crosstable as Json[];
    expect(cross.map((r) => r.number)).toEqual(rows.map((r) => r.number));
    for (const r of cross) {
      const e = expected.get(r.number)!;
      expect(r.cells[0]).toMatchObject({
        round: 1,
        kind: 'GAME',
        opponent: e.opponent,
        position: e.first ? 'FIRST' : 'SECOND',
        score: e.score,
        opponentScore: e.against,
        result: e.wins ? 'WIN' : 'LOSS',
        wins: e.wins,
        spread: e.spread,
      });
      expect(r.cells.slice(1).map((c: Json) => c.kind)).toEqual(['NONE', 'NONE']);
    }
  });

  it('a command decided on an older version is a StaleVersionError and writes nothing', async () => {
    const now = await version();
    const stale = await run(api, 'endRound', { t, d: 'A', r: 1, v: now - 1 }, dir);
    expect(stale).toMatchObject({ __typename: 'StaleVersionError', code: 'STALE_VERSION', expected: now - 1, actual: now });
    expect(await version()).toBe(now);
    round = expectType(await run(api, 'endRound', { t, d: 'A', r: 1, v: now }, dir), 'Round');
    expect(round.status).toBe('ENDED');
  });

  it('anyone reads a public tournament and finds it in its event’s list; a private one is NOT_FOUND but to its people', async () => {
    expectType(await run(api, 'tournament', { id: t }), 'Tournament');
    const list = await run(api, 'tournaments', { o: await eventOf() });
    expect(list.edges.map((e: Json) => e.node.id)).toContain(t);
    const unknown = await run(api, 'tournament', { id: '00000000-0000-0000-0000-000000000000' });
    expect(unknown).toMatchObject({ __typename: 'NotFoundError', code: 'TOURNAMENT_NOT_FOUND' });
    const hidden = expectType(
      await run(
        api,
        'createTournament',
        { input: { organizationId: await eventOf(), name: 'Staff Cup', public: false, divisions: [{ name: 'A', rounds: 1 }] } },
        dir,
      ),
      'Tournament',
    );
    expect(await run(api, 'tournament', { id: hidden.id })).toMatchObject({ __typename: 'NotFoundError', code: 'TOURNAMENT_NOT_FOUND' });
    expect(await run(api, 'tournament', { id: hidden.id }, cat)).toMatchObject({ code: 'TOURNAMENT_NOT_FOUND' });
    expectType(await run(api, 'tournament', { id: hidden.id }, dir), 'Tournament');
  });

  it('a mutation without a credential is UNAUTHENTICATED; a stranger may not add players', async () => {
    expect(await run(api, 'addTournamentPlayer', { t, d: 'A', n: 'Late, Lou' })).toMatchObject({ __typename: 'UnauthenticatedError' });
    const refused = await run(api, 'addTournamentPlayer', { t, d: 'A', n: 'Late, Lou' }, cat);
    expect(['NOT_ALLOWED', 'NOT_DIRECTOR']).toContain(refused.code);
  });
});
