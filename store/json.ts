/** JSON as stored in `jsonb` columns (event payloads, idempotent responses, outbox payloads). */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;
export type JsonArray = readonly JsonValue[];
/** `undefined` members are allowed because JSON serialisation drops them (optional fields of event types). */
export type JsonObject = { readonly [key: string]: JsonValue | undefined };
