/**
 * Matches over HTTP (issue 5; seed-003 rule 1, scoring 11), on PGlite and on Postgres: a two-game
 * match where combined points decide although each player won a game, a tie on combined points, the
 * first player alternating, open places and joinMatch, and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { setMatchWriteHookForTests } from '../../service/matches.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  act,
  CREATE_MATCH,
  findPlay,
  graphql,
  JOIN_GAME,
  MATCH_FIELDS,
  readGame,
  registerPlayer,
  type GameView,
  type Player,
  useFixedBagSeeds,
} from './client.js';

useFixedBagSeeds('matches');

const LEX: Lexicon = (() => {
  const l = LEXICONS.get('SOWPODS');
  if (!l.ok) throw new Error('the SOWPODS lexicon is not built: run npm run lexicons');
  return l.value;
})();

const ERRORS = `... on Error { __typename code message details }`;
const JOIN_MATCH = `mutation($id: ID!) { joinMatch(matchId: $id) { __typename ...MatchFields ${ERRORS} } } ${MATCH_FIELDS}`;
const MATCH = `query($id: ID!) { match(id: $id) { __typename ...MatchFields ${ERRORS} } } ${MATCH_FIELDS}`;
const ABORT_GAME = `mutation($id: ID!) { abortGame(gameId: $id) { __typename ... on Game { id status } ${ERRORS} } }`;
const MY_MATCHES = `query($first: Int, $after: String) { myMatches(first: $first, after: $after) { edges { cursor node { id status mySeat } } pageInfo { hasNextPage endCursor } } }`;

interface MatchView {
  __typename: 'Match';
  id: string;
  status: string;
  ruleSetId: string;
  gameCount: number;
  mySeat: number | null;
  combinedScores: number[];
  players: {
    seat: number;
    points: number;
    player: { id: string; handle: string } | null;
    firstSecond: { firsts: number; seconds: number; positions: string[] };
  }[];
  games: {
    index: number;
    firstSeat: number;
    scores: number[];
    game: {
      id: string;
      status: string;
      whoseTurn: number | null;
      mySeat: number | null;
      scores: number[];
      result: { reason: string; winner: number | null; loser: number | null } | null;
    };
  }[];
  result: {
    winner: { handle: string } | null;
    winnerSeat: number | null;
    tie: boolean;
    decidedBy: string;
    gameWinners: (number | null)[];
  } | null;
}
type MatchOrError = MatchView | { __typename: string; code: string; message: string; details: Record<string, unknown> | null };

const asMatch = (r: MatchOrError, what: string): MatchView => {
  if (r.__typename !== 'Match') throw new Error(`${what}: expected a Match, got ${JSON.stringify(r)}`);
  return r as MatchView;
};

describe.each(STORE_TARGETS)('matches over HTTP on $kind', (target) => {
  let api: TestApi;
  let n = 0;
  beforeAll(async () => {
    api = await openTestApi(target);
  }, 60_000);
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    setMatchWriteHookForTests(null);
    await api?.close();
  });

  const players = async (): Promise<[Player, Player]> => {
    n++;
    return [await registerPlayer(api, `ann-${n}`), await registerPlayer(api, `ben-${n}`)];
  };
  const create = async (p: Player, input: Record<string, unknown>) =>
    asMatch(await graphql<MatchOrError>(api, 'createMatch', CREATE_MATCH, { input }, p.token), 'createMatch');
  const read = async (p: Player, id: string) => asMatch(await graphql<MatchOrError>(api, 'match', MATCH, { id }, p.token), 'match');

  /** `p` plays the first valid word the finder sees on their rack; answers its score as the finder computed it, and the game after. */
  const playWord = async (p: Player, gameId: string): Promise<{ score: number; move: string; after: GameView }> => {
    const view = await readGame(api, p, gameId);
    const found = findPlay(view, LEX, true);
    if (!found) throw new Error(`no valid play for ${p.handle} with ${view.myRack}`);
    const after = await act(api, p, gameId, { play: { move: found.move } });
    expect(after.scores[view.mySeat!]).toBe(view.scores[view.mySeat!]! + found.score);
    return { score: found.score, move: found.move, after };
  };

  it('each player goes first once: game 1 the creator (seat 0), game 2 the opponent (seat 1); the games belong to the match', async () => {
    setBagSeedSourceForTests(() => `e2e-match-alternation-${target.kind}-0123456789abcdef`);
    const [ann, ben] = await players();
    const m = await create(ann, { opponent: ben.handle });
    expect(m).toMatchObject({
      status: 'playing',
      ruleSetId: 'MATCH_VARIANT',
      gameCount: 2,
      mySeat: 0,
      combinedScores: [0, 0],
      result: null,
    });
    expect(m.players.map((p) => [p.seat, p.player?.handle])).toEqual([
      [0, ann.handle],
      [1, ben.handle],
    ]);
    expect(m.games.map((g) => [g.index, g.firstSeat, g.game.whoseTurn, g.game.status, g.game.mySeat])).toEqual([
      [0, 0, 0, 'playing', 0],
      [1, 1, 1, 'playing', 0],
    ]);
    // The game rows point at the match, in order.
    const rows = await api.app.services.db.prisma.game.findMany({
      where: { matchId: m.id },
      orderBy: { matchIndex: 'asc' },
      select: { id: true, matchIndex: true },
    });
    expect(rows).toEqual(m.games.map((g) => ({ id: g.game.id, matchIndex: g.index })));
    // Ben sees the same match from seat 1; in game 2 it is his move.
    const asBen = await read(ben, m.id);
    expect(asBen.mySeat).toBe(1);
    expect((await readGame(api, ben, m.games[1]!.game.id)).isMyTurn).toBe(true);
    // Both games begun, none played yet: firsts so far are Ann first in game 1, Ben in game 2.
    expect(asBen.players.map((p) => p.firstSecond)).toEqual([
      { firsts: 1, seconds: 1, positions: ['first', 'second'] },
      { firsts: 1, seconds: 1, positions: ['second', 'first'] },
    ]);
    const mine = await graphql<{ edges: { node: { id: string; mySeat: number } }[] }>(api, 'myMatches', MY_MATCHES, {}, ben.token);
    expect(mine.edges.map((e) => e.node)).toEqual([{ id: m.id, status: 'playing', mySeat: 1 }]);
  });

  it('combined points decide the match even though each player won one game', async () => {
    // One seed for both games: Ben's opening rack in game 2 (he draws first) is Ann's in game 1.
    setBagSeedSourceForTests(() => `e2e-match-decided-${target.kind}-0123456789abcdef`);
    const [ann, ben] = await players();
    const m = await create(ann, { opponent: ben.handle });
    const [g1, g2] = [m.games[0]!.game.id, m.games[1]!.game.id];

    // Game 1: Ann plays, Ben resigns → Ann wins game 1.
    const annOpening = await playWord(ann, g1);
    const end1 = await act(api, ben, g1, { resign: true });
    expect(end1).toMatchObject({ status: 'ended', result: { reason: 'resigned', winner: 0, loser: 1 } });
    const mid = await read(ann, m.id);
    expect(mid).toMatchObject({ status: 'playing', result: null, combinedScores: end1.scores });

    // Game 2: Ben opens with the same move (same rack), Ann answers with a play of her own, then resigns → Ben wins game 2.
    const benOpening = await playWord(ben, g2);
    expect([benOpening.move, benOpening.score]).toEqual([annOpening.move, annOpening.score]);
    const annReply = await playWord(ann, g2);
    expect(annReply.score).toBeGreaterThan(0);
    const end2 = await act(api, ann, g2, { resign: true });
    expect(end2).toMatchObject({ status: 'ended', result: { reason: 'resigned', winner: 1, loser: 0 } });

    // Combined points from the games' final scores: Ann = her opening + her reply, Ben = his opening.
    const combined = [end1.scores[0]! + end2.scores[0]!, end1.scores[1]! + end2.scores[1]!];
    expect(combined).toEqual([annOpening.score + annReply.score, benOpening.score]);
    const done = await read(ben, m.id);
    expect(done).toMatchObject({
      status: 'ended',
      combinedScores: combined,
      result: { winner: { handle: ann.handle }, winnerSeat: 0, tie: false, decidedBy: 'combined-points', gameWinners: [0, 1] },
    });
    expect(done.games.map((g) => g.scores)).toEqual([end1.scores, end2.scores]);
    expect(done.players.map((p) => p.points)).toEqual(combined);
    // The stored status projection follows.
    expect((await api.app.services.db.prisma.match.findUniqueOrThrow({ where: { id: m.id } })).status).toBe('ended');
  });

  it('equal combined points: the match is a tie, though each player won a game', async () => {
    setBagSeedSourceForTests(() => `e2e-match-tied-${target.kind}-0123456789abcdef`);
    const [ann, ben] = await players();
    const m = await create(ann, { opponent: ben.handle });
    const [g1, g2] = [m.games[0]!.game.id, m.games[1]!.game.id];
    const annOpening = await playWord(ann, g1);
    const end1 = await act(api, ben, g1, { resign: true });
    // Game 2: Ben holds Ann's game-1 rack and plays the same move for the same points; Ann resigns.
    const benOpening = await playWord(ben, g2);
    expect(benOpening.score).toBe(annOpening.score);
    const end2 = await act(api, ann, g2, { resign: true });
    expect([end1.result!.winner, end2.result!.winner]).toEqual([0, 1]);
    const combined = [end1.scores[0]! + end2.scores[0]!, end1.scores[1]! + end2.scores[1]!];
    expect(combined).toEqual([annOpening.score, benOpening.score]);
    expect(await read(ann, m.id)).toMatchObject({
      status: 'ended',
      combinedScores: combined,
      result: { winner: null, winnerSeat: null, tie: true, decidedBy: 'combined-points', gameWinners: [0, 1] },
    });
  });

  it('an open place: the games wait until joinMatch seats the second player in all of them; the place is taken once', async () => {
    setBagSeedSourceForTests(() => `e2e-match-open-${target.kind}-${++n}-0123456789abcdef`);
    const [ann, ben] = await players();
    const cat = await registerPlayer(api, `cat-${n}`);
    const m = await create(ann, {});
    expect(m).toMatchObject({
      status: 'open',
      players: [
        { seat: 0, player: { handle: ann.handle } },
        { seat: 1, player: null },
      ],
    });
    expect(m.games.map((g) => [g.firstSeat, g.game.status])).toEqual([
      [0, 'open'],
      [1, 'open'],
    ]);
    const own = await graphql<MatchOrError>(api, 'joinMatch', JOIN_MATCH, { id: m.id }, ann.token);
    expect(own).toMatchObject({ code: 'ALREADY_SEATED' });
    const joined = asMatch(await graphql<MatchOrError>(api, 'joinMatch', JOIN_MATCH, { id: m.id }, ben.token), 'joinMatch');
    expect(joined).toMatchObject({
      status: 'playing',
      mySeat: 1,
      players: [{ player: { handle: ann.handle } }, { player: { handle: ben.handle } }],
    });
    expect(joined.games.map((g) => [g.firstSeat, g.game.status, g.game.whoseTurn, g.game.mySeat])).toEqual([
      [0, 'playing', 0, 1],
      [1, 'playing', 1, 1],
    ]);
    expect(await graphql<MatchOrError>(api, 'joinMatch', JOIN_MATCH, { id: m.id }, cat.token)).toMatchObject({
      __typename: 'RuleViolation',
      code: 'SEAT_TAKEN',
    });
  });

  it('errors: a rule set without matches, an unknown opponent, an unknown match', async () => {
    const [ann] = await players();
    expect(await graphql<MatchOrError>(api, 'createMatch', CREATE_MATCH, { input: { ruleSet: 'NSA_2008' } }, ann.token)).toMatchObject({
      __typename: 'RuleViolation',
      code: 'NOT_A_MATCH',
      details: { field: 'ruleSet' },
    });
    expect(await graphql<MatchOrError>(api, 'createMatch', CREATE_MATCH, { input: { opponent: 'nobody-here' } }, ann.token)).toMatchObject({
      __typename: 'NotFoundError',
      code: 'PLAYER_NOT_FOUND',
    });
    expect(await graphql<MatchOrError>(api, 'match', MATCH, { id: '00000000-0000-4000-8000-000000000000' }, ann.token)).toMatchObject({
      __typename: 'NotFoundError',
      code: 'MATCH_NOT_FOUND',
    });
    expect(await graphql<MatchOrError>(api, 'match', MATCH, { id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      __typename: 'UnauthenticatedError',
    });
  });
  it('the match row and its games are written in one transaction: a failure after the first game leaves neither', async () => {
    const [ann, ben] = await players();
    const db = api.app.services.db.prisma;
    const written: number[] = [];
    setMatchWriteHookForTests((index) => {
      written.push(index);
      if (index === 0) throw new Error('injected failure after the first game');
    });
    try {
      const r = await api.gql(CREATE_MATCH, { input: { opponent: ben.handle } }, ann.token);
      expect(r.body.errors?.length).toBeGreaterThan(0);
    } finally {
      setMatchWriteHookForTests(null);
    }
    // The first game was written before the failure, and rolled back with it.
    expect(written).toEqual([0]);
    expect(await db.match.count({ where: { OR: [{ creatorId: ann.id }, { opponentId: ben.id }] } })).toBe(0);
    expect(await db.seat.count({ where: { playerId: { in: [ann.id, ben.id] } } })).toBe(0);
    // Without the failure the same request creates the match with both games pointing at it.
    const m = await create(ann, { opponent: ben.handle });
    expect(await db.game.count({ where: { matchId: m.id } })).toBe(2);
  });

  it('joinGame refuses a game of a match (JOIN_THE_MATCH naming it); joinMatch still seats the player in every game', async () => {
    setBagSeedSourceForTests(() => `e2e-match-join-game-${target.kind}-${++n}-0123456789abcdef`);
    const [ann, ben] = await players();
    const m = await create(ann, {});
    const gameId = m.games[1]!.game.id;
    expect(await graphql(api, 'joinGame', JOIN_GAME, { id: gameId }, ben.token)).toMatchObject({
      __typename: 'RuleViolation',
      code: 'JOIN_THE_MATCH',
      details: { matchId: m.id, gameId },
    });
    // Nothing was taken: the seat is still open, and the match can be joined as a whole.
    expect((await read(ann, m.id)).games.map((g) => g.game.status)).toEqual(['open', 'open']);
    const joined = asMatch(await graphql<MatchOrError>(api, 'joinMatch', JOIN_MATCH, { id: m.id }, ben.token), 'joinMatch');
    expect(joined.games.map((g) => [g.game.status, g.game.mySeat])).toEqual([
      ['playing', 1],
      ['playing', 1],
    ]);
    // The creator, already seated, is refused the same way.
    expect(await graphql(api, 'joinGame', JOIN_GAME, { id: gameId }, ann.token)).toMatchObject({
      code: 'JOIN_THE_MATCH',
      details: { matchId: m.id },
    });
  });

  it('the turn that ends the last game stores the match status in its transaction; game-ended names the match', async () => {
    const [ann, ben] = await players();
    const m = await create(ann, { opponent: ben.handle });
    const [g1, g2] = [m.games[0]!.game.id, m.games[1]!.game.id];
    const stored = async () => (await api.app.services.db.prisma.match.findUniqueOrThrow({ where: { id: m.id } })).status;
    // Game 1: Ann (first) resigns; game 2: Ben (first) resigns. The match is not read in between.
    await act(api, ann, g1, { resign: true });
    expect(await stored()).toBe('playing');
    await act(api, ben, g2, { resign: true });
    expect(await stored()).toBe('ended');
    const ended = await api.app.services.db.prisma.outboxMessage.findMany({
      where: { gameId: { in: [g1, g2] }, kind: 'game-ended' },
      orderBy: { id: 'asc' },
    });
    expect(
      ended.map((o) => [o.gameId, (o.payload as { matchId?: string }).matchId, (o.payload as { matchIndex?: number }).matchIndex]),
    ).toEqual([
      [g1, m.id, 0],
      [g2, m.id, 1],
    ]);
    // Ann resigned game 1 at 0–0 and Ben game 2 at 0–0: equal combined points, a tie.
    expect(await read(ann, m.id)).toMatchObject({ status: 'ended', combinedScores: [0, 0], result: { tie: true, gameWinners: [1, 0] } });
  });

  it('an aborted game makes the match aborted at once, with no result; the other game can still be played out', async () => {
    const [ann, ben] = await players();
    const m = await create(ann, { opponent: ben.handle });
    const [g1, g2] = [m.games[0]!.game.id, m.games[1]!.game.id];
    expect(await graphql(api, 'abortGame', ABORT_GAME, { id: g1 }, ben.token)).toMatchObject({ __typename: 'Game', status: 'ended' });
    expect((await api.app.services.db.prisma.match.findUniqueOrThrow({ where: { id: m.id } })).status).toBe('aborted');
    expect(await read(ann, m.id)).toMatchObject({ status: 'aborted', result: null });
    const end2 = await act(api, ben, g2, { resign: true });
    expect(end2).toMatchObject({ status: 'ended', result: { reason: 'resigned', winner: 0 } });
    expect((await api.app.services.db.prisma.match.findUniqueOrThrow({ where: { id: m.id } })).status).toBe('aborted');
    expect(await read(ben, m.id)).toMatchObject({ status: 'aborted', result: null });
  });
});
