import { Prisma } from '../generated/prisma/client.js';
import type { JsonValue } from './json.js';

/** Prisma wants `Prisma.JsonNull` for a JSON `null` value (a bare null would mean SQL NULL). */
export const toJsonInput = (value: JsonValue): Prisma.InputJsonValue | typeof Prisma.JsonNull =>
  value === null ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
