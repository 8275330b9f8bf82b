import type { Arbitrary } from './fast-check.js';
import { UnhonouredKeyword, type Generated } from './generated.js';
import { integerRange, type SchemaLike } from './json-schema.js';
import { integerEdgeValues, planArbitrary } from './plan-arbitrary.js';
import { planValue, type PlanOptions } from './value-plan.js';

export { atMostCodePoints } from './plan-arbitrary.js';
export type { PlanOptions as ValueOptions } from './value-plan.js';

/**
 * Instances of a schema, derived from the document at run time, honouring every keyword of both dialects (OpenAPI
 * 3.0 with `nullable` and boolean exclusive bounds; 3.1, JSON Schema 2020-12): formats, patterns, const and enum,
 * type arrays, bounds and multipleOf, lengths, items and prefixItems, uniqueness, properties (readOnly left out of
 * requests, writeOnly out of responses), additional and pattern properties, allOf/anyOf/oneOf (a discriminator sets
 * its tag), not, recursion to a bounded depth (value-plan.ts). Integers over the whole int64 range, boundaries
 * favoured; strings from ASCII to any Unicode scalar, control characters included; optional properties present and
 * absent. Each value is checked against the schema before it is offered (schema-check.ts).
 *
 * Where a keyword cannot be honoured the answer says which (`ok: false`), so the case that needed the value is "not
 * run" naming it, never one that sends a value that might be invalid as a valid one.
 * @example const values = validValues(schema, { direction: 'request', document: spec.document });
 */
export function validValues(schema: unknown, options: PlanOptions = {}): Generated<Arbitrary<unknown>> {
  const key = `${options.direction ?? 'request'}/${options.optionalDepth ?? ''}`;
  const cacheable = typeof schema === 'object' && schema !== null;
  const document = options.document ?? NO_DOCUMENT;
  const bySchema = cacheable ? built.get(schema) : undefined;
  const cached = bySchema?.get(document)?.get(key);
  if (cached) return cached;
  const plan = planValue(schema, options);
  const values = plan.ok ? planArbitrary(plan.value) : plan;
  if (cacheable) {
    const forSchema = bySchema ?? new WeakMap<object, Map<string, Generated<Arbitrary<unknown>>>>();
    built.set(schema, forSchema);
    const forDocument = forSchema.get(document) ?? new Map<string, Generated<Arbitrary<unknown>>>();
    forSchema.set(document, forDocument);
    forDocument.set(key, values);
  }
  return values;
}

/**
 * Arbitraries already built, by schema object, document and options: a case builds the same body's values once per
 * mutation, and an arbitrary is a value (fast-check's are immutable), so it is shared.
 */
const built = new WeakMap<object, WeakMap<object, Map<string, Generated<Arbitrary<unknown>>>>>();
const NO_DOCUMENT = {};

/**
 * As validValues, for callers written before issue 53: throws UnhonouredKeyword (naming the keyword) where the
 * schema has a keyword no generated value can be vouched for.
 */
export function validArbitrary(input: SchemaLike, options: PlanOptions = {}): Arbitrary<unknown> {
  const values = validValues(input, options);
  if (!values.ok) throw new UnhonouredKeyword(values.unhonoured);
  return values.value;
}

/** The values of an integer schema where implementations go wrong: 0, ±1, int32 and double-precision edges, the ends. */
export function integerEdges(schema: SchemaLike): bigint[] {
  const { min, max } = integerRange(schema);
  return integerEdgeValues(min, max);
}

/** Integers of a schema (bounds in either dialect, int32/int64), edges favoured: a safe one a number, else a bigint. */
export function integerArbitrary(schema: SchemaLike): Arbitrary<number | bigint> {
  const values = validValues({ ...schema, type: 'integer', nullable: false }, { direction: 'any' });
  if (!values.ok) throw new UnhonouredKeyword(values.unhonoured);
  return values.value as Arbitrary<number | bigint>;
}
