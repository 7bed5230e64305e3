/**
 * Complete games over HTTP (`yoga.fetch`) between two registered players, one per rule-set preset,
 * on PGlite and on Postgres. Each player reads only their own view (`game(id)`) and picks moves from
 * their own rack; the assertions are facts a person can check from the rules: a valid challenge
 * costs what the preset says, a withdrawn phony takes its score back, six scoreless turns (or four
 * exchanges in a row) end the game with each rack's value deducted, a resignation loses.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../engine/game/events.js';
import { isGameEventType } from '../../engine/game/events.js';
import { verifyDraws } from '../../engine/game/verify.js';
import { parseGcg } from '../../engine/gcg/parse.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { LEXICONS, STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  act,
  findPlay,
  GAME_RECORD,
  graphql,
  rackPoints,
  readGame,
  refused,
  type Action,
  type GameView,
  type Player,
  useFixedBagSeeds,
} from './client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from './fixture.js';

useFixedBagSeeds('presets');

const LEX: Lexicon = (() => {
  const l = LEXICONS.get('SOWPODS');
  if (!l.ok) throw new Error('the SOWPODS lexicon is not built: run npm run lexicons');
  return l.value;
})();

const sorted = (rack: string) => [...rack].sort().join('');

describe.each(STORE_TARGETS)('complete games under each preset on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openSuite(target, `e2e-preset-seed-${target.kind}`);
  });
  afterAll(() => closeSuite(api));

  const newGame = async (preset: string): Promise<{ a: Player; b: Player; id: string; start: GameView }> => {
    const tag = preset.toLowerCase();
    const [a, b] = await registerPlayers(api, `a-${tag}`, `b-${tag}`);
    const start = await createGameAs(api, a, { ruleSet: preset, opponent: b.handle });
    expect(start).toMatchObject({
      status: 'playing',
      mySeat: 0,
      whoseTurn: 0,
      isMyTurn: true,
      bagCount: 100 - 14,
      ruleSet: { id: preset },
    });
    expect(start.myRack).toHaveLength(7);
    return { a, b, id: start.id, start };
  };

  /** `p` plays a word from their rack (valid or a phony); answers the play and the view after it. */
  const playWord = async (p: Player, id: string, valid: boolean) => {
    const before = await readGame(api, p, id);
    const found = findPlay(before, LEX, valid);
    if (!found) throw new Error(`no ${valid ? 'valid play' : 'phony'} for ${p.handle} with ${before.myRack}`);
    const after = await act(api, p, id, { play: { move: found.move } });
    const me = before.mySeat!;
    // The play's score is the sum of its words (no bingo with at most three tiles), and it is added to the mover's total.
    expect(after.lastMove).toMatchObject({ seat: me, kind: 'play', score: found.score, cumulative: before.scores[me]! + found.score });
    expect(after.lastMove!.words.reduce((s, w) => s + w.score, 0)).toBe(found.score);
    for (const w of after.lastMove!.words) expect(w.score).toBe(w.letterSum * w.wordMultiplier);
    expect(after.scores[me]).toBe(before.scores[me]! + found.score);
    return { found, before, after };
  };

  /** Alternating passes from `first` until the game ends; checks it ends on exactly the sixth (scoreless-turns). */
  const sixPasses = async (first: Player, second: Player, id: string) => {
    const order = [first, second, first, second, first, second];
    const racks = [await readGame(api, first, id), await readGame(api, second, id)].map((v) => ({ seat: v.mySeat!, rack: v.myRack! }));
    const before = (await readGame(api, first, id)).scores;
    let g!: GameView;
    for (const [i, p] of order.entries()) {
      g = await act(api, p, id, { pass: true });
      expect(g.status, `after pass ${i + 1}`).toBe(i < 5 ? 'playing' : 'ended');
    }
    expect(g.result).toMatchObject({ reason: 'scoreless-turns', loser: null });
    // Each player loses the face value of the tiles left on their own rack (NASPA B6, WESPA 5.2).
    for (const { seat, rack } of racks) {
      const adj = g.result!.adjustments.find((a) => a.seat === seat)!;
      expect(sorted(adj.tiles)).toBe(sorted(rack));
      expect(adj).toMatchObject({ kind: 'own-rack', points: -rackPoints(rack) });
      expect(g.scores[seat]).toBe(before[seat]! - rackPoints(rack));
    }
    expect(g.result!.winner).toBe(g.scores[0] === g.scores[1] ? null : g.scores[0]! > g.scores[1]! ? 0 : 1);
    return g;
  };

  /** After the end: the seed is revealed, hashes to the commitment, re-derives every draw, and the record holds it. */
  const checkFinished = async (a: Player, id: string, final: GameView) => {
    const seed = final.result!.bagSeed!;
    expect(seed).toMatch(/^e2e-preset-seed-/);
    expect(createHash('sha256').update(seed).digest('hex')).toBe(final.bagCommitment);
    const rows = await api.app.services.db.prisma.gameEvent.findMany({ where: { gameId: id }, orderBy: { seq: 'asc' } });
    expect(rows).toHaveLength(final.version);
    const events = rows.filter((r) => isGameEventType(r.type)).map((r) => r.payload as unknown as GameEvent);
    expect(verifyDraws(seed, events)).toMatchObject({ ok: true });
    const record = await graphql<{ gcg: string; complete: boolean; bagSeed: string }>(api, 'gameRecord', GAME_RECORD, { id }, a.token);
    expect(record).toMatchObject({ complete: true, bagSeed: seed });
    expect(record.gcg).toContain(`#bag-seed ${seed}`);
    const doc = parseGcg(record.gcg);
    if (!doc.ok) throw new Error(doc.error.message);
    const plays = final.history.filter((m) => m.kind === 'play').map((m) => m.notation);
    expect(doc.value.events.filter((e) => e.kind === 'move' && e.move.kind === 'play').length).toBe(plays.length);
    // Every rack is in the record once the game is over.
    expect(doc.value.events.filter((e) => e.kind === 'move').every((e) => e.rack !== '')).toBe(true);
  };

  it('NSA_2008: double challenge — a valid word costs the challenger the turn, a phony is withdrawn; an exchange; six scoreless turns end it', async () => {
    const { a, b, id } = await newGame('NSA_2008');
    const { found: w1 } = await playWord(a, id, true);
    const lost = await act(api, b, id, { challenge: {} });
    expect(lost.lastMove).toMatchObject({ seat: 1, kind: 'turn-lost', score: 0 });
    expect(lost.history.at(-2)).toMatchObject({ seat: 1, kind: 'challenge' });
    expect(lost.scores).toEqual([w1.score, 0]);
    expect(lost.whoseTurn).toBe(0);

    const { found: phony } = await playWord(a, id, false);
    const withdrawn = await act(api, b, id, { challenge: {} });
    expect(withdrawn.lastMove).toMatchObject({ seat: 0, kind: 'phony-withdrawn', score: -phony.score, cumulative: w1.score });
    expect(withdrawn.scores).toEqual([w1.score, 0]);
    expect(withdrawn.whoseTurn).toBe(1);
    expect(withdrawn.board!.tiles).toHaveLength(w1.tilesUsed);

    await exchangeTwo(b, a, id);
    await playWord(a, id, true);
    await checkFinished(a, id, await sixPasses(b, a, id));
  });

  it('WESPA: a valid challenge gives the challenged player 5 points per word; a phony is withdrawn; a resignation loses', async () => {
    const { a, b, id } = await newGame('WESPA');
    const { found: w1, after } = await playWord(a, id, true);
    const words = after.lastMove!.words.length;
    const bonus = await act(api, b, id, { challenge: {} });
    expect(bonus.lastMove).toMatchObject({ seat: 0, kind: 'challenge-points', score: 5 * words });
    expect(bonus.scores).toEqual([w1.score + 5 * words, 0]);
    expect(bonus.whoseTurn).toBe(1);

    await exchangeTwo(b, a, id);
    const { found: phony } = await playWord(a, id, false);
    const withdrawn = await act(api, b, id, { challenge: {} });
    expect(withdrawn.lastMove).toMatchObject({ seat: 0, kind: 'phony-withdrawn', score: -phony.score, cumulative: w1.score + 5 * words });
    expect(withdrawn.whoseTurn).toBe(1);

    const resigned = await act(api, b, id, { resign: true });
    expect(resigned).toMatchObject({
      status: 'ended',
      result: { reason: 'resigned', loser: 1, winner: 0, adjustments: [] },
      legalActions: [],
    });
    await checkFinished(a, id, resigned);
  });

  it('FRIENDLY: free challenges — a valid word costs nothing, a withdrawn phony lets its player play again; six scoreless turns end it', async () => {
    const { a, b, id } = await newGame('FRIENDLY');
    const { found: w1 } = await playWord(a, id, true);
    const free = await act(api, b, id, { challenge: {} });
    expect(free.lastMove).toMatchObject({ seat: 1, kind: 'challenge' });
    expect(free.scores).toEqual([w1.score, 0]);
    expect(free.whoseTurn).toBe(1);
    expect(free.legalActions).not.toContain('challenge');

    const { found: phony } = await playWord(b, id, false);
    const withdrawn = await act(api, a, id, { challenge: {} });
    expect(withdrawn.lastMove).toMatchObject({ seat: 1, kind: 'phony-withdrawn', score: -phony.score, cumulative: 0 });
    expect(withdrawn.whoseTurn).toBe(1);

    await exchangeTwo(b, a, id);
    await playWord(a, id, true);
    await checkFinished(a, id, await sixPasses(b, a, id));
  });

  it('MATCH_VARIANT: double challenge; two exchanges by each player in a row end the game', async () => {
    const { a, b, id } = await newGame('MATCH_VARIANT');
    const { found: w1 } = await playWord(a, id, true);
    const lost = await act(api, b, id, { challenge: {} });
    expect(lost.lastMove).toMatchObject({ seat: 1, kind: 'turn-lost' });
    expect(lost.whoseTurn).toBe(0);
    const { found: phony } = await playWord(a, id, false);
    const withdrawn = await act(api, b, id, { challenge: {} });
    expect(withdrawn.lastMove).toMatchObject({ seat: 0, kind: 'phony-withdrawn', score: -phony.score, cumulative: w1.score });

    await exchangeTwo(b, a, id);
    await exchangeTwo(a, b, id);
    await exchangeTwo(b, a, id);
    const racks = [await readGame(api, a, id), await readGame(api, b, id)];
    const before = racks[0]!.scores;
    const aView = await readGame(api, a, id);
    const ended = await act(api, a, id, { exchange: { tiles: aView.myRack!.slice(0, 2) } });
    expect(ended.result).toMatchObject({ reason: 'consecutive-exchanges' });
    // seed-003 rule 12b with scoring 9: each player loses the value of the rack they end with.
    const bRack = racks[1]!.myRack!;
    expect(ended.scores[1]).toBe(before[1]! - rackPoints(bRack));
    const aAdj = ended.result!.adjustments.find((x) => x.seat === 0)!;
    expect(ended.scores[0]).toBe(before[0]! - rackPoints(aAdj.tiles));
    expect(sorted(aAdj.tiles)).toBe(sorted(ended.myRack!));
    await checkFinished(a, id, ended);
  });

  it('ONLINE_VOID: a phony is refused at submission and nothing can be challenged; six scoreless turns end it', async () => {
    const { a, b, id } = await newGame('ONLINE_VOID');
    const view = await readGame(api, a, id);
    const phony = findPlay(view, LEX, false)!;
    const rejected = await refused(api, a, id, { play: { move: phony.move } });
    expect(rejected).toMatchObject({ __typename: 'RuleViolation', code: 'INVALID_WORDS' });

    await playWord(a, id, true);
    const noChallenge = await refused(api, b, id, { challenge: {} });
    expect(noChallenge).toMatchObject({ __typename: 'RuleViolation', code: 'NO_CHALLENGES' });
    expect((await readGame(api, b, id)).legalActions).not.toContain('challenge');

    await exchangeTwo(b, a, id);
    await playWord(a, id, true);
    await checkFinished(a, id, await sixPasses(b, a, id));
  });

  /** `p` exchanges the first two tiles of their rack: the rack changes, the opponent sees only "-2". */
  const exchangeTwo = async (p: Player, opponent: Player, id: string): Promise<GameView> => {
    const before = await readGame(api, p, id);
    const tiles = [...before.myRack!].slice(0, 2).join('');
    const after = await act(api, p, id, { exchange: { tiles } } satisfies Action);
    expect(after.lastMove).toMatchObject({ seat: before.mySeat, kind: 'exchange', notation: `-${tiles}`, tiles, count: 2, score: 0 });
    expect(after.myRack).toHaveLength(7);
    expect(after.bagCount).toBe(before.bagCount);
    const seen = await readGame(api, opponent, id);
    expect(seen.lastMove).toMatchObject({ seat: before.mySeat, kind: 'exchange', notation: '-2', tiles: null, count: 2 });
    return after;
  };
});
