/**
 * Deleting an account (issue 32, service/account-deletion.ts): two players play; one deletes the account.
 * Their credentials stop working, the other player still reads the whole game, its GCG, views and events
 * under the pseudonym with no trace of the old handle or name, the stored log carries the pseudonym, and
 * the append-only trigger still refuses every other change. Refusals write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import {
  act,
  asGame,
  CREATE_GAME,
  findPlay,
  GAME,
  GAME_RECORD,
  graphql,
  readGame,
  registerPlayer,
  useFixedBagSeeds,
  type GameOrError,
  type Player,
} from '../e2e/client.js';
import { createSeek } from '../../service/seeks.js';
import { readAll } from '../live/stream-client.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

const DELETE = `mutation($input: DeleteAccountInput!) {
  deleteAccount(input: $input) {
    __typename
    ... on DeletedAccount { pseudonym deletedAt gamesPseudonymized }
    ... on Error { code message details }
  }
}`;
const LOGIN = `mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { __typename ... on Error { code } } }`;
const ME = `{ me { __typename ... on Player { handle } ... on Error { code } } }`;
const CREATE_KEY = `mutation { createApiKey(input: { name: "bot", apiScopes: [GAMES_READ, GAMES_PLAY] }) { __typename ... on NewApiKey { key } } }`;

// A handle and name unlike anything a GCG, a view or an event would say by chance.
const OLD_HANDLE = 'zelda-quill';
const OLD_NAME = OLD_HANDLE.toUpperCase();
const PASSWORD = `${OLD_HANDLE}-password`;

describe.each(STORE_TARGETS)('deleting an account on $kind', (target) => {
  useFixedBagSeeds('account-deletion');
  let api: TestApi;
  let zelda: Player;
  let boris: Player;
  let key: string;
  let played: string;
  let running: string;
  let seekId: string;

  beforeAll(async () => {
    api = await openTestApi(target);
    zelda = await registerPlayer(api, OLD_HANDLE);
    boris = await registerPlayer(api, 'boris');
    const k = await api.gql(CREATE_KEY, {}, zelda.token);
    key = k.body.data!['createApiKey'].key as string;
    // A finished game with a play in it, and one in progress.
    played = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: 'boris' } }, zelda.token)).id;
    const g = await readGame(api, zelda, played);
    const mover = g.isMyTurn ? zelda : boris;
    await act(api, mover, played, { play: { move: findPlay(await readGame(api, mover, played), LEX, true)!.move } });
    await act(api, mover === zelda ? boris : zelda, played, { pass: true });
    await act(api, zelda, played, { resign: true });
    running = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: 'boris' } }, zelda.token)).id;
    // An open seek: the public seek stream names its author (service/seek-events.ts).
    const seek = await createSeek(api.app.services, zelda.id, { daysPerMove: 2 });
    if (!seek.ok) throw new Error(seek.error.message);
    seekId = seek.value.seek.id;
    // What the notifier stored for Boris about the game, written with Zelda's name (service/notification-text.ts).
    const at = new Date();
    await api.app.services.db.prisma.notification.create({
      data: {
        playerId: boris.id,
        channel: 'push',
        kind: 'your-turn',
        source: `test:${played}`,
        gameId: played,
        title: `${OLD_NAME} played`,
        body: `${OLD_NAME} (${OLD_HANDLE}) played H7 EA: your move.`,
        url: `/play/${played}`,
        dueAt: at,
        createdAt: at,
        updatedAt: at,
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const deleteAs = async (bearer: string, input: { password: string; confirm: string }) =>
    (await api.gql(DELETE, { input }, bearer)).body.data!['deleteAccount'] as Record<string, any>;

  const unchanged = async () => {
    const row = await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { id: zelda.id } });
    expect(row).toMatchObject({ handle: OLD_HANDLE, displayName: OLD_NAME, deletedAt: null });
    expect(row.passwordHash).not.toBeNull();
    expect(await api.app.services.db.prisma.apiKey.count({ where: { ownerId: zelda.id } })).toBe(1);
  };

  it('refuses an API key, a wrong confirmation, a wrong password and games in progress, writing nothing', async () => {
    const byKey = await deleteAs(key, { password: PASSWORD, confirm: `DELETE ${OLD_HANDLE}` });
    expect(byKey).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });

    const confirm = await deleteAs(zelda.token, { password: PASSWORD, confirm: 'DELETE boris' });
    expect(confirm).toMatchObject({ __typename: 'RuleViolation', code: 'CONFIRMATION_MISMATCH' });
    expect(confirm.details).toMatchObject({ field: 'input.confirm', expected: `DELETE ${OLD_HANDLE}` });

    const wrong = await deleteAs(zelda.token, { password: 'not-the-password', confirm: `DELETE ${OLD_HANDLE}` });
    expect(wrong).toMatchObject({ __typename: 'UnauthenticatedError', code: 'UNAUTHENTICATED' });

    const active = await deleteAs(zelda.token, { password: PASSWORD, confirm: `DELETE ${OLD_HANDLE}` });
    expect(active).toMatchObject({ __typename: 'RuleViolation', code: 'ACCOUNT_HAS_ACTIVE_GAMES' });
    expect(active.details).toEqual({ games: [{ id: running, status: 'playing' }], total: 1 });
    await unchanged();

    // REST: a problem with the same code, 409 for the games in progress.
    const rest = await api.fetch('/v1/me/delete', {
      method: 'POST',
      headers: { authorization: `Bearer ${zelda.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD, confirm: `DELETE ${OLD_HANDLE}` }),
    });
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({ code: 'ACCOUNT_HAS_ACTIVE_GAMES' });
    await unchanged();
  });

  it('deletes the account once its games are over: credentials refused, the old handle unknown', async () => {
    await act(api, zelda, running, { resign: true });
    const rest = await api.fetch('/v1/me/delete', {
      method: 'POST',
      headers: { authorization: `Bearer ${zelda.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD, confirm: `DELETE ${OLD_HANDLE}` }),
    });
    expect(rest.status).toBe(200);
    const deleted = (await rest.json()) as { pseudonym: string; gamesPseudonymized: number };
    expect(deleted.pseudonym).toMatch(/^deleted-[a-z2-7]{8}$/);
    expect(deleted.gamesPseudonymized).toBe(2);

    const row = await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { id: zelda.id } });
    expect(row).toMatchObject({ handle: deleted.pseudonym, displayName: 'Deleted player', passwordHash: null, role: 'player' });
    expect(row.deletedAt).not.toBeNull();
    expect(await api.app.services.db.prisma.apiKey.count({ where: { ownerId: zelda.id } })).toBe(0);

    // The token, the key and the password are refused; the old handle signs in like an unknown one.
    expect((await api.gql(ME, {}, zelda.token)).body.data!['me']).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect((await api.gql(ME, {}, key)).body.data!['me']).toMatchObject({ __typename: 'UnauthenticatedError' });
    const oldLogin = await api.gql(LOGIN, { h: OLD_HANDLE, p: PASSWORD });
    const unknown = await api.gql(LOGIN, { h: 'never-was-here', p: PASSWORD });
    expect(oldLogin.body.data!['login']).toEqual(unknown.body.data!['login']);
    expect((await api.gql(LOGIN, { h: deleted.pseudonym, p: PASSWORD })).body.data!['login'].__typename).toBe('UnauthenticatedError');
    // The open seek is withdrawn, the seek stream is told, and its seek-opened names the pseudonym only.
    expect((await api.app.services.db.prisma.seek.findUniqueOrThrow({ where: { id: seekId } })).status).toBe('withdrawn');
    const told = await api.app.services.db.prisma.outboxMessage.findMany({
      where: { kind: { in: ['seek-opened', 'seek-closed'] } },
      orderBy: { id: 'asc' },
    });
    expect(told.map((m) => [m.kind, (m.payload as Record<string, unknown>)['seekId']])).toEqual([
      ['seek-opened', seekId],
      ['seek-closed', seekId],
    ]);
    expect(told[0]!.payload).toMatchObject({ authorHandle: deleted.pseudonym, authorDisplayName: 'Deleted player', authorRating: null });
    expect(told[1]!.payload).toMatchObject({ reason: 'withdrawn' });
    expect(JSON.stringify(told.map((m) => m.payload))).not.toMatch(new RegExp(`${OLD_HANDLE}|${OLD_NAME}`, 'i'));
    // Deleting twice is not possible: the token no longer names anyone.
    expect((await deleteAs(zelda.token, { password: PASSWORD, confirm: `DELETE ${OLD_HANDLE}` })).__typename).toBe('UnauthenticatedError');
  });

  it('leaves the opponent the whole game under the pseudonym, with no trace of the old handle or name', async () => {
    const pseudonym = (await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { id: zelda.id } })).handle;
    const trace = new RegExp(OLD_HANDLE.split('-')[0]!, 'i');
    for (const id of [played, running]) {
      const view = await api.gql(GAME, { id }, boris.token);
      const game = view.body.data!['game'];
      expect(game.status).toBe('ended');
      expect(game.seats.map((s: { player: { handle: string } }) => s.player.handle).sort()).toEqual(['boris', pseudonym].sort());
      expect(JSON.stringify(view.body)).not.toMatch(trace);

      const record = await graphql<{ gcg: string }>(api, 'gameRecord', GAME_RECORD, { id }, boris.token);
      expect(record.gcg).toContain(`#player`);
      expect(record.gcg).toContain(pseudonym);
      expect(record.gcg).toContain('Deleted player');
      expect(record.gcg).not.toMatch(trace);

      for (const path of [`/v1/games/${id}`, `/v1/games/${id}/record`, `/v1/games/${id}/turns`]) {
        const res = await api.fetch(path, { headers: { authorization: `Bearer ${boris.token}` } });
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).not.toMatch(trace);
      }
      const { frames, events } = await readAll(api, id, boris, game.version);
      expect(events.length).toBeGreaterThan(0);
      // The stream's events carry no names at all; nothing of the old ones may show up in them either.
      expect(JSON.stringify(frames)).not.toMatch(trace);
    }
    // Boris's stored notification names the pseudonym now.
    const notice = await api.app.services.db.prisma.notification.findFirstOrThrow({ where: { playerId: boris.id, gameId: played } });
    expect(notice.title).toBe('Deleted player played');
    expect(notice.body).toBe(`Deleted player (${pseudonym}) played H7 EA: your move.`);
    // The played game's moves are all there.
    expect((await readGame(api, boris, played)).history.map((m) => m.kind).slice(0, 2)).toEqual(['play', 'pass']);
  });

  it('stores the pseudonym in the log rows themselves', async () => {
    const db = api.app.services.db;
    const pseudonym = (await db.prisma.player.findUniqueOrThrow({ where: { id: zelda.id } })).handle;
    const rows = await db.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::bigint AS n FROM "game_events" WHERE "payload"::text ILIKE '%zelda%'`;
    expect(Number(rows[0]!.n)).toBe(0);
    const created = await db.prisma.gameEvent.findMany({ where: { gameId: { in: [played, running] }, type: 'game-created' } });
    expect(created).toHaveLength(2);
    for (const e of created) {
      const players = (e.payload as { players: { name: string; id?: string }[] }).players;
      expect(players).toContainEqual({ name: 'Deleted player', id: pseudonym });
      expect(players).toContainEqual({ name: 'BORIS', id: 'boris' });
    }
  });

  it('still refuses every other UPDATE and every DELETE of game_events', async () => {
    const db = api.app.services.db;
    const seatOf = (await db.prisma.seat.findFirstOrThrow({ where: { gameId: played, playerId: zelda.id } })).seat;
    const other = 1 - seatOf;
    const attempt = (setting: string | null, sql: string) =>
      db.transaction(async (tx) => {
        if (setting !== null) await tx.$executeRaw`SELECT set_config('arbiter.erasure', ${setting}, true)`;
        await tx.$executeRawUnsafe(sql);
      });
    const created = `"game_id" = '${played}' AND "type" = 'game-created'`;
    const refusals: [string | null, string][] = [
      // No erasure under way.
      [null, `UPDATE "game_events" SET "payload" = "payload" WHERE ${created}`],
      [null, `UPDATE "game_events" SET "payload" = jsonb_set("payload", '{players,${seatOf}}', '{"name":"X","id":"x"}') WHERE ${created}`],
      // The erased player's entry changed to something else than the row's pseudonym.
      [zelda.id, `UPDATE "game_events" SET "payload" = jsonb_set("payload", '{players,${seatOf},name}', '"Someone"') WHERE ${created}`],
      // The other player's entry, or anything else of the payload.
      [
        zelda.id,
        `UPDATE "game_events" SET "payload" = jsonb_set("payload", '{players,${other},name}', '"Deleted player"') WHERE ${created}`,
      ],
      [zelda.id, `UPDATE "game_events" SET "payload" = jsonb_set("payload", '{firstSeat}', '1') WHERE ${created}`],
      [zelda.id, `UPDATE "game_events" SET "created_at" = "created_at" + interval '1 second' WHERE ${created}`],
      // Another kind of event, or a player who is not deleted.
      [zelda.id, `UPDATE "game_events" SET "payload" = "payload" WHERE "game_id" = '${played}' AND "type" <> 'game-created'`],
      [
        boris.id,
        `UPDATE "game_events" SET "payload" = jsonb_set("payload", '{players,${other}}', '{"name":"Deleted player","id":"boris"}') WHERE ${created}`,
      ],
      // Deleting stays refused, erasure or not.
      [zelda.id, `DELETE FROM "game_events" WHERE ${created}`],
      [null, `DELETE FROM "game_events" WHERE "game_id" = '${played}'`],
      ['not-a-uuid', `UPDATE "game_events" SET "payload" = "payload" WHERE ${created}`],
    ];
    for (const [setting, sql] of refusals) {
      await expect(attempt(setting, sql), `${setting} ${sql}`).rejects.toThrow(/append-only/);
    }
    // The setting is transaction-local: a later transaction without it is refused even a no-op.
    await expect(attempt(null, `UPDATE "game_events" SET "payload" = "payload" WHERE ${created}`)).rejects.toThrow(/append-only/);
  });
});
