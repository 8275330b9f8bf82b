import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { isSchemaNode, lowerBound, upperBound } from '../../openapi/schema-keywords.js';

/**
 * The part of a Schema Object the generators read, in either dialect: OpenAPI 3.0 (`nullable`, boolean exclusive
 * bounds) or 3.1, which is JSON Schema 2020-12 (type arrays, numeric exclusive bounds, `const`, `prefixItems`). The
 * generators read keywords through `src/openapi/schema-keywords.ts`; these fields are what callers touch directly.
 * A schema reached through a loaded document may be shared and cyclic (a `$ref` is the object it names).
 */
export interface SchemaLike {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  required?: string[];
  properties?: Record<string, SchemaLike>;
  additionalProperties?: boolean | SchemaLike;
  patternProperties?: Record<string, SchemaLike>;
  minProperties?: number;
  maxProperties?: number;
  /** 2020-12 also allows `true`/`false` here; typed as a schema for the callers that read it as one. */
  items?: SchemaLike;
  prefixItems?: SchemaLike[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  allOf?: SchemaLike[];
  anyOf?: SchemaLike[];
  oneOf?: SchemaLike[];
  not?: SchemaLike;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  readOnly?: boolean;
  writeOnly?: boolean;
}

/**
 * One schema for an `allOf` (OpenAPI's way of extending a schema, as Pet extends NewPet): properties and required
 * lists joined, a property named by several parts kept as the `allOf` of its schemas, bounds and lengths the
 * tightest, other keywords from the first part that states them. For callers that read properties; the generators
 * themselves take every part as a conjunction (conjunction.ts). Cycle-safe: an allOf that contains itself is read once.
 */
export function flatten(schema: SchemaLike): SchemaLike {
  if (!isSchemaNode(schema) || !Array.isArray(schema.allOf)) return schema;
  const parts: SchemaLike[] = [];
  collectAllOf(schema, parts, new Set());
  const merged: SchemaLike = {};
  const target = merged as Record<string, unknown>;
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined || key === 'allOf') continue;
      if (key === 'properties')
        merged.properties = joinProperties(merged.properties, value as SchemaLike['properties']);
      else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      else if (TIGHTER_MIN.has(key) && typeof value === 'number' && typeof target[key] === 'number')
        target[key] = Math.max(target[key], value);
      else if (TIGHTER_MAX.has(key) && typeof value === 'number' && typeof target[key] === 'number')
        target[key] = Math.min(target[key], value);
      else if (!(key in merged)) target[key] = value;
    }
  }
  if (merged.properties && !merged.type) merged.type = 'object';
  return merged;
}

const TIGHTER_MIN = new Set(['minLength', 'minItems', 'minProperties']);
const TIGHTER_MAX = new Set(['maxLength', 'maxItems', 'maxProperties']);

function collectAllOf(schema: SchemaLike, into: SchemaLike[], seen: Set<SchemaLike>): void {
  if (!isSchemaNode(schema) || seen.has(schema)) return;
  seen.add(schema);
  into.push(schema);
  for (const part of (schema as SchemaLike).allOf ?? []) collectAllOf(part, into, seen);
}

function joinProperties(
  into: Record<string, SchemaLike> | undefined,
  more: Record<string, SchemaLike> | undefined,
): Record<string, SchemaLike> {
  const joined: Record<string, SchemaLike> = { ...into };
  for (const [name, schema] of Object.entries(more ?? {})) {
    const before = joined[name];
    joined[name] = before === undefined || before === schema ? schema : { allOf: [before, schema] };
  }
  return joined;
}

/**
 * The range an integer schema allows, as bigints: `format: int64` (and no format: the in-memory integers of
 * src/json/int64.ts) is −2^63…2^63−1, int32 −2^31…2^31−1; `minimum`/`maximum` with 3.0's boolean or 3.1's numeric
 * exclusive bounds (schema-keywords.ts). Empty when `min > max`.
 */
export function integerRange(schema: SchemaLike): { min: bigint; max: bigint } {
  let min = schema.format === 'int32' ? -(2n ** 31n) : INT64_MIN;
  let max = schema.format === 'int32' ? 2n ** 31n - 1n : INT64_MAX;
  const lower = lowerBound(schema);
  if (lower && Number.isFinite(lower.value)) {
    const ceil = BigInt(Math.ceil(lower.value));
    const bound = ceil + (lower.exclusive && Number.isInteger(lower.value) ? 1n : 0n);
    if (bound > min) min = bound;
  }
  const upper = upperBound(schema);
  if (upper && Number.isFinite(upper.value)) {
    const floor = BigInt(Math.floor(upper.value));
    const bound = floor - (upper.exclusive && Number.isInteger(upper.value) ? 1n : 0n);
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
