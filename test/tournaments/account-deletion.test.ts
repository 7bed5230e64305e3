/**
 * Deleting the account of a tournament's director and entrant (issue 32): the tournament log names them as
 * the actor of every event they caused (`by.name`) and as an entrant (`player-added`); after the deletion
 * the tournament, its standings and its TSH file show the pseudonym, a player known by name only is
 * untouched, and the append-only trigger still refuses every other change of tournament_events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import type { Player } from '../e2e/client.js';
import { closeSuite, openSuite } from '../e2e/fixture.js';
import { eventDirectedBy, expectType, registerPlayers, run, type Json } from './client.js';

const DELETE = `mutation($input: DeleteAccountInput!) {
  deleteAccount(input: $input) { __typename ... on DeletedAccount { pseudonym tournamentEntriesPseudonymized } ... on Error { code message } }
}`;

describe.each(STORE_TARGETS)('a deleted director and entrant in a tournament on $kind', (target) => {
  let api: TestApi;
  let admin: Player, zed: Player, ann: Player;
  let t: string;
  let pseudonym: string;

  beforeAll(async () => {
    api = await openSuite(target, 'tournament-erasure');
    [admin, zed, ann] = await registerPlayers(api, 'admin', 'zoltan-quade', 'ann');
    const event = await eventDirectedBy(api, admin, zed, 'Erasure Open 2027');
    const input = {
      organizationId: event,
      name: 'Erasure Open',
      divisions: [{ name: 'A', rounds: 2, method: 'SWISS', preset: 'NSA_2008' }],
    };
    t = expectType(await run(api, 'createTournament', { input }, zed), 'Tournament').id as string;
    for (const p of [
      { h: zed.handle, rating: 1500 },
      { h: ann.handle, rating: 1400 },
      { n: 'Carter, Cy', rating: 1300 },
    ]) {
      expectType(await run(api, 'addTournamentPlayer', { t, d: 'A', ...p }, zed), 'Division');
    }
    const deleted = await api.gql(DELETE, { input: { password: `${zed.handle}-password`, confirm: `DELETE ${zed.handle}` } }, zed.token);
    const answer = deleted.body.data!['deleteAccount'] as Json;
    expect(answer).toMatchObject({ __typename: 'DeletedAccount', tournamentEntriesPseudonymized: 1 });
    pseudonym = answer.pseudonym as string;
  });
  afterAll(() => closeSuite(api));

  it('shows the pseudonym in the tournament, its standings and its TSH file, and keeps the name-only player', async () => {
    const trace = /zoltan/i;
    const tournament = expectType(await run(api, 'tournament', { id: t }, ann), 'Tournament');
    expect(tournament.divisions[0].entrants.map((e: Json) => e.name)).toEqual([pseudonym, 'ANN', 'Carter, Cy']);
    expect(JSON.stringify(tournament)).not.toMatch(trace);
    expect(JSON.stringify(await run(api, 'standings', { id: t }, ann))).not.toMatch(trace);
    const tsh = await api.fetch(`/v1/tournaments/${t}/divisions/A.t`, { headers: { authorization: `Bearer ${ann.token}` } });
    expect(tsh.status).toBe(200);
    const text = await tsh.text();
    expect(text).toContain(pseudonym);
    expect(text).toContain('Carter, Cy');
    expect(text).not.toMatch(trace);

    const db = api.app.services.db;
    const rows = await db.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::bigint AS n FROM "tournament_events" WHERE "payload"::text ILIKE '%zoltan%'`;
    expect(Number(rows[0]!.n)).toBe(0);
    const acted = await db.prisma.tournamentEvent.findMany({ where: { tournamentId: t } });
    expect(acted.length).toBeGreaterThan(3);
    for (const e of acted) expect((e.payload as { by: { name: string } }).by.name).toBe(pseudonym);
  });

  it('still refuses every other UPDATE and every DELETE of tournament_events', async () => {
    const db = api.app.services.db;
    const attempt = (setting: string | null, sql: string) =>
      db.transaction(async (tx) => {
        if (setting !== null) await tx.$executeRaw`SELECT set_config('arbiter.erasure', ${setting}, true)`;
        await tx.$executeRawUnsafe(sql);
      });
    const added = `"tournament_id" = '${t}' AND "type" = 'player-added'`;
    const refusals: [string | null, string][] = [
      [null, `UPDATE "tournament_events" SET "payload" = "payload" WHERE ${added}`],
      // The name-only player and the other account are not the erased player's.
      [
        zed.id,
        `UPDATE "tournament_events" SET "payload" = jsonb_set("payload", '{entrant,name}', '"X"') WHERE ${added} AND "payload" -> 'entrant' ->> 'playerId' IS NULL`,
      ],
      [zed.id, `UPDATE "tournament_events" SET "payload" = jsonb_set("payload", '{entrant,rating}', '2000') WHERE ${added}`],
      [zed.id, `UPDATE "tournament_events" SET "payload" = jsonb_set("payload", '{by,name}', '"someone"') WHERE ${added}`],
      [
        ann.id,
        `UPDATE "tournament_events" SET "payload" = jsonb_set("payload", '{entrant,name}', '"ann"') WHERE ${added} AND "payload" -> 'entrant' ->> 'playerId' = '${ann.id}'`,
      ],
      [zed.id, `DELETE FROM "tournament_events" WHERE "tournament_id" = '${t}'`],
    ];
    for (const [setting, sql] of refusals) {
      await expect(attempt(setting, sql), `${setting} ${sql}`).rejects.toThrow(/append-only/);
    }
  });
});
