import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { observeAdapter, type SqlObserver } from './sql-observer.js';

/**
 * Makes Prisma's client over an open connection. Imported on the client's first use only (store/db.ts
 * through store/prisma-client.ts), so that Prisma's runtime and generated client load with it.
 */

export interface TransactionOptions {
  readonly maxWait: number;
  readonly timeout: number;
}

/** The client over a pg pool, its queries in `schema` (Prisma qualifies them itself). */
export const postgresPrisma = (pool: pg.Pool, schema: string, transactionOptions: TransactionOptions, observer?: SqlObserver) =>
  new PrismaClient({
    adapter: observeAdapter(new PrismaPg(pool, schema === 'public' ? {} : { schema }), observer),
    transactionOptions,
  });

/** The client over an adapter already made (PGlite's). */
export const adapterPrisma = (adapter: SqlDriverAdapterFactory, transactionOptions: TransactionOptions, observer?: SqlObserver) =>
  new PrismaClient({ adapter: observeAdapter(adapter, observer), transactionOptions });
