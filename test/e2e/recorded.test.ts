/**
 * Over-the-board games recorded live (issue 14 item 1) over HTTP, on PGlite and on Postgres: the
 * scorekeeper enters each move; placement, score and tile counts are checked, words only by a
 * challenge; the log is a played game's (history, GCG export, disputes work on it); racks the
 * scorekeeper saw stay as hidden as a played game's; the end counts the racks entered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  asGame,
  CREATE_GAME,
  ERROR_FIELDS,
  freshKey,
  GAME_FIELDS,
  GAME_RECORD,
  graphql,
  readGame,
  registerPlayer,
  submit,
  type ErrorResult,
  type GameOrError,
  type GameView,
  type Player,
} from './client.js';

const CREATE = `mutation($input: CreateRecordedGameInput!) { createRecordedGame(input: $input) { __typename ...GameFields ... on Game { recorded }
  ${ERROR_FIELDS} } } ${GAME_FIELDS}`;
const RECORD = `mutation($input: RecordMoveInput!) { recordMove(input: $input) { __typename ...GameFields ${ERROR_FIELDS} } } ${GAME_FIELDS}`;
const FILE = `mutation($input: FileDisputeInput!) { fileDispute(input: $input) { __typename
  ... on FiledDispute { dispute { kind status ruling { code scoreChanges { seat points } } } game { scores history { kind notation score } } }
  ${ERROR_FIELDS} } }`;

type Recorded = GameView & { recorded: boolean };

describe.each(STORE_TARGETS)('recorded over-the-board games on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  let c: Player;
  beforeAll(async () => {
    api = await openTestApi(target);
    [a, b, c] = [await registerPlayer(api, 'ann'), await registerPlayer(api, 'ben'), await registerPlayer(api, 'cat')];
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = async (p: Player, input: Record<string, unknown>) =>
    asGame(await graphql<GameOrError>(api, 'createRecordedGame', CREATE, { input }, p.token), 'createRecordedGame') as Recorded;

  /** recordMove at `version` (the entry as the input nests it); answers the game or the typed error. */
  const record = (p: Player, gameId: string, version: number, entry: Record<string, unknown>) =>
    graphql<GameOrError>(
      api,
      'recordMove',
      RECORD,
      { input: { gameId, expectedVersion: version, idempotencyKey: freshKey(), entry } },
      p.token,
    ) as Promise<GameView & ErrorResult>;

  it('checks placement, score and tile counts; a phony stands until challenged off; history, GCG and a dispute work on it', async () => {
    const g = await create(a, { preset: 'NSA_2008', players: [{ handle: a.handle }, { handle: b.handle }] });
    expect(g).toMatchObject({ recorded: true, imported: false, status: 'playing', whoseTurn: 0, version: 3, bagCount: 86 });
    expect(g.seats.map((s) => s.player?.handle)).toEqual([a.handle, b.handle]);

    const wrong = await record(a, g.id, 3, { move: { play: { move: '8H ZA', score: 20 } }, rack: 'AZERTY?' });
    expect(wrong).toMatchObject({ code: 'SCORE_MISMATCH', details: { claimed: 20, computed: 22, field: 'move.play.score' } });
    expect(wrong.message).toMatch(/22.*20/);
    expect(await record(a, g.id, 3, { move: { play: { move: '1A ZA' } } })).toMatchObject({ code: 'MISSES_CENTRE' });
    const played = await record(a, g.id, 3, { move: { play: { move: '8H ZA', score: 22 } }, rack: 'AZERTY?' });
    expect(played).toMatchObject({ __typename: 'Game', scores: [22, 0], whoseTurn: 1, lastMove: { notation: '8H ZA', score: 22 } });
    expect(played.bagCount).toBe(84);

    // There is one Z in the set and it is on the board: no one can play another.
    const zz = await record(a, g.id, played.version, { move: { play: { move: '9G ZO' } } });
    expect(zz).toMatchObject({ code: 'RACK_NOT_IN_BAG' });
    expect(zz.message).toContain('Z');
    // QO is no word, but at a table it stands until the opponent challenges it.
    const phony = await record(a, g.id, played.version, { move: { play: { move: '9G QO', score: 32 } } });
    expect(phony).toMatchObject({ scores: [22, 32], lastMove: { notation: '9G QO', score: 32 } });
    const off = await record(a, g.id, phony.version, { move: { challenge: { result: 'PLAY_REMOVED' } } });
    expect(off.scores).toEqual([22, 0]);
    expect(off.history.map((m) => m.kind)).toContain('phony-withdrawn');
    expect(off.board!.tiles.map((t) => t.square).sort()).toEqual(['H8', 'I8']);

    // The players themselves do not take turns in it, nor does anyone else record it.
    expect(await submit(api, b, g.id, off.version, { pass: true })).toMatchObject({ code: 'RECORDED_GAME' });
    expect(await record(b, g.id, off.version, { move: { pass: true } })).toMatchObject({ code: 'NOT_SCOREKEEPER' });

    // Hidden information as in a played game: Ann's rack (as the scorekeeper saw it) is hers alone until the end.
    const mine = await readGame(api, a, g.id);
    expect(mine.myRack).toContain('ERTY');
    const theirs = await graphql<GameOrError>(
      api,
      'game',
      `
        query ($id: ID!) {
          game(id: $id) {
            __typename
            ...GameFields
          }
        }
        ${GAME_FIELDS}
      `,
      { id: g.id },
      b.token,
    );
    expect(JSON.stringify(theirs)).not.toContain('ERTY');
    const spectator = await readGame(api, c, g.id);
    expect(spectator.myRack).toBeNull();
    expect(JSON.stringify(spectator)).not.toContain('ERTY');

    const gcg = await graphql<{ gcg: string }>(api, 'gameRecord', GAME_RECORD, { id: g.id }, c.token);
    expect(gcg.gcg).toContain('8H ZA +22 22');
    expect(gcg.gcg).toContain('9G QO +32 32');
    expect(gcg.gcg).toMatch(/--\s+-32 0/);
    expect(gcg.gcg).not.toContain('ERTY');

    // The log is a played game's: Ben files a dispute on it like on any other.
    const filed = await graphql<
      { dispute: { ruling: { code: string; scoreChanges: unknown[] } }; game: { scores: number[] } } & ErrorResult
    >(
      api,
      'fileDispute',
      FILE,
      {
        input: {
          gameId: g.id,
          expectedVersion: off.version,
          idempotencyKey: freshKey(),
          dispute: { kind: 'overtime', concerns: played.version - 1, facts: { secondsOver: 125 } },
        },
      },
      b.token,
    );
    expect(filed.dispute.ruling).toMatchObject({ code: 'OVERTIME_PENALTY', scoreChanges: [{ seat: 0, points: -30 }] });
    expect(filed.game.scores).toEqual([-8, 0]);
  });

  it('a director keeps the score of two players without accounts; the end counts the racks entered', async () => {
    const g = await create(c, { players: [{ name: 'Alice' }, { name: 'Bob' }], firstSeat: 1 });
    expect(g).toMatchObject({ recorded: true, mySeat: null, whoseTurn: 1 });
    expect(g.seats.map((s) => s.player)).toEqual([null, null]);
    expect(await record(c, g.id, 3, { move: { exchange: { count: 9 } } })).toMatchObject({ code: 'EXCHANGE_TOO_MANY' });
    let v = (await record(c, g.id, 3, { move: { exchange: { count: 3 } } })).version;
    for (let i = 0; i < 4; i++) v = (await record(c, g.id, v, { move: { pass: true } })).version;
    // The sixth scoreless turn ends the game: the racks it counts must be entered.
    const last = await record(c, g.id, v, { move: { pass: true } });
    expect(last).toMatchObject({ code: 'FINAL_RACKS_REQUIRED', details: { seats: [0, 1] } });
    expect(
      await record(c, g.id, v, {
        move: { pass: true },
        remainingRacks: [
          { seat: 0, tiles: 'ZZAEINR' },
          { seat: 1, tiles: 'QXJKVWY' },
        ],
      }),
    ).toMatchObject({ code: 'RACK_NOT_IN_BAG' });
    const ended = await record(c, g.id, v, {
      move: { pass: true },
      remainingRacks: [
        { seat: 0, tiles: 'AEINRST' },
        { seat: 1, tiles: 'QXJKVWY' },
      ],
    });
    expect(ended).toMatchObject({ status: 'ended', scores: [-7, -43], result: { reason: 'scoreless-turns', winner: 0 } });
    expect(await record(c, g.id, ended.version, { move: { pass: true } })).toMatchObject({ code: 'GAME_OVER' });
    const gcg = await graphql<{ gcg: string; complete: boolean }>(api, 'gameRecord', GAME_RECORD, { id: g.id }, c.token);
    expect(gcg.complete).toBe(true);
    expect(gcg.gcg).toContain('(AEINRST) -7');
    expect(gcg.gcg).toContain('Alice');
  });

  it('its players have no actions and cannot resign, pause, abort or claim; the scorekeeper’s actions are the moves to record', async () => {
    const g = await create(a, { players: [{ handle: a.handle }, { handle: b.handle }] });
    const actions = async (p: Player) =>
      graphql<{ actions: string[]; legalActions: string[] }>(
        api,
        'game',
        `
          query ($id: ID!) {
            game(id: $id) {
              ... on Game {
                actions
                legalActions
              }
            }
          }
        `,
        { id: g.id },
        p.token,
      );
    // Ann keeps the score and holds seat 0: what she may do is record the next move, not submit a turn.
    expect(await actions(a)).toEqual({ actions: ['PLAY', 'EXCHANGE', 'PASS'], legalActions: ['play', 'exchange', 'pass'] });
    expect(await actions(b)).toEqual({ actions: [], legalActions: [] });
    expect(g.legalActions).toEqual(['play', 'exchange', 'pass']);
    const played = await record(a, g.id, g.version, { move: { play: { move: '8H ZA' } } });
    expect((await actions(a)).actions).toEqual(['PLAY', 'EXCHANGE', 'PASS', 'CHALLENGE']);
    expect((await actions(b)).actions).toEqual([]);

    const id = { gameId: g.id };
    const refusals = await Promise.all([
      graphql<ErrorResult>(
        api,
        'requestPause',
        `mutation($gameId: ID!) { requestPause(gameId: $gameId, seconds: 7200) { __typename ${ERROR_FIELDS} } }`,
        id,
        b.token,
      ),
      graphql<ErrorResult>(
        api,
        'abortGame',
        `mutation($gameId: ID!) { abortGame(gameId: $gameId) { __typename ${ERROR_FIELDS} } }`,
        id,
        b.token,
      ),
      graphql<ErrorResult>(
        api,
        'claimTimeout',
        `mutation($gameId: ID!) { claimTimeout(gameId: $gameId) { __typename ${ERROR_FIELDS} } }`,
        id,
        a.token,
      ),
      submit(api, b, g.id, played.version, { resign: true }),
    ]);
    for (const r of refusals) expect(r).toMatchObject({ code: 'RECORDED_GAME' });
    expect((await readGame(api, a, g.id)).version).toBe(played.version);
  });

  it('a director who keeps the score without a seat finds the game in myGames, ahead of games awaiting others', async () => {
    const d = await registerPlayer(api, 'dee');
    const played = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: b.handle } }, d.token));
    const kept = await create(d, { players: [{ name: 'Alice' }, { handle: b.handle }] });
    const MINE = `query { myGames(first: 10) { edges { node { id mySeat recorded actions } } } }`;
    const list = async (p: Player) =>
      (
        await graphql<{ edges: { node: { id: string; mySeat: number | null; recorded: boolean; actions: string[] } }[] }>(
          api,
          'myGames',
          MINE,
          {},
          p.token,
        )
      ).edges.map((e) => e.node);
    const mine = await list(d);
    expect(mine.map((n) => n.id)).toEqual([kept.id, played.id]);
    expect(mine[0]).toMatchObject({ mySeat: null, recorded: true, actions: ['PLAY', 'EXCHANGE', 'PASS'] });
    // Ben, seated in it, sees it too (as before), with nothing to do there himself.
    expect((await list(b)).find((n) => n.id === kept.id)).toMatchObject({ mySeat: 1, actions: [] });
  });

  it('with clockMinutes, each move carries the mover’s clock; overtime is charged at the end, and the limit ends the game on time', async () => {
    const zero = { preset: 'WESPA', players: [{ name: 'Alice' }, { name: 'Bob' }], clockMinutes: 0 };
    expect(await graphql<ErrorResult>(api, 'createRecordedGame', CREATE, { input: zero }, c.token)).toMatchObject({
      code: 'TIME_CONTROL_INVALID',
      details: { field: 'clockMinutes' },
    });
    const g = await create(c, { preset: 'WESPA', players: [{ name: 'Alice' }, { handle: b.handle }], clockMinutes: 25 });
    const CLOCK = `query($id: ID!) { game(id: $id) { ... on Game { scores status result { reason winner loser }
      timeControl { type minutes secondsLeft } history { seat kind notation score secondsLeft citations { source rule } } } } }`;
    type Clocked = {
      scores: number[];
      status: string;
      result: { reason: string; winner: number; loser: number } | null;
      timeControl: { type: string; minutes: number; secondsLeft: (number | null)[] };
      history: { seat: number; kind: string; notation: string; score: number; secondsLeft: number | null; citations: unknown[] }[];
    };
    const clocked = (p: Player) => graphql<Clocked>(api, 'game', CLOCK, { id: g.id }, p.token);
    expect((await clocked(b)).timeControl).toEqual({ type: 'CLOCK', minutes: 25, secondsLeft: [null, null] });

    let v = (await record(c, g.id, g.version, { move: { play: { move: '8H ZA' } }, time: { seat: 0, secondsLeft: 1380 } })).version;
    // Whose clock it is and which way it runs are checked, each refusal naming its field.
    expect(await record(c, g.id, v, { move: { pass: true }, time: { seat: 0, secondsLeft: 1000 } })).toMatchObject({
      code: 'CLOCK_NOT_MOVER',
      details: { field: 'time.seat', mover: 1 },
    });
    expect(await record(c, g.id, v, { move: { pass: true }, time: { seat: 1, secondsLeft: 1501 } })).toMatchObject({
      code: 'CLOCK_READING_INVALID',
      details: { field: 'time.secondsLeft' },
    });
    v = (await record(c, g.id, v, { move: { pass: true }, time: { seat: 1, secondsLeft: -75 } })).version;
    const seen = await clocked(b);
    expect(seen.timeControl.secondsLeft).toEqual([1380, -75]);
    expect(seen.history.map((h) => h.secondsLeft)).toEqual([1380, -75]);

    expect(await record(c, g.id, v, { move: { outOfTime: true }, time: { seat: 0, secondsLeft: -599 } })).toMatchObject({
      code: 'NOT_OUT_OF_TIME',
      details: { field: 'time.secondsLeft' },
    });
    // Alice's flag: ten minutes over ends the game on time (WESPA 5.3.3); Bob's 1:15 over costs him 2 started minutes.
    const ended = await record(c, g.id, v, { move: { outOfTime: true }, time: { seat: 0, secondsLeft: -600 } });
    expect(ended).toMatchObject({ status: 'ended', result: { reason: 'timed-out', loser: 0, winner: 1 } });
    const final = await clocked(b);
    expect(final.scores).toEqual([22 - 100, -20]);
    const penalties = final.history.filter((h) => h.kind === 'time-penalty');
    expect(penalties.map((h) => [h.seat, h.score])).toEqual([
      [0, -100],
      [1, -20],
    ]);
    expect(penalties[1]!.citations).toContainEqual({ source: 'wespa-3.0', rule: '5.3.2' });
    const gcg = await graphql<{ gcg: string }>(api, 'gameRecord', GAME_RECORD, { id: g.id }, b.token);
    expect(gcg.gcg).toMatch(/\(time\) -100 -78/);
    expect(gcg.gcg).toMatch(/\(time\) -20 -20/);

    // A game recorded without a clock takes no readings; over REST the refusal is a 422 naming the field.
    const untimed = await create(a, { players: [{ handle: a.handle }, { name: 'Visitor' }] });
    const res = await api.fetch(`/v1/games/${untimed.id}/recorded-moves`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.token}`,
        'content-type': 'application/json',
        'If-Match': `"${untimed.version}"`,
        'Idempotency-Key': freshKey(),
      },
      body: JSON.stringify({ move: { pass: true }, time: { seat: 0, secondsLeft: 10 } }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'NOT_TIMED', details: { field: 'time' } });
  });

  it('a played game takes no recorded moves; REST creates and records, with If-Match and problem+json', async () => {
    const played = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: b.handle } }, a.token));
    expect(await record(a, played.id, played.version, { move: { pass: true } })).toMatchObject({ code: 'NOT_RECORDED' });

    const headers = { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' };
    const made = await api.fetch('/v1/recorded-games', {
      method: 'POST',
      headers,
      body: JSON.stringify({ players: [{ handle: a.handle }, { name: 'Visitor' }] }),
    });
    expect(made.status).toBe(201);
    const game = (await made.json()) as { id: string; version: number; recorded: boolean };
    expect(game.recorded).toBe(true);
    const move = (entry: unknown, version: number) =>
      api.fetch(`/v1/games/${game.id}/recorded-moves`, {
        method: 'POST',
        headers: { ...headers, 'If-Match': `"${version}"`, 'Idempotency-Key': freshKey() },
        body: JSON.stringify(entry),
      });
    const bad = await move({ move: { play: { move: '8F CAT', score: 11 } } }, game.version);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ code: 'SCORE_MISMATCH', details: { claimed: 11, computed: 10 } });
    const ok = await move({ move: { play: { move: '8F CAT', score: 10 } } }, game.version);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { scores: number[] }).scores).toEqual([10, 0]);
    expect((await move({ move: { pass: true } }, game.version)).status).toBe(412);
  });
});
