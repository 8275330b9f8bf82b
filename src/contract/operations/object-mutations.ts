import type { Mutation } from '../generate/invalid-variants.js';
import { flatten, type SchemaLike } from '../generate/json-schema.js';

/**
 * Breaks of an object schema's own keywords that invalid-variants.ts does not make yet: `minProperties` (JSON Schema
 * 2020-12 Validation §6.5.2, "an object instance is valid … if its number of properties is greater than, or equal
 * to, the value of this keyword"). `{}` for a `minProperties` of 1 with nothing required (a required member's
 * absence is broken there already). To be dropped once the generators break every keyword themselves.
 */
export function objectMutations(input: SchemaLike): Mutation[] {
  const schema = flatten(input) as SchemaLike & { minProperties?: unknown };
  if (schema.minProperties !== 1 || (schema.required ?? []).length > 0) return [];
  return [{ label: 'body: {} has fewer than minProperties 1 members', apply: () => ({}) }];
}
