// The browser build of the namespace: JsonNull without Prisma's client runtime (store/prisma-client.ts).
import { Prisma } from '../generated/prisma/browser.js';
import type { JsonValue } from './json.js';

/** Prisma wants `Prisma.JsonNull` for a JSON `null` value (a bare null would mean SQL NULL). */
export const toJsonInput = (value: JsonValue): Prisma.InputJsonValue | typeof Prisma.JsonNull =>
  value === null ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
