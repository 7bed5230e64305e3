/** JSON as stored in `jsonb` columns (event payloads, idempotent responses, outbox payloads). */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;
export type JsonArray = readonly JsonValue[];
/** `undefined` members are allowed because JSON serialisation drops them (optional fields of event types). */
export type JsonObject = { readonly [key: string]: JsonValue | undefined };

/** jsonb from a raw query: the adapters hand it over parsed or as text depending on the driver. */
export const jsonOf = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** A row from `to_jsonb(…)`: snake_case columns to Prisma's camelCase fields, `*_at` columns to Dates. */
export const rowOf = <T>(json: Record<string, unknown>): T => {
  const row: Record<string, unknown> = {};
  for (const [column, v] of Object.entries(json)) {
    row[column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = column.endsWith('_at') && typeof v === 'string' ? new Date(v) : v;
  }
  return row as T;
};
