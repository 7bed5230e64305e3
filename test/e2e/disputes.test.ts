/**
 * Disputes on a stored game (issue 14) over HTTP, on PGlite and on Postgres: facts the log holds are taken
 * from it (a differing claim is FACTS_CONTRADICT_LOG naming the version), the ruling is appended with the
 * dispute in one transaction and changes the game (scores, history), races with a turn or another
 * dispute leave exactly one winner, retries are idempotent, the webhooks are written, REST files and lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { ERROR_FIELDS, freshKey, graphql, readGame, submit, type ErrorResult, type GameView, type Player } from './client.js';
import { closeSuite, createGameAs, exchangeFirst, openSuite, registerPlayers } from './fixture.js';

const DISPUTE_FIELDS = `number kind status filedAtVersion concernsVersion disputedSeat claimantSeat note
  facts { name value source version hidden }
  automaticRuling { verdict code explanation citations { source rule } }
  ruling { verdict code explanation version directorId scoreChanges { seat points } revealedTiles { seat tiles } citations { source rule } }`;
const FILE = `mutation($input: FileDisputeInput!) { fileDispute(input: $input) { __typename
  ... on FiledDispute { dispute { ${DISPUTE_FIELDS} } game { id version scores history { seat kind notation score cumulative } } }
  ${ERROR_FIELDS} } }`;
const DISPUTES = `query($id: ID!) { game(id: $id) { __typename ... on Game { version disputes { ${DISPUTE_FIELDS} } } } }`;

interface Fact {
  name: string;
  value: unknown;
  source: string;
  version: number | null;
  hidden: boolean;
}
interface Dispute {
  number: number;
  kind: string;
  status: string;
  concernsVersion: number;
  disputedSeat: number;
  claimantSeat: number | null;
  facts: Fact[];
  automaticRuling: { verdict: string; code: string };
  ruling: {
    verdict: string;
    code: string;
    version: number;
    scoreChanges: { seat: number; points: number }[];
    directorId: string | null;
  } | null;
}
type Filed = {
  __typename: 'FiledDispute';
  dispute: Dispute;
  game: { version: number; scores: number[]; history: { kind: string; notation: string; score: number }[] };
};

describe.each(STORE_TARGETS)('disputes on a stored game on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  let c: Player;
  beforeAll(async () => {
    api = await openSuite(target, 'e2e-disputes-seed');
    [a, b, c] = await registerPlayers(api, 'ann', 'ben', 'cat');
  });
  afterAll(() => closeSuite(api));

  /** fileDispute with the game, version and key beside the claim (kind, concerns, facts …), as the input nests them. */
  const file = async (p: Player, { gameId, expectedVersion, idempotencyKey = freshKey(), ...dispute }: Record<string, unknown>) =>
    (await graphql<Filed | ErrorResult>(
      api,
      'fileDispute',
      FILE,
      { input: { gameId, expectedVersion, idempotencyKey, dispute } },
      p.token,
    )) as Filed & ErrorResult;

  /** A new NSA_2008 game where the first mover exchanged two tiles: the game, the mover, the other, the exchange's version. */
  const afterExchange = async () => {
    const g = await createGameAs(api, a, { opponent: b.handle, preset: 'NSA_2008' });
    const { mover, other, seen, after } = await exchangeFirst(api, g, a, b);
    return { game: after, mover, other, exchangeVersion: seen.version + 1, moverSeat: seen.mySeat! };
  };

  it('facts the log holds come from the log; the claimant gives the rest; the ruling is recorded with the dispute', async () => {
    const { game, other, exchangeVersion, moverSeat } = await afterExchange();
    const r = await file(other, {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'exchange-count-mismatch',
      concerns: exchangeVersion,
      facts: { announced: 3 },
    });
    expect(r.__typename).toBe('FiledDispute');
    const facts = Object.fromEntries(r.dispute.facts.map((f) => [f.name, f]));
    expect(facts['placedFaceDown']).toMatchObject({ value: 2, source: 'LOG', version: exchangeVersion });
    expect(facts['rackSize']).toMatchObject({ value: 7, source: 'LOG' });
    expect(facts['announced']).toMatchObject({ value: 3, source: 'CLAIMANT', version: null });
    expect(r.dispute).toMatchObject({
      number: 1,
      kind: 'exchange-count-mismatch',
      status: 'RULED',
      disputedSeat: moverSeat,
      concernsVersion: exchangeVersion,
    });
    expect(r.dispute.ruling).toMatchObject({
      code: 'FACE_DOWN_COUNT_EXCHANGED',
      verdict: 'FORBIDDEN',
      version: game.version + 2,
      directorId: null,
    });
    expect(r.game.version).toBe(game.version + 2);
  });

  it('a claimed fact that contradicts the log is FACTS_CONTRADICT_LOG naming the field and version; nothing is written', async () => {
    const { game, other, exchangeVersion } = await afterExchange();
    const base = { gameId: game.id, expectedVersion: game.version, concerns: exchangeVersion };
    const wrongCount = await file(other, { ...base, kind: 'exchange-count-mismatch', facts: { announced: 3, placedFaceDown: 4 } });
    expect(wrongCount).toMatchObject({
      code: 'FACTS_CONTRADICT_LOG',
      details: { field: 'placedFaceDown', claimed: 4, log: 2, version: exchangeVersion },
    });
    // A full bag at the exchange: the illegal-exchange situation never arose.
    const legal = await file(other, { ...base, kind: 'illegal-exchange', facts: { stage: 'announced' } });
    expect(legal).toMatchObject({ code: 'FACTS_CONTRADICT_LOG', details: { field: 'bagCount', version: exchangeVersion - 1 } });
    // A scoring error concerns a play, and the event there is an exchange.
    const notAPlay = await file(other, { ...base, kind: 'scoring-error', facts: { correct: 10, slip: 'not-signed' } });
    expect(notAPlay).toMatchObject({ code: 'FACTS_CONTRADICT_LOG', details: { field: 'concerns', event: 'exchange' } });
    expect((await readGame(api, other, game.id)).version).toBe(game.version);
  });

  it('a score penalty lands on the game: scores, a RULING history line, and game.disputes for both players', async () => {
    const { game, mover, other, exchangeVersion, moverSeat } = await afterExchange();
    const r = await file(other, {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'overtime',
      concerns: exchangeVersion,
      facts: { secondsOver: 125 },
    });
    expect(r.dispute.ruling).toMatchObject({ code: 'OVERTIME_PENALTY', scoreChanges: [{ seat: moverSeat, points: -30 }] });
    expect(r.game.scores[moverSeat]).toBe(-30);
    expect(r.game.history.at(-1)).toMatchObject({ kind: 'ruling', notation: 'OVERTIME_PENALTY', score: -30 });
    const seenByMover = await graphql<{ version: number; disputes: Dispute[] }>(api, 'game', DISPUTES, { id: game.id }, mover.token);
    expect(seenByMover.disputes).toHaveLength(1);
    expect(seenByMover.disputes[0]).toMatchObject({
      status: 'RULED',
      claimantSeat: 1 - moverSeat,
      automaticRuling: { code: 'OVERTIME_PENALTY' },
    });
    const view: GameView = await readGame(api, mover, game.id);
    expect(view.seats[moverSeat]!.score).toBe(-30);
  });

  it('a forfeit by ruling ends the game: the result names the loser, the seed is revealed, game-ended is announced', async () => {
    const { game, mover, other, exchangeVersion, moverSeat } = await afterExchange();
    const r = await file(other, {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'overtime',
      concerns: exchangeVersion,
      facts: { secondsOver: 700 },
    });
    expect(r.dispute.ruling?.code).toBe('GAME_FORFEITED');
    expect(r.game.version).toBe(game.version + 4);
    const view = await readGame(api, mover, game.id);
    expect(view.status).toBe('ended');
    expect(view.result).toMatchObject({ reason: 'ruling', loser: moverSeat, winner: 1 - moverSeat });
    expect(view.result?.bagSeed).toMatch(/^e2e-disputes-seed-/);
    const ended = await api.app.services.db.prisma.outboxMessage.count({ where: { gameId: game.id, kind: 'game-ended' } });
    expect(ended).toBe(1);
  });

  it('only a seated player files (NOT_SEATED); an unknown kind and a version outside the log are refused', async () => {
    const { game, exchangeVersion, other } = await afterExchange();
    const base = { gameId: game.id, expectedVersion: game.version, concerns: exchangeVersion };
    expect(await file(c, { ...base, kind: 'overtime', facts: { secondsOver: 10 } })).toMatchObject({ code: 'NOT_SEATED' });
    expect(await file(other, { ...base, kind: 'no-such-kind', facts: {} })).toMatchObject({ code: 'UNKNOWN_DISPUTE_KIND' });
    expect(await file(other, { ...base, concerns: 999, kind: 'overtime', facts: { secondsOver: 10 } })).toMatchObject({
      code: 'INVALID_DISPUTE',
      details: { field: 'concerns' },
    });
  });

  it('a dispute raced by a turn, and by another dispute: exactly one wins, the other is STALE_VERSION', async () => {
    const { game, mover, other, exchangeVersion } = await afterExchange();
    const dispute = {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'overtime',
      concerns: exchangeVersion,
      facts: { secondsOver: 30 },
    };
    const [filed, turn] = await Promise.all([file(mover, dispute), submit(api, other, game.id, game.version, { pass: true })]);
    const outcomes = [filed.__typename, (turn as ErrorResult).__typename].sort();
    expect(outcomes.filter((t) => t === 'StaleVersionError')).toHaveLength(1);
    const now = await readGame(api, mover, game.id);
    const both = await Promise.all([
      file(mover, { ...dispute, expectedVersion: now.version }),
      file(other, { ...dispute, expectedVersion: now.version }),
    ]);
    expect(both.map((x) => x.__typename).sort()).toEqual(['FiledDispute', 'StaleVersionError']);
    const list = await graphql<{ disputes: Dispute[] }>(api, 'game', DISPUTES, { id: game.id }, mover.token);
    expect(list.disputes).toHaveLength(filed.__typename === 'FiledDispute' ? 2 : 1);
  });

  it('a retry with the same idempotency key answers the same dispute and appends nothing', async () => {
    const { game, other, exchangeVersion } = await afterExchange();
    const input = {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'overtime',
      concerns: exchangeVersion,
      facts: { secondsOver: 61 },
      idempotencyKey: freshKey(),
    };
    const first = await file(other, input);
    const again = await file(other, input);
    expect(again.dispute).toEqual(first.dispute);
    expect((await readGame(api, other, game.id)).version).toBe(game.version + 2);
  });

  it('writes dispute-filed and dispute-ruled webhook rows in the same transaction', async () => {
    const { game, other, exchangeVersion } = await afterExchange();
    await file(other, {
      gameId: game.id,
      expectedVersion: game.version,
      kind: 'overtime',
      concerns: exchangeVersion,
      facts: { secondsOver: 5 },
    });
    const rows = await api.app.services.db.prisma.outboxMessage.findMany({
      where: { gameId: game.id, kind: { in: ['dispute-filed', 'dispute-ruled'] } },
    });
    expect(rows.map((r) => [r.kind, r.eventSeq]).sort()).toEqual([
      ['dispute-filed', game.version + 1],
      ['dispute-ruled', game.version + 2],
    ]);
  });

  it('REST: POST /v1/games/{id}/disputes files with If-Match and Idempotency-Key; GET lists; a contradiction is 422', async () => {
    const { game, other, exchangeVersion } = await afterExchange();
    const post = (facts: Record<string, unknown>, version = game.version) =>
      api.fetch(`/v1/games/${game.id}/disputes`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${other.token}`,
          'content-type': 'application/json',
          'If-Match': `"${version}"`,
          'Idempotency-Key': freshKey(),
        },
        body: JSON.stringify({ kind: 'exchange-count-mismatch', concerns: exchangeVersion, facts }),
      });
    const bad = await post({ announced: 3, placedFaceDown: 5 });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ code: 'FACTS_CONTRADICT_LOG' });
    const ok = await post({ announced: 3 });
    expect(ok.status).toBe(201);
    const body = (await ok.json()) as { dispute: Dispute; game: { version: number } };
    expect(body.dispute.ruling?.code).toBe('FACE_DOWN_COUNT_EXCHANGED');
    expect((await post({ announced: 1 })).status).toBe(412);
    const list = await api.fetch(`/v1/games/${game.id}/disputes`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(list.status).toBe(200);
    const items = ((await list.json()) as { items: Dispute[] }).items;
    expect(items.map((d) => [d.number, d.kind, d.status])).toEqual([[1, 'exchange-count-mismatch', 'RULED']]);
  });
});
