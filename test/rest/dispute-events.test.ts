/**
 * Event numbers for disputes (issue 34 item 1), over REST on PGlite and on Postgres: every line of
 * `GET /v1/games/{id}/turns` (and of `Game.history`) carries `event`, the number a dispute about it names
 * in `concerns`. A recorded play with its rack entered is the version it was recorded at plus two (its
 * `rack-revealed` comes first), and a game that waited for its second player counts its `game-proposed`:
 * counting from the submitted version gets both wrong, the turn list's number does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

interface Line {
  readonly type: string;
  readonly notation: string;
  readonly seat: number;
  readonly event: number;
}

describe.each(STORE_TARGETS)('event numbers of the score sheet on $kind', (target) => {
  let api: TestApi;
  let ann: string;
  let ben: string;
  let keys = 0;
  const call = async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await api.fetch(`/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' ? { 'Idempotency-Key': `events-${++keys}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const turns = async (gameId: string, token: string) => (await call('GET', `/games/${gameId}/turns`, token)).body['items'] as Line[];
  const dispute = (gameId: string, token: string, version: number, body: Record<string, unknown>) =>
    call('POST', `/games/${gameId}/disputes`, token, body, { 'If-Match': `"${version}"` });

  beforeAll(async () => {
    api = await openTestApi(target);
    ann = (await api.register('ann')).token;
    ben = (await api.register('ben')).token;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('a recorded play with its rack entered: the dispute names the event the turn list gives (version + 2)', async () => {
    const made = await call('POST', '/recorded-games', ann, {
      preset: 'NSA_2008',
      players: [{ handle: 'ann' }, { handle: 'ben' }],
    });
    expect(made.status).toBe(201);
    const gameId = made.body['id'] as string;
    const at = made.body['version'] as number;
    const played = await call(
      'POST',
      `/games/${gameId}/recorded-moves`,
      ann,
      { move: { play: { move: '8H ZA', score: 22 } }, rack: 'AZERTY?' },
      { 'If-Match': `"${at}"` },
    );
    expect(played.status).toBe(200);
    const version = played.body['version'] as number;

    const [line] = await turns(gameId, ben);
    expect(line).toMatchObject({ type: 'PLAY', notation: '8H ZA', seat: 0 });
    // rack-revealed at + 1, the play at + 2: the old rule "submitted version + 1" names the rack.
    expect(line!.event).toBe(at + 2);
    const counted = await dispute(gameId, ben, version, {
      kind: 'scoring-error',
      concerns: at + 1,
      facts: { correct: 24, slip: 'not-signed' },
    });
    expect(counted.status).toBe(422);
    expect(counted.body).toMatchObject({ code: 'FACTS_CONTRADICT_LOG', details: { field: 'concerns', event: 'rack-revealed' } });

    const filed = await dispute(gameId, ben, version, {
      kind: 'scoring-error',
      concerns: line!.event,
      facts: { correct: 24, slip: 'not-signed' },
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ dispute: { concernsVersion: line!.event, disputedSeat: 0 } });

    // GraphQL's history carries the same number.
    const q = await api.gql(
      `query($id: ID!) { game(id: $id) { ... on Game { history { notation event } lastMove { event } } } }`,
      { id: gameId },
      ben,
    );
    const game = (q.body.data as { game: { history: { notation: string; event: number }[]; lastMove: { event: number } } }).game;
    expect(game.history[0]).toEqual({ notation: '8H ZA', event: line!.event });
    expect(game.lastMove.event).toBe(game.history[game.history.length - 1]!.event);
  });

  it('a game that waited for its second player counts its game-proposed: the exchange is disputed by its line’s event', async () => {
    const open = await call('POST', '/games', ann, { ruleSet: 'NSA_2008' });
    expect(open.status).toBe(201);
    const gameId = open.body['id'] as string;
    expect((await call('POST', `/games/${gameId}/join`, ben)).status).toBe(200);
    const seen = async (token: string) => (await call('GET', `/games/${gameId}`, token)).body;
    const annView = await seen(ann);
    const mover = (annView['mySeat'] as number) === (annView['whoseTurn'] as number) ? ann : ben;
    const other = mover === ann ? ben : ann;
    const view = await seen(mover);
    const exchanged = await call(
      'POST',
      `/games/${gameId}/turns`,
      mover,
      { exchange: { tiles: String(view['myRack']).slice(0, 2) } },
      { 'If-Match': `"${view['version'] as number}"` },
    );
    expect(exchanged.status).toBe(200);
    const version = exchanged.body['version'] as number;

    const [line] = await turns(gameId, other);
    expect(line).toMatchObject({ type: 'EXCHANGE' });
    // game-proposed 1, game-created 2, …: the exchange is the first event after the version it was made at.
    expect(line!.event).toBe((view['version'] as number) + 1);
    const filed = await dispute(gameId, other, version, {
      kind: 'exchange-count-mismatch',
      concerns: line!.event,
      facts: { announced: 3 },
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ dispute: { concernsVersion: line!.event, automaticRuling: { code: 'FACE_DOWN_COUNT_EXCHANGED' } } });
  });
});
