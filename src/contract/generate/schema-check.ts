import { fullFormats } from 'ajv-formats/dist/formats.js';
import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import {
  constOf,
  isSchemaNode,
  lowerBound,
  typesOf,
  upperBound,
  type JsonTypeName,
  type SchemaNode,
} from '../../openapi/schema-keywords.js';

/**
 * Which way a value travels, for `readOnly` and `writeOnly` (OAS 3.0.3 §4.7.25: a readOnly property "SHOULD NOT be
 * sent as part of the request" and, if required, "the required will take effect on the response only"; writeOnly
 * the other way round). `any`: both kinds are ordinary properties (a component schema judged on its own).
 */
export type Direction = 'request' | 'response' | 'any';

/** A three-valued verdict: valid, invalid (naming the first keyword that refuses), or undecided (naming why). */
export interface Verdict {
  valid: boolean | undefined;
  /** The keyword that refused the value, or that this checker cannot evaluate. */
  keyword?: string;
  /** Where, as a JSON pointer into the value (`/category/id`). */
  at?: string;
}

const VALID: Verdict = { valid: true };

/**
 * Keywords that constrain a value and that this checker does not evaluate: a schema holding one is undecided, so a
 * generator never offers a value it cannot vouch for (the case is "not run" naming the keyword).
 */
export const UNCHECKED_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef', 'unevaluatedProperties', 'unevaluatedItems'];

/**
 * Whether `value` is an instance of `schema`, as JSON Schema 2020-12 (and OpenAPI 3.0.3, read through
 * schema-keywords.ts) define it, with the formats of the project's AJV setup (ajv-formats 3 and the int64 rule of
 * bigint-aware.ts). Used by the generators to vouch for what they build: a value offered as valid is one this
 * answers `true` for, one offered as invalid one it answers `false` for; undecided values are never offered.
 * A property test holds it to the validator the mock uses (value-generation.test.ts).
 * @example checkValue({ type: 'string', format: 'uuid' }, 'x').valid === false
 */
export function checkValue(schema: unknown, value: unknown, direction: Direction = 'any'): Verdict {
  return check(schema, value, { direction, steps: 0, depth: 0 }, '');
}

interface CheckContext {
  direction: Direction;
  /** Schemas entered in all: bounded against a schema that holds itself without consuming the value. */
  steps: number;
  /** Schemas entered on the current path: `{allOf: [itself]}` would never end. */
  depth: number;
}

const MAX_STEPS = 100_000;
const MAX_NESTING = 400;

function check(schema: unknown, value: unknown, ctx: CheckContext, at: string): Verdict {
  if (schema === true || schema === undefined) return VALID;
  if (schema === false) return { valid: false, keyword: 'false', at };
  if (!isSchemaNode(schema)) return VALID;
  if (++ctx.steps > MAX_STEPS || ctx.depth >= MAX_NESTING) return { valid: undefined, keyword: 'depth', at };
  ctx.depth++;
  try {
    return checkNode(schema, value, ctx, at);
  } finally {
    ctx.depth--;
  }
}

function checkNode(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  let undecided: Verdict | undefined;
  for (const keyword of UNCHECKED_KEYWORDS)
    if (keyword in schema && !(keyword === '$ref' && typeof schema.$ref !== 'string'))
      undecided ??= { valid: undefined, keyword, at };
  for (const rule of RULES) {
    const verdict = rule(schema, value, ctx, at);
    if (verdict.valid === false) return verdict;
    if (verdict.valid === undefined) undecided ??= verdict;
  }
  return undecided ?? VALID;
}

type Rule = (schema: SchemaNode, value: unknown, ctx: CheckContext, at: string) => Verdict;

const RULES: Rule[] = [
  checkType,
  checkEnumAndConst,
  checkNumber,
  checkString,
  checkArray,
  checkObject,
  checkCombinators,
  checkConditional,
];

/** The JSON type names a value has: an integer is also a number (2020-12 Validation §6.1.1); a bigint is an integer. */
export function valueTypes(value: unknown): JsonTypeName[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  switch (typeof value) {
    case 'bigint':
      return ['integer', 'number'];
    case 'number':
      return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
    case 'string':
      return ['string'];
    case 'boolean':
      return ['boolean'];
    case 'object':
      return ['object'];
    default:
      return [];
  }
}

function checkType(schema: SchemaNode, value: unknown, _: CheckContext, at: string): Verdict {
  const types = typesOf(schema);
  if (!types) return VALID;
  const has = valueTypes(value);
  return types.some((type) => has.includes(type)) ? VALID : { valid: false, keyword: 'type', at };
}

function checkEnumAndConst(schema: SchemaNode, value: unknown, _: CheckContext, at: string): Verdict {
  const constant = constOf(schema);
  if (constant && !jsonEqual(constant.value, value)) return { valid: false, keyword: 'const', at };
  if (Array.isArray(schema.enum) && !schema.enum.some((member) => jsonEqual(member, value)))
    return { valid: false, keyword: 'enum', at };
  return VALID;
}

function isNumeric(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
}

function checkNumber(schema: SchemaNode, value: unknown, _: CheckContext, at: string): Verdict {
  if (!isNumeric(value)) return VALID;
  const exact = numberVerdict(schema, value, at);
  if (typeof value !== 'bigint') return exact;
  // AJV meets a bigint as the number forValidation puts in its place (src/json/for-validation.ts): decided only
  // where both readings agree.
  const standIn = numberVerdict(
    schema,
    value >= INT64_MIN && value <= INT64_MAX
      ? value > 0n
        ? Number.MAX_SAFE_INTEGER
        : -Number.MAX_SAFE_INTEGER
      : Number(value),
    at,
  );
  return exact.valid === standIn.valid ? exact : { valid: undefined, keyword: exact.keyword ?? standIn.keyword, at };
}

function numberVerdict(schema: SchemaNode, value: number | bigint, at: string): Verdict {
  const lower = lowerBound(schema);
  if (lower && (lower.exclusive ? compare(value, lower.value) <= 0 : compare(value, lower.value) < 0))
    return { valid: false, keyword: typeof schema.exclusiveMinimum === 'number' ? 'exclusiveMinimum' : 'minimum', at };
  const upper = upperBound(schema);
  if (upper && (upper.exclusive ? compare(value, upper.value) >= 0 : compare(value, upper.value) > 0))
    return { valid: false, keyword: typeof schema.exclusiveMaximum === 'number' ? 'exclusiveMaximum' : 'maximum', at };
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0 && !isMultipleOf(value, schema.multipleOf))
    return { valid: false, keyword: 'multipleOf', at };
  if (typeof schema.format === 'string' && !numberFormatHolds(schema.format, value))
    return { valid: false, keyword: 'format', at };
  return VALID;
}

/** A number compared with a bound: a bigint exactly, as the value it stands for. */
export function compare(value: number | bigint, bound: number): number {
  if (typeof value === 'number') return value - bound;
  if (!Number.isFinite(bound)) return bound > 0 ? -1 : 1;
  const whole = BigInt(Math.floor(bound));
  if (value !== whole) return value < whole ? -1 : 1;
  return bound === Math.floor(bound) ? 0 : -1;
}

/** AJV's rule (lib/vocabularies/validation/multipleOf): the quotient is an integer. A bigint by exact arithmetic. */
export function isMultipleOf(value: number | bigint, multipleOf: number): boolean {
  if (typeof value === 'bigint')
    return Number.isInteger(multipleOf)
      ? value % BigInt(multipleOf) === 0n
      : Number.isInteger(Number(value) / multipleOf);
  const quotient = value / multipleOf;
  return quotient === parseInt(String(quotient), 10);
}

/**
 * The numeric formats as the project's AJV checks them: ajv-formats' int32, and int64 as bigint-aware.ts defines it
 * (an integer within ±(2^63−1) held as a bigint beyond the safe range, a safe integer otherwise); float and double
 * accept any number. Other formats do not apply to numbers.
 */
function numberFormatHolds(format: string, value: number | bigint): boolean {
  if (format === 'int64')
    return typeof value === 'bigint' ? value >= INT64_MIN && value <= INT64_MAX : Number.isSafeInteger(value);
  if (format === 'int32')
    return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value <= 2 ** 31 - 1;
  return true;
}

/** A string format as the project's AJV checks it: ajv-formats 3 (full mode); a format it does not know is ignored. */
export function stringFormatHolds(format: string, value: string): boolean {
  const known = (fullFormats as Record<string, unknown>)[format];
  if (known === undefined || known === true || known === false) return true;
  if (known instanceof RegExp) return known.test(value);
  if (typeof known === 'function') return (known as (s: string) => boolean)(value);
  const definition = known as { type?: string; validate: RegExp | ((s: string) => boolean) };
  if (definition.type !== undefined && definition.type !== 'string') return true;
  return definition.validate instanceof RegExp ? definition.validate.test(value) : definition.validate(value);
}

/** Whether the project's AJV setup checks a format at all (ajv-formats 3 full mode, plus int64). */
export function formatEnforced(format: string): boolean {
  if (format === 'int64') return true;
  const known = (fullFormats as Record<string, unknown>)[format];
  // password and binary are `true` in ajv-formats; float and double accept every number.
  return known !== undefined && known !== true && format !== 'float' && format !== 'double';
}

/** Length in code points (RFC 8259 §7 characters), as AJV's `unicode` option counts it. */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

const patterns = new Map<string, RegExp | undefined>();

/** A `pattern` as AJV compiles it (`new RegExp(pattern, "u")`, unanchored), cached; undefined when it is no regex. */
export function patternRegExp(pattern: string): RegExp | undefined {
  if (!patterns.has(pattern)) {
    let compiled: RegExp | undefined;
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = undefined;
    }
    patterns.set(pattern, compiled);
  }
  return patterns.get(pattern);
}

function checkString(schema: SchemaNode, value: unknown, _: CheckContext, at: string): Verdict {
  if (typeof value !== 'string') return VALID;
  const length = codePoints(value);
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return { valid: false, keyword: 'minLength', at };
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return { valid: false, keyword: 'maxLength', at };
  if (typeof schema.pattern === 'string') {
    const regex = patternRegExp(schema.pattern);
    if (!regex) return { valid: undefined, keyword: 'pattern', at };
    if (!regex.test(value)) return { valid: false, keyword: 'pattern', at };
  }
  if (typeof schema.format === 'string' && !stringFormatHolds(schema.format, value))
    return { valid: false, keyword: 'format', at };
  return VALID;
}

function checkArray(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  if (!Array.isArray(value)) return VALID;
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    return { valid: false, keyword: 'minItems', at };
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    return { valid: false, keyword: 'maxItems', at };
  let undecided: Verdict | undefined;
  const prefix = prefixOf(schema);
  for (let i = 0; i < value.length; i++) {
    const itemSchema = i < prefix.schemas.length ? prefix.schemas[i] : prefix.rest;
    if (itemSchema === undefined) continue;
    const verdict = check(itemSchema, value[i], ctx, `${at}/${i}`);
    if (verdict.valid === false) return { ...verdict, keyword: verdict.keyword };
    if (verdict.valid === undefined) undecided ??= verdict;
  }
  if (schema.uniqueItems === true) {
    for (let i = 0; i < value.length; i++)
      for (let j = i + 1; j < value.length; j++)
        if (jsonEqual(value[i], value[j])) return { valid: false, keyword: 'uniqueItems', at };
  }
  if (schema.contains !== undefined) {
    const matches = value.filter((item, i) => check(schema.contains, item, ctx, `${at}/${i}`).valid === true).length;
    const unknown = value.some((item, i) => check(schema.contains, item, ctx, `${at}/${i}`).valid === undefined);
    const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
    const max = typeof schema.maxContains === 'number' ? schema.maxContains : Infinity;
    if (unknown) undecided ??= { valid: undefined, keyword: 'contains', at };
    else if (matches < min || matches > max) return { valid: false, keyword: 'contains', at };
  }
  return undecided ?? VALID;
}

/**
 * The schemas of an array's positions: 2020-12's `prefixItems` then `items` for the rest (Core §10.3.1.1–2), or the
 * draft 4 tuple form `items: [...]` then `additionalItems`.
 */
export function prefixOf(schema: SchemaNode): { schemas: unknown[]; rest: unknown } {
  if (Array.isArray(schema.prefixItems)) return { schemas: schema.prefixItems as unknown[], rest: schema.items };
  if (Array.isArray(schema.items)) return { schemas: schema.items as unknown[], rest: schema.additionalItems };
  return { schemas: [], rest: schema.items };
}

/** Whether a property is left out of values travelling `direction` (readOnly in requests, writeOnly in responses). */
export function leftOutFor(property: unknown, direction: Direction): boolean {
  if (!isSchemaNode(property)) return false;
  if (direction === 'request' && flagged(property, 'readOnly', new Set())) return true;
  if (direction === 'response' && flagged(property, 'writeOnly', new Set())) return true;
  return false;
}

function flagged(schema: SchemaNode, flag: 'readOnly' | 'writeOnly', seen: Set<SchemaNode>): boolean {
  if (schema[flag] === true) return true;
  if (seen.has(schema) || !Array.isArray(schema.allOf)) return false;
  seen.add(schema);
  return (schema.allOf as unknown[]).some((part) => isSchemaNode(part) && flagged(part, flag, seen));
}

function checkObject(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return VALID;
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  const properties = isSchemaNode(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const name of schema.required as unknown[]) {
      if (typeof name !== 'string' || name in object) continue;
      if (ctx.direction !== 'any' && leftOutFor(properties[name], ctx.direction)) continue;
      return { valid: false, keyword: 'required', at: `${at}/${name}` };
    }
  }
  if (typeof schema.minProperties === 'number' && names.length < schema.minProperties)
    return { valid: false, keyword: 'minProperties', at };
  if (typeof schema.maxProperties === 'number' && names.length > schema.maxProperties)
    return { valid: false, keyword: 'maxProperties', at };
  let undecided: Verdict | undefined;
  const note = (verdict: Verdict): Verdict | undefined => {
    if (verdict.valid === false) return verdict;
    if (verdict.valid === undefined) undecided ??= verdict;
    return undefined;
  };
  const patternEntries = isSchemaNode(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  for (const name of names) {
    const where = `${at}/${name}`;
    let matched = false;
    if (Object.prototype.hasOwnProperty.call(properties, name)) {
      matched = true;
      const refused = note(check(properties[name], object[name], ctx, where));
      if (refused) return refused;
    }
    for (const [source, patternSchema] of patternEntries) {
      const regex = patternRegExp(source);
      if (!regex) {
        undecided ??= { valid: undefined, keyword: 'patternProperties', at: where };
        continue;
      }
      if (!regex.test(name)) continue;
      matched = true;
      const refused = note(check(patternSchema, object[name], ctx, where));
      if (refused) return refused;
    }
    if (!matched && schema.additionalProperties !== undefined) {
      const verdict = check(schema.additionalProperties, object[name], ctx, where);
      if (verdict.valid === false)
        return {
          valid: false,
          keyword: verdict.keyword === 'false' ? 'additionalProperties' : verdict.keyword,
          at: where,
        };
      note(verdict);
    }
    if (schema.propertyNames !== undefined) {
      const verdict = check(schema.propertyNames, name, ctx, where);
      if (verdict.valid === false) return { valid: false, keyword: 'propertyNames', at: where };
      note(verdict);
    }
  }
  const dependent = isSchemaNode(schema.dependentRequired) ? schema.dependentRequired : {};
  const dependencies = isSchemaNode(schema.dependencies) ? schema.dependencies : {};
  for (const [name, needs] of [...Object.entries(dependent), ...Object.entries(dependencies)]) {
    if (!(name in object)) continue;
    if (Array.isArray(needs)) {
      if (needs.some((need) => typeof need === 'string' && !(need in object)))
        return { valid: false, keyword: 'dependentRequired', at: `${at}/${name}` };
    } else {
      const refused = note(check(needs, value, ctx, at));
      if (refused) return { ...refused, keyword: 'dependentSchemas' };
    }
  }
  const dependentSchemas = isSchemaNode(schema.dependentSchemas) ? schema.dependentSchemas : {};
  for (const [name, dependentSchema] of Object.entries(dependentSchemas)) {
    if (!(name in object)) continue;
    const refused = note(check(dependentSchema, value, ctx, at));
    if (refused) return { ...refused, keyword: 'dependentSchemas' };
  }
  return undecided ?? VALID;
}

function checkCombinators(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  let undecided: Verdict | undefined;
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as unknown[]) {
      const verdict = check(part, value, ctx, at);
      if (verdict.valid === false) return verdict;
      if (verdict.valid === undefined) undecided ??= verdict;
    }
  }
  if (Array.isArray(schema.anyOf)) {
    const verdicts = (schema.anyOf as unknown[]).map((part) => check(part, value, ctx, at));
    if (!verdicts.some((v) => v.valid === true)) {
      if (verdicts.every((v) => v.valid === false)) return { valid: false, keyword: 'anyOf', at };
      undecided ??= { valid: undefined, keyword: 'anyOf', at };
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const verdict = checkOneOf(schema, value, ctx, at);
    if (verdict.valid === false) return verdict;
    if (verdict.valid === undefined) undecided ??= verdict;
  }
  if (schema.not !== undefined) {
    const verdict = check(schema.not, value, ctx, at);
    if (verdict.valid === true) return { valid: false, keyword: 'not', at };
    if (verdict.valid === undefined) undecided ??= { valid: undefined, keyword: 'not', at };
  }
  return undecided ?? VALID;
}

/**
 * `oneOf`: exactly one branch holds (2020-12 Core §10.2.1.3). Where a `discriminator` annotates it, AJV's own
 * discriminator keyword (when it can compile one: no mapping, each branch's tag a const or enum) validates only the
 * branch the tag names; a value is decided only where both readings agree, so that a generated value holds whichever
 * reading the validator takes (issue 52 makes the discriminator an annotation: the plain reading).
 */
function checkOneOf(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  const branches = schema.oneOf as unknown[];
  const verdicts = branches.map((part) => check(part, value, ctx, at));
  const holding = verdicts.filter((v) => v.valid === true).length;
  const open = verdicts.filter((v) => v.valid === undefined).length;
  let plain: boolean | undefined;
  if (holding > 1) plain = false;
  else if (open > 0) plain = undefined;
  else plain = holding === 1;
  const tagged = ajvDiscriminatorReading(schema, value, verdicts);
  if (tagged !== 'not-applicable' && tagged !== plain) return { valid: undefined, keyword: 'discriminator', at };
  if (plain === false) return { valid: false, keyword: 'oneOf', at };
  if (plain === undefined) return { valid: undefined, keyword: 'oneOf', at };
  return VALID;
}

function ajvDiscriminatorReading(
  schema: SchemaNode,
  value: unknown,
  verdicts: Verdict[],
): boolean | undefined | 'not-applicable' {
  const discriminator = schema.discriminator;
  if (!isSchemaNode(discriminator) || typeof discriminator.propertyName !== 'string' || discriminator.mapping)
    return 'not-applicable';
  const tagName = discriminator.propertyName;
  const mapping = new Map<unknown, number>();
  const branches = schema.oneOf as unknown[];
  for (let i = 0; i < branches.length; i++) {
    const branch = branches[i];
    const tagSchema = isSchemaNode(branch) && isSchemaNode(branch.properties) ? branch.properties[tagName] : undefined;
    if (!isSchemaNode(tagSchema)) return 'not-applicable';
    const values =
      'const' in tagSchema ? [tagSchema.const] : Array.isArray(tagSchema.enum) ? tagSchema.enum : undefined;
    if (!values) return 'not-applicable';
    for (const tag of values) mapping.set(tag, i);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  const tag = (value as Record<string, unknown>)[tagName];
  if (typeof tag !== 'string' || !mapping.has(tag)) return false;
  return verdicts[mapping.get(tag)!]!.valid;
}

function checkConditional(schema: SchemaNode, value: unknown, ctx: CheckContext, at: string): Verdict {
  if (schema.if === undefined) return VALID;
  const condition = check(schema.if, value, ctx, at);
  if (condition.valid === undefined) return { valid: undefined, keyword: 'if', at };
  const branch = condition.valid ? schema.then : schema.else;
  if (branch === undefined) return VALID;
  const verdict = check(branch, value, ctx, at);
  return verdict.valid === false ? { ...verdict, keyword: condition.valid ? 'then' : 'else' } : verdict;
}

/**
 * JSON equality (2020-12 Core §4.2.2): numbers by value (1 and 1.0 are equal, a bigint equals the number it is),
 * objects by members regardless of order, arrays item by item.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
    if (typeof a === 'bigint') return Number.isInteger(b) && a === BigInt(b);
    if (typeof b === 'bigint') return Number.isInteger(a) && BigInt(a) === b;
    return a === b;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]))
  );
}

/** A text key for a JSON value, equal for values jsonEqual calls equal (object members sorted, numbers by value). */
export function jsonKey(value: unknown): string {
  if (typeof value === 'bigint')
    return value >= -(2n ** 53n) && value <= 2n ** 53n ? String(Number(value)) : `${value}`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(jsonKey).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${jsonKey(object[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
