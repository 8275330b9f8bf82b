import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { flatten, integerRange, jsonType, type SchemaLike } from './json-schema.js';

/** One way of breaking one constraint of a schema, applied to a valid instance. */
export interface Mutation {
  /** What is broken, as a report shows it: `body.status: "AVAILABLE" is not in the enum`. */
  label: string;
  apply(valid: unknown): unknown;
}

/** A value of each JSON type, to put where another type is required. */
const SAMPLES: Record<string, unknown> = {
  string: 'x',
  integer: 7,
  number: 1.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

/** Which JSON types a schema accepts: an integer is also a number; `nullable` adds null. */
function acceptedTypes(schema: SchemaLike): Set<string> {
  const types = new Set<string>();
  if (schema.type) types.add(schema.type);
  else if (schema.properties) types.add('object');
  if (schema.type === 'number') types.add('integer');
  if (schema.nullable) types.add('null');
  if (schema.enum) for (const value of schema.enum) types.add(jsonType(value));
  return types;
}

/**
 * Each constraint of `schema` broken one at a time, derived from the document, never hand-listed per field: for the
 * whole value a value of every JSON type the schema refuses, and for each property of an object: left out when
 * required, each refused JSON type (null included), a value outside its enum (empty, another letter case, unknown),
 * outside its minimum/maximum or int64/int32 range, not an integer, too short/long, and an unknown property where
 * additionalProperties is false.
 */
export function mutationsOf(input: SchemaLike, where = 'body'): Mutation[] {
  const schema = flatten(input);
  const accepted = acceptedTypes(schema);
  const mutations: Mutation[] = [];
  if (accepted.size > 0) {
    for (const [type, sample] of Object.entries(SAMPLES)) {
      if (accepted.has(type) || (type === 'integer' && accepted.has('number'))) continue;
      mutations.push({
        label: `${where}: ${describe(sample)} (a JSON ${type}) where ${[...accepted].join(' or ')} is required`,
        apply: () => sample,
      });
    }
  }
  for (const rule of valueRules(schema)) mutations.push({ label: `${where}: ${rule.label}`, apply: () => rule.value });
  if (schema.type === 'object' || schema.properties) {
    const properties = schema.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      const path = `${where}.${name}`;
      if (schema.required?.includes(name)) {
        mutations.push({ label: `${path}: left out (it is required)`, apply: (valid) => without(valid, name) });
      }
      for (const mutation of mutationsOf(property, path)) {
        mutations.push({
          label: mutation.label,
          apply: (valid) => ({
            ...(valid as object),
            [name]: mutation.apply((valid as Record<string, unknown>)[name]),
          }),
        });
      }
    }
    if (schema.additionalProperties === false) {
      mutations.push({
        label: `${where}: an unknown property "unexpected" (additionalProperties is false)`,
        apply: (valid) => ({ ...(valid as object), unexpected: 1 }),
      });
    }
  }
  return mutations;
}

/** Values of the right JSON type that break a keyword: enum, range, integer-ness, length. */
function valueRules(schema: SchemaLike): { label: string; value: unknown }[] {
  const rules: { label: string; value: unknown }[] = [];
  if (schema.enum) {
    const known = new Set(schema.enum.map((v) => JSON.stringify(v)));
    const candidates = schema.enum.every((v) => typeof v === 'string')
      ? ['', ...schema.enum.map((v) => v.toUpperCase()), ` ${schema.enum[0] as string}`, 'contract-unknown-value']
      : [];
    for (const candidate of candidates) {
      if (!known.has(JSON.stringify(candidate)))
        rules.push({
          label: `${describe(candidate)} is not in the enum [${schema.enum.map(String).join(', ')}]`,
          value: candidate,
        });
    }
    return rules;
  }
  if (schema.type === 'integer') {
    const { min, max } = integerRange(schema);
    const below = min - 1n;
    const above = max + 1n;
    const bound = (value: bigint) =>
      value === INT64_MIN - 1n || value === INT64_MAX + 1n || value === 2n ** 31n || value === -(2n ** 31n) - 1n
        ? `outside ${schema.format ?? 'the'} range`
        : value < min
          ? `below the minimum ${min}`
          : `above the maximum ${max}`;
    rules.push({ label: `${below} is ${bound(below)}`, value: toJsonInteger(below) });
    rules.push({ label: `${above} is ${bound(above)}`, value: toJsonInteger(above) });
    // Absurd values, 20 digits: beyond any integer type the service could parse them into.
    if (min > INT64_MIN)
      rules.push({ label: `-${10n ** 20n - 1n} is far below the minimum ${min}`, value: -(10n ** 20n - 1n) });
    if (max < INT64_MAX)
      rules.push({ label: `${10n ** 20n - 1n} is far above the maximum ${max}`, value: 10n ** 20n - 1n });
    // A number in a string: a target that coerces it has no integer type at all.
    rules.push({ label: '"7" is a string, not an integer', value: '7' });
  }
  if (schema.type === 'number') {
    if (typeof schema.minimum === 'number')
      rules.push({ label: `below the minimum ${schema.minimum}`, value: schema.minimum - 1 });
    if (typeof schema.maximum === 'number')
      rules.push({ label: `above the maximum ${schema.maximum}`, value: schema.maximum + 1 });
  }
  if (schema.type === 'string') {
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      rules.push({ label: `shorter than minLength ${schema.minLength}`, value: 'x'.repeat(schema.minLength - 1) });
    if (typeof schema.maxLength === 'number')
      rules.push({ label: `longer than maxLength ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength + 1) });
    const badFormat: Record<string, string> = {
      'date-time': 'not-a-date-time',
      date: '2026-13-45',
      email: 'not-an-email',
      uuid: 'not-a-uuid',
      uri: 'not a uri',
    };
    if (schema.format && badFormat[schema.format])
      rules.push({ label: `"${badFormat[schema.format]}" is not a ${schema.format}`, value: badFormat[schema.format] });
  }
  return rules;
}

/** An integer beyond the int64 range is a bigint in memory and leaves as its digits (stringifyJson). */
function toJsonInteger(value: bigint): number | bigint {
  return value >= -(2n ** 53n - 1n) && value <= 2n ** 53n - 1n ? Number(value) : value;
}

function without(value: unknown, name: string): unknown {
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[name];
  return copy;
}

function describe(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
