/** Narrow readers for JSON the service did not type (request bodies, processor events): one definition each. */
export type JsonObject = Record<string, unknown>;

/** An object (not an array, not null), else undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** A request body as its fields; anything else reads as empty, so the route's own "is required" message answers. */
export const objectBody = (body: unknown): JsonObject => asObject(body) ?? {};
