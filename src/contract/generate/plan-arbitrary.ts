import { fc, type Arbitrary } from './fast-check.js';
import { checkAll } from './conjunction.js';
import { formatArbitrary } from './formats.js';
import { made, unhonoured, type Generated } from './generated.js';
import { ceilDiv, floorDiv, type Plan, type PropertyPlan } from './value-plan.js';
import { toInt } from './json-schema.js';
import { patternArbitrary, PROBE_TRIES } from './pattern-strings.js';
import { planSample, within } from './plan-sample.js';
import { codePoints, jsonKey, patternRegExp } from './schema-check.js';

/**
 * Random values of a plan (fast-check must be loaded), or the keyword a value cannot be found for. Arrays are
 * generated up to 5 items (or minItems), strings up to 400 code points unless the schema says less.
 */
export function planArbitrary(plan: Plan): Generated<Arbitrary<unknown>> {
  switch (plan.kind) {
    case 'fixed':
      return made(fc.constantFrom(...plan.values));
    case 'null':
      return made(fc.constant(null));
    case 'boolean':
      return made(fc.boolean());
    case 'integer':
      return made(integerValues(plan));
    case 'number':
      return made(numberValues(plan));
    case 'string':
      return stringValues(plan);
    case 'array':
      return arrayValues(plan);
    case 'object':
      return objectValues(plan);
    case 'choice': {
      const options: Arbitrary<unknown>[] = [];
      let first: Generated<Arbitrary<unknown>> | undefined;
      for (const option of plan.options) {
        const built = planArbitrary(option);
        if (built.ok) options.push(built.value);
        else first ??= built;
      }
      return options.length > 0 ? made(fc.oneof(...options)) : first!;
    }
    case 'checked':
      return checkedValues(plan);
  }
}

/**
 * A plan whose values are checked against its schemas: each value that does not hold is replaced by one that does,
 * found beforehand among `PROBE_TRIES` seeded random values and a few deterministic ones (never a filter that could
 * spin: a rare hit costs variety, not time). None found: the keyword that refused them is not honoured.
 */
function checkedValues(plan: Extract<Plan, { kind: 'checked' }>): Generated<Arbitrary<unknown>> {
  const inner = planArbitrary(plan.plan);
  const holds = (value: unknown) => checkAll(plan.nodes, value, plan.direction).valid === true;
  const found: unknown[] = [];
  let refusal: string | undefined;
  let refusedAt: string | undefined;
  const consider = (value: unknown) => {
    if (holds(value)) {
      if (found.length < 16) found.push(value);
      return;
    }
    if (refusal === undefined) {
      const verdict = checkAll(plan.nodes, value, plan.direction);
      refusal = verdict.keyword;
      refusedAt = verdict.at;
    }
  };
  for (let variant = 0; variant < 8; variant++) {
    const sample = planSample(plan.plan, 'contract', variant);
    if (sample.ok) consider(sample.value);
  }
  // Random tries only where no deterministic value holds: a stand-in is all they are for.
  if (inner.ok && found.length === 0)
    for (const value of fc.sample(inner.value, { seed: 53, numRuns: PROBE_TRIES / 4 })) consider(value);
  if (found.length === 0) {
    if (!inner.ok) return inner;
    return unhonoured(refusal ?? 'schema', refusedAt ?? '', 'no generated value holds for every keyword of the schema');
  }
  if (!inner.ok) return made(fc.constantFrom(...found));
  const stand = (value: unknown) => found[hashOf(value) % found.length];
  return made(inner.value.map((value) => (holds(value) ? value : stand(value))));
}

function hashOf(value: unknown): number {
  const key = jsonKey(value);
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return hash;
}

/**
 * Integers where implementations go wrong as well as anywhere in range: 0, ±1, the int32 and double-precision edges,
 * the ends (int64: −2^63…2^63−1, bigints beyond ±(2^53−1)); multiples of the step only.
 */
function integerValues(plan: Extract<Plan, { kind: 'integer' }>): Arbitrary<number | bigint> {
  const { min, max, step } = plan;
  const low = ceilDiv(min, step);
  const high = floorDiv(max, step);
  const edges = integerEdgeValues(min, max).filter((v) => v % step === 0n);
  const small = fc.bigInt({ min: low > -1000n ? low : -1000n, max: high < 1000n ? high : 1000n });
  const parts = [fc.bigInt({ min: low, max: high }), ...(low <= 1000n && high >= -1000n ? [small] : [])].map((a) =>
    a.map((k) => k * step),
  );
  return fc.oneof(...parts, ...(edges.length ? [fc.constantFrom(...edges)] : [])).map(toInt);
}

/** The integers of [min, max] where implementations go wrong. */
export function integerEdgeValues(min: bigint, max: bigint): bigint[] {
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

function numberValues(plan: Extract<Plan, { kind: 'number' }>): Arbitrary<number> {
  if (plan.multipleOf !== undefined) {
    const m = plan.multipleOf;
    const low = plan.min === undefined ? -1e6 : Math.ceil(plan.min / m);
    const high = plan.max === undefined ? 1e6 : Math.floor(plan.max / m);
    const from = Math.max(low, -1e9);
    const to = Math.min(high, 1e9);
    return fc.integer({ min: Math.min(from, to), max: Math.max(from, to) }).map((k) => k * m);
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(plan.min !== undefined ? { min: plan.min, minExcluded: plan.minExcluded } : {}),
    ...(plan.max !== undefined ? { max: plan.max, maxExcluded: plan.maxExcluded } : {}),
  });
}

/**
 * Strings: a format's values, else the first pattern's, else text from ASCII to any Unicode scalar, control characters
 * included, short and long. Lengths and further patterns are held by keeping the values that fit (probed first).
 */
function stringValues(plan: Extract<Plan, { kind: 'string' }>): Generated<Arbitrary<string>> {
  if (plan.plain) return made(plainStrings(plan.minLength, plan.maxLength ?? STRING_CAP));
  let base: Arbitrary<string> | undefined = plan.format === undefined ? undefined : formatArbitrary(plan.format);
  let patterns = plan.patterns;
  if (!base) {
    const first = patternArbitrary(plan.patterns[0]!);
    if (!first.ok) return first;
    base = first.value;
    patterns = plan.patterns.slice(1);
  }
  const regexes = patterns.map((p) => patternRegExp(p)).filter((r): r is RegExp => r !== undefined);
  const fits = (text: string) => {
    const length = codePoints(text);
    return (
      length >= plan.minLength &&
      (plan.maxLength === undefined || length <= plan.maxLength) &&
      regexes.every((r) => r.test(text))
    );
  };
  // Several patterns (allOf parts): a match of one followed by a match of the next also fits unanchored ends.
  if (patterns.length > 0) {
    const next = patternArbitrary(patterns[0]!);
    if (next.ok) {
      const first = base;
      base = fc.oneof(
        first,
        fc.tuple(first, next.value).map(([a, b]) => a + b),
      );
    }
  }
  const source = base;
  const found = fc.sample(source, { seed: 53, numRuns: PROBE_TRIES }).filter(fits);
  for (let variant = 0; variant < 8; variant++) {
    const sample = planSample(plan, 'contract', variant);
    if (sample.ok && typeof sample.value === 'string' && fits(sample.value)) found.push(sample.value);
  }
  if (found.length === 0) {
    const keyword = patterns.length > 0 ? 'pattern' : plan.format !== undefined ? 'format' : 'maxLength';
    return unhonoured(keyword, '', `no string of the format or pattern fits every keyword in ${PROBE_TRIES} tries`);
  }
  const unique = [...new Set(found)];
  return made(source.map((text) => (fits(text) ? text : unique[hashOf(text) % unique.length]!)));
}

/**
 * Text from ASCII to any Unicode scalar, control characters included, short and long; `maxLength` counted in code
 * points as JSON Schema counts it (fast-check counts graphemes, so values are cut: atMostCodePoints).
 */
export function plainStrings(minLength: number, maxLength: number): Arbitrary<string> {
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

/** How long a string gets at most when its schema allows longer, in code points. */
export const STRING_CAP = 400;

/** How many items an array gets at most when its schema allows more: 5, as before issue 53. */
export const ITEMS_CAP = 5;

function arrayValues(plan: Extract<Plan, { kind: 'array' }>): Generated<Arbitrary<unknown[]>> {
  const prefix: Arbitrary<unknown>[] = [];
  for (const [i, position] of plan.prefix.entries()) {
    const built = within(planArbitrary(position), String(i));
    if (!built.ok) return built;
    prefix.push(built.value);
  }
  let rest: Arbitrary<unknown> | undefined;
  if (plan.rest) {
    const built = within(planArbitrary(plan.rest), String(plan.prefix.length));
    if (!built.ok && plan.minItems > plan.prefix.length) return built;
    if (built.ok) rest = built.value;
  }
  const longest = Math.min(plan.maxItems, Math.max(plan.minItems, ITEMS_CAP), rest ? Infinity : prefix.length);
  const shortest = Math.min(plan.minItems, longest);
  if (prefix.length === 0 && rest) {
    const options = { minLength: shortest, maxLength: longest };
    return made(plan.unique ? fc.uniqueArray(rest, { ...options, selector: jsonKey }) : fc.array(rest, options));
  }
  return made(
    fc.integer({ min: shortest, max: longest }).chain((length) => {
      const head = prefix.slice(0, length);
      const tail = rest
        ? fc.array(rest, { minLength: length - head.length, maxLength: length - head.length })
        : fc.constant([]);
      return fc.tuple(fc.tuple(...head), tail).map(([h, t]) => [...h, ...t]);
    }),
  );
}

function objectValues(plan: Extract<Plan, { kind: 'object' }>): Generated<Arbitrary<Record<string, unknown>>> {
  const values = new Map<PropertyPlan, Arbitrary<unknown>>();
  const properties: PropertyPlan[] = [];
  for (const property of plan.properties) {
    const built = within(planArbitrary(property.plan), property.name);
    if (!built.ok) {
      if (property.required) return built;
      continue;
    }
    values.set(property, built.value);
    properties.push(property);
  }
  const required = properties.filter((p) => p.required);
  const optional = properties.filter((p) => !p.required);
  const room = plan.maxProperties - required.length;
  const extras = extraMembers(plan, new Set(properties.map((p) => p.name)));
  const needed = Math.max(0, plan.minProperties - required.length);
  const chosen = fc.subarray(optional, {
    minLength: Math.min(needed, optional.length),
    maxLength: Math.min(optional.length, room),
  });
  return made(
    chosen.chain((present) => {
      const picked = new Set(present);
      // Objects as JSON.parse makes them: with a prototype (AJV's uniqueItems calls valueOf).
      const record = fc.record(
        Object.fromEntries(properties.filter((p) => p.required || picked.has(p)).map((p) => [p.name, values.get(p)!])),
        { noNullPrototype: true },
      );
      const left = Math.max(0, Math.min(room - present.length, 2));
      const must = Math.max(0, needed - present.length);
      if (!extras || left + must === 0) return record;
      return fc
        .tuple(
          record,
          fc.uniqueArray(extras, { minLength: must, maxLength: Math.max(must, left), selector: ([name]) => name }),
        )
        .map(([base, more]) => ({ ...base, ...Object.fromEntries(more) }));
    }),
  );
}

/** Members beyond the declared properties, named from the plan's names or patterns, never a declared name. */
function extraMembers(
  plan: Extract<Plan, { kind: 'object' }>,
  declared: Set<string>,
): Arbitrary<[string, unknown]> | undefined {
  const members: Arbitrary<[string, unknown]>[] = [];
  for (const extra of plan.extras) {
    const value = planArbitrary(extra.plan);
    if (!value.ok) continue;
    let names: Arbitrary<string> | undefined;
    if (extra.names) names = fc.constantFrom(...extra.names);
    else if (extra.pattern !== undefined) {
      const matching = patternArbitrary(extra.pattern);
      names = matching.ok ? matching.value : undefined;
    }
    if (!names) continue;
    // Names the pattern gives that no declared property has, found beforehand (a filter could spin).
    const free = [...new Set(fc.sample(names, { seed: 53, numRuns: 50 }))].filter(
      (name) => !declared.has(name) && name !== '__proto__',
    );
    if (free.length === 0) continue;
    const fresh = names.map((name) =>
      declared.has(name) || name === '__proto__' ? free[hashOf(name) % free.length]! : name,
    );
    members.push(fc.tuple(fresh, value.value));
  }
  return members.length > 0 ? fc.oneof(...members) : undefined;
}
