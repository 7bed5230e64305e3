import type { Prisma } from '../generated/prisma/client.js';

/**
 * Prisma's known request error (a failed constraint …), told by its name rather than by `instanceof`: the
 * class lives in Prisma's client runtime, which a process loads with its first Prisma query only
 * (store/prisma-client.ts), and code that merely inspects an error must not load it.
 */
export const isPrismaKnownError = (e: unknown): e is Prisma.PrismaClientKnownRequestError =>
  e instanceof Error && e.name === 'PrismaClientKnownRequestError' && typeof (e as { code?: unknown }).code === 'string';
