import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../store/db.js';
import { readMigrations } from '../../store/migrate.js';
import { isNewDataDir, templatePath } from '../../store/pglite-template.js';

// PGlite only: the template is how a new embedded data directory skips initdb (store/pglite-template.ts);
// a Postgres server has no data directory of ours to make.
describe('the PGlite template of a new data directory', () => {
  const work = mkdtempSync(join(tmpdir(), 'arbiter-template-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is kept after a data directory is made, and a new one starts from it already migrated', async () => {
    const first = await createDb({ dataDir: join(work, 'a'), template: true });
    await first.close();
    expect(existsSync(await templatePath())).toBe(true);

    const dir = join(work, 'b');
    expect(isNewDataDir(dir)).toBe(true);
    const second = await createDb({ dataDir: dir, template: true });
    try {
      const names = (await readMigrations()).map((m) => m.name);
      // Every migration came with the template: nothing was left to apply.
      expect(second.migrations?.applied).toEqual([]);
      expect(second.migrations?.alreadyApplied).toEqual(names);
      // A usable database of its own: a row written here is not in the template's other copies.
      await second.prisma.player.create({ data: { handle: 'templated', displayName: 'T' } });
      expect(await second.prisma.player.count()).toBe(1);
    } finally {
      await second.close();
    }
    expect(isNewDataDir(dir)).toBe(false);

    const third = await createDb({ dataDir: join(work, 'c'), template: true });
    try {
      expect(await third.prisma.player.count()).toBe(0);
    } finally {
      await third.close();
    }
  });

  it('starts an in-memory database from it when asked, already migrated', async () => {
    expect(isNewDataDir('memory://')).toBe(true);
    const db = await createDb({ dataDir: 'memory://', template: true });
    try {
      expect(db.migrations?.applied).toEqual([]);
      expect(await db.prisma.player.count()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('is not used unless asked', async () => {
    const plain = await createDb({ dataDir: join(work, 'd') });
    try {
      expect(plain.migrations?.applied).toEqual((await readMigrations()).map((m) => m.name));
    } finally {
      await plain.close();
    }
  });
});
