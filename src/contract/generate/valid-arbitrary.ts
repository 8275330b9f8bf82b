import type { Arbitrary } from './fast-check.js';
import { made, UnhonouredKeyword, type Generated } from './generated.js';
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
  const plan = planValue(schema, options);
  if (!plan.ok) return plan;
  const arbitrary = planArbitrary(plan.value);
  return arbitrary.ok ? made(arbitrary.value) : arbitrary;
}

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
