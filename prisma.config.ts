import { defineConfig } from 'prisma/config';

// The Prisma CLI is used here for `prisma generate` only (scripts/generate.mjs); migrations are applied by
// store/migrate.ts. `datasource.url` lets `prisma migrate deploy/status` work on a machine that has the
// schema engine, against the same migrations/ folder.
export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  ...(process.env['DATABASE_URL'] ? { datasource: { url: process.env['DATABASE_URL'] } } : {}),
});
