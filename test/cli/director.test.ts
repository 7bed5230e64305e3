/**
 * `arbiter director` on a real database, as an operator runs it: on PGlite in a data directory of its own
 * (ARBITER_DATA_DIR) and on Postgres in a fresh schema (DATABASE_URL with `?schema=`), each command opening
 * and closing the database itself. Every write is checked on the database afterwards, every refusal by its
 * exit code, its one line and that nothing was written. (cli/director.test.ts reads the arguments only.)
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';
import { MAX_ORGANIZATION_NAME_LENGTH } from '../../service/organizations.js';
import { createDb, type Db } from '../../store/db.js';
import { listOrganizations } from '../../store/organizations.js';
import { insertPlayer } from '../../store/players.js';
import { openTestDb, STORE_TARGETS, type StoreTarget } from '../store/targets.js';

const ENV_NAMES = ['DATABASE_URL', 'ARBITER_DATA_DIR'] as const;
type DbEnv = Partial<Record<(typeof ENV_NAMES)[number], string>>;

/** The database an operator's command opens (`env`), and a way for the test to look at it between commands. */
interface OperatorDb {
  readonly env: DbEnv;
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const operatorDb = async (target: StoreTarget): Promise<OperatorDb> => {
  if (target.kind === 'pglite') {
    // One PGlite may hold the directory at a time: the test opens it only between commands.
    const dir = await mkdtemp(join(tmpdir(), 'arbiter-cli-director-'));
    return {
      env: { ARBITER_DATA_DIR: dir },
      read: async (fn) => {
        const db = await createDb({ dataDir: dir });
        try {
          return await fn(db);
        } finally {
          await db.close();
        }
      },
      close: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const t = await openTestDb(target);
  return { env: { DATABASE_URL: t.databaseUrl! }, read: (fn) => fn(t.db), close: t.drop };
};

/** `arbiter director …args` through the command's entry point, with only `env` naming a database. */
const director = async (env: DbEnv, ...args: string[]) => {
  const saved = ENV_NAMES.map((name) => [name, process.env[name]] as const);
  for (const name of ENV_NAMES) {
    if (env[name] === undefined) delete process.env[name];
    else process.env[name] = env[name];
  }
  try {
    const io = recordingIo();
    const code = await main(['director', ...args], io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
};

/** What the commands wrote, read in one opening of the database. */
const snapshot = (op: OperatorDb) =>
  op.read(async (db) => ({
    orgs: await listOrganizations(db.prisma),
    made: await db.prisma.organization.findMany({
      select: { id: true, kind: true, name: true, createdBy: true },
      orderBy: [{ kind: 'asc' }, { name: 'asc' }],
    }),
    grants: await db.prisma.organizationDirector.findMany({ select: { organizationId: true, grantedBy: true } }),
    roles: Object.fromEntries((await db.prisma.player.findMany({ select: { handle: true, role: true } })).map((p) => [p.handle, p.role])),
  }));

// A PGlite data directory is opened anew by every command (and by every look the test takes), each a
// second or more on a busy machine, the first (initdb and migrations) far longer: the time limits allow for it.
describe.each(STORE_TARGETS)('arbiter director on $kind', { timeout: 180_000 }, (target) => {
  let op: OperatorDb;
  const run = (...args: string[]) => director(op.env, ...args);

  beforeAll(async () => {
    op = await operatorDb(target);
    await op.read(async (db) => {
      for (const handle of ['dee', 'eve']) await insertPlayer(db.prisma, { handle, displayName: handle.toUpperCase(), passwordHash: null });
    });
  }, 180_000);
  afterAll(() => op?.close());

  it('create --club|--event makes the organization; a name its kind has already is exit 1, a club and an event may share one', async () => {
    const club = await run('create', '--club', 'Riverside');
    expect(club).toMatchObject({ code: 0, err: '' });
    expect(club.out).toMatch(/^Made the club "Riverside" \([0-9a-f-]{36}\)\.$/);
    expect(await run('create', '--event', '  Nationals 2026 ')).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Made the event "Nationals 2026" /),
    });
    expect(await run('create', '--club', 'Riverside')).toEqual({ code: 1, out: '', err: 'A club named "Riverside" exists already.' });
    expect(await run('create', '--event', 'Riverside')).toMatchObject({ code: 0 });
    const { made } = await snapshot(op);
    // Made from the command line: by no player.
    expect(made.map((o) => [o.kind, o.name, o.createdBy])).toEqual([
      ['club', 'Riverside', null],
      ['event', 'Nationals 2026', null],
      ['event', 'Riverside', null],
    ]);
    expect(club.out).toContain(made[0]!.id);
  });

  it('grant --club lists the director; a second grant changes nothing; revoke removes it; the global role is untouched', async () => {
    expect(await run('grant', 'dee', '--club', 'Riverside')).toEqual({
      code: 0,
      out: 'dee is now a director of the club "Riverside".',
      err: '',
    });
    expect(await run('grant', 'dee', '--club', 'Riverside')).toMatchObject({ code: 0 });
    expect(await run('grant', 'eve', '--event', 'Nationals 2026')).toMatchObject({ code: 0 });
    const listed = await run('list');
    expect(listed).toMatchObject({ code: 0, err: '' });
    const granted = await snapshot(op);
    const [riverside, nationals, eventRiverside] = granted.orgs;
    expect(listed.out.split('\n')).toEqual([
      `club\tRiverside\t${riverside!.id}\tdee`,
      `event\tNationals 2026\t${nationals!.id}\teve`,
      `event\tRiverside\t${eventRiverside!.id}\t(no directors)`,
    ]);
    expect(granted.grants).toEqual(
      expect.arrayContaining([
        { organizationId: riverside!.id, grantedBy: null },
        { organizationId: nationals!.id, grantedBy: null },
      ]),
    );
    expect(granted.grants).toHaveLength(2);
    expect(granted.roles).toEqual({ dee: 'player', eve: 'player' });

    expect(await run('revoke', 'dee', '--club', 'Riverside')).toEqual({
      code: 0,
      out: 'dee is no longer a director of the club "Riverside".',
      err: '',
    });
    // Revoking what is not held is no error.
    expect(await run('revoke', 'dee', '--club', 'Riverside')).toMatchObject({ code: 0 });
    expect((await run('list')).out.split('\n')[0]).toBe(`club\tRiverside\t${riverside!.id}\t(no directors)`);
    const revoked = await snapshot(op);
    expect(revoked.orgs.map((o) => o.directors)).toEqual([[], ['eve'], []]);
    expect(revoked.grants).toEqual([{ organizationId: nationals!.id, grantedBy: null }]);
  });

  it('an unknown handle, club or event is exit 1 with one line naming it, and nothing is written', async () => {
    const before = await snapshot(op);
    expect(await run('grant', 'nobody', '--club', 'Riverside')).toEqual({ code: 1, out: '', err: 'No player has the handle "nobody".' });
    expect(await run('revoke', 'eve', '--event', 'Hillside')).toEqual({ code: 1, out: '', err: 'No event is named "Hillside".' });
    // Kinds are apart: there is an event called Nationals 2026, no club.
    expect(await run('grant', 'dee', '--club', 'Nationals 2026')).toEqual({ code: 1, out: '', err: 'No club is named "Nationals 2026".' });
    // Handles are matched exactly (they are lowercase): "Dee" is nobody.
    expect(await run('grant', 'Dee', '--event', 'Riverside')).toEqual({ code: 1, out: '', err: 'No player has the handle "Dee".' });
    expect(await snapshot(op)).toEqual(before);
  });

  it('grant [--admin] and revoke set the global role on the database; an unknown handle is exit 1', async () => {
    expect(await run('grant', 'eve', '--admin')).toEqual({ code: 0, out: 'eve is now an admin.', err: '' });
    expect(await run('grant', 'dee')).toEqual({ code: 0, out: 'dee is now a director.', err: '' });
    expect(await run('revoke', 'eve')).toEqual({ code: 0, out: 'eve is now a player.', err: '' });
    expect(await run('revoke', 'nobody')).toEqual({ code: 1, out: '', err: 'No player has the handle "nobody".' });
    const after = await snapshot(op);
    expect(after.roles).toEqual({ dee: 'director', eve: 'player' });
    // The role in an organization is kept apart from the global one.
    expect(after.orgs.map((o) => o.directors)).toEqual([[], ['eve'], []]);
  });

  it('bad arguments and a name the API would refuse are exit 2, before any database is opened', async () => {
    const nowhere = join(tmpdir(), `arbiter-cli-director-unopened-${process.pid}-${target.kind}`);
    const cli = (...args: string[]) => director({ ARBITER_DATA_DIR: nowhere }, ...args);
    for (const args of [
      ['grant', 'dee', '--club'],
      ['create', '--team', 'X'],
      ['revoke', 'dee', '--admin'],
      ['create', '--club', '  '],
    ]) {
      const r = await cli(...args);
      expect(r, args.join(' ')).toMatchObject({ code: 2, out: '' });
      expect(r.err).toMatch(/^usage: arbiter director /);
    }
    const long = 'x'.repeat(MAX_ORGANIZATION_NAME_LENGTH + 1);
    expect(await cli('create', '--club', long)).toEqual({
      code: 2,
      out: '',
      err: `name must be 1–${MAX_ORGANIZATION_NAME_LENGTH} characters.`,
    });
    expect(existsSync(nowhere)).toBe(false);
    // The longest name the API takes is taken here too.
    expect(await run('create', '--club', 'y'.repeat(MAX_ORGANIZATION_NAME_LENGTH))).toMatchObject({ code: 0 });
  });
});
