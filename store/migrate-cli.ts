/**
 * `npm run migrate` — applies pending migrations to the database `createDb` would open
 * (DATABASE_URL, else PGlite in ARBITER_DATA_DIR or .arbiter-data/). Exit code 1 on a MigrationError.
 */
import { createDb } from './db.js';
import { MigrationError } from './migrate.js';

const main = async (): Promise<number> => {
  try {
    const db = await createDb();
    try {
      const report = db.migrations;
      const where = db.kind === 'postgres' ? `Postgres (schema ${db.schema})` : 'PGlite';
      for (const name of report?.applied ?? []) console.log(`applied   ${name}`);
      for (const name of report?.unknown ?? []) console.log(`unknown   ${name} (in the database, not in migrations/)`);
      console.log(`${where}: ${report?.applied.length ?? 0} applied, ${report?.alreadyApplied.length ?? 0} already up to date.`);
      return 0;
    } finally {
      await db.close();
    }
  } catch (e) {
    if (e instanceof MigrationError) {
      console.error(`${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  }
};

process.exitCode = await main();
