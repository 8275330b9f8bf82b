import { fc, type Arbitrary } from './fast-check.js';
import { flatten, integerRange, toInt, type SchemaLike } from './json-schema.js';

/**
 * Instances of a schema, derived from the document at run time: every enum value, integers over the schema's whole
 * range (int64: −2^63…2^63−1, boundaries and powers of two favoured, bigints beyond ±(2^53−1)), strings from ASCII
 * to any Unicode scalar, control characters included, short and long; optional properties present and absent.
 * Strings are never empty unless the schema says so (minLength 0 is the default, but an empty name is a corner
 * the interface leaves to the service: the runner does not judge it).
 */
export function validArbitrary(input: SchemaLike): Arbitrary<unknown> {
  const schema = flatten(input);
  const plain = plainArbitrary(schema);
  return schema.nullable ? fc.oneof(plain, fc.constant(null)) : plain;
}

function plainArbitrary(schema: SchemaLike): Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
        ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
      });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArbitrary(schema);
    case 'array':
      return fc.array(validArbitrary(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
    default:
      return objectArbitrary(schema);
  }
}

/** The values of an integer schema where implementations go wrong: 0, ±1, int32 and double-precision edges, the ends. */
export function integerEdges(schema: SchemaLike): bigint[] {
  const { min, max } = integerRange(schema);
  const edges = [
    min,
    max,
    0n,
    1n,
    -1n,
    2n ** 31n - 1n,
    2n ** 31n,
    2n ** 32n,
    2n ** 53n - 1n,
    2n ** 53n,
    2n ** 53n + 1n,
    -(2n ** 53n) - 1n,
    min + 1n,
    max - 1n,
  ];
  return [...new Set(edges.filter((v) => v >= min && v <= max))];
}

export function integerArbitrary(schema: SchemaLike): Arbitrary<number | bigint> {
  const { min, max } = integerRange(schema);
  const edges = integerEdges(schema);
  const small = fc.bigInt({ min: min > -1000n ? min : -1000n, max: max < 1000n ? max : 1000n });
  const whole = fc.bigInt({ min, max });
  const arbitraries = [whole, small, ...(edges.length ? [fc.constantFrom(...edges)] : [])];
  return fc.oneof(...arbitraries).map(toInt);
}

function stringArbitrary(schema: SchemaLike): Arbitrary<string> {
  const minLength = Math.max(schema.minLength ?? 1, 1);
  const maxLength = schema.maxLength ?? 400;
  const short = Math.min(maxLength, Math.max(minLength, 24));
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength: short }) },
      // Any Unicode scalar value: accents, CJK, emoji (astral), combining marks.
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: short }) },
      // Control characters (\u0000, \n, DEL …) and quotes: JSON escapes them, a hand-made serialiser may not.
      { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', minLength, maxLength: short }) },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'grapheme', minLength: Math.max(minLength, Math.min(maxLength, 65)), maxLength }),
      },
    )
    .map((text) => atMostCodePoints(text, maxLength));
}

/**
 * fast-check counts `maxLength` in graphemes (`A` + U+0300 is one), JSON Schema in code points (the characters of
 * RFC 8259 §7; AJV's `unicode` option): a grapheme of several code points could push a string past the schema's
 * `maxLength`, and a correct target would refuse a "valid" example. Cut to `maxLength` code points; a grapheme has at
 * least one code point, so `minLength` still holds.
 */
export function atMostCodePoints(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const points = Array.from(text);
  return points.length <= maxLength ? text : points.slice(0, maxLength).join('');
}

function objectArbitrary(schema: SchemaLike): Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, validArbitrary(property)]),
  );
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
}
