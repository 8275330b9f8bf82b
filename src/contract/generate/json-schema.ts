import { INT64_MAX, INT64_MIN } from '../../json/int64.js';

/** The part of an OpenAPI 3.0 Schema Object (dereferenced) the generators read. */
export interface SchemaLike {
  type?: string;
  enum?: unknown[];
  format?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  required?: string[];
  properties?: Record<string, SchemaLike>;
  additionalProperties?: boolean | SchemaLike;
  items?: SchemaLike;
  minItems?: number;
  maxItems?: number;
  allOf?: SchemaLike[];
}

/**
 * One schema for an `allOf` (OpenAPI's way of extending a schema, as Pet extends NewPet): properties and required
 * lists joined, other keywords from the first part that states them. Enough for the shapes documents use; a
 * document whose allOf parts contradict each other has no valid instance anyway.
 */
export function flatten(schema: SchemaLike): SchemaLike {
  if (!schema.allOf) return schema;
  const parts = [{ ...schema, allOf: undefined }, ...schema.allOf.map(flatten)];
  const merged: SchemaLike = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined) continue;
      if (key === 'properties') merged.properties = { ...merged.properties, ...(value as Record<string, SchemaLike>) };
      else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      else if (!(key in merged)) (merged as Record<string, unknown>)[key] = value;
    }
  }
  if (merged.properties && !merged.type) merged.type = 'object';
  return merged;
}

/** The range an integer schema allows, as bigints: `format: int64` is −2^63…2^63−1, int32 −2^31…2^31−1. */
export function integerRange(schema: SchemaLike): { min: bigint; max: bigint } {
  let min = schema.format === 'int32' ? -(2n ** 31n) : INT64_MIN;
  let max = schema.format === 'int32' ? 2n ** 31n - 1n : INT64_MAX;
  if (typeof schema.minimum === 'number') {
    const bound =
      BigInt(Math.ceil(schema.minimum)) + (schema.exclusiveMinimum && Number.isInteger(schema.minimum) ? 1n : 0n);
    if (bound > min) min = bound;
  }
  if (typeof schema.maximum === 'number') {
    const bound =
      BigInt(Math.floor(schema.maximum)) - (schema.exclusiveMaximum && Number.isInteger(schema.maximum) ? 1n : 0n);
    if (bound < max) max = bound;
  }
  return { min, max };
}

/** An integer in its in-memory form (src/json/int64.ts): a number when safe, else a bigint. */
export function toInt(value: bigint): number | bigint {
  return value >= -(2n ** 53n - 1n) && value <= 2n ** 53n - 1n ? Number(value) : value;
}

/** The JSON type of a value as JSON Schema names it (a bigint is an integer). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
