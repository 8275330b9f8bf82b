import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import {
  isSchemaNode,
  lowerBound,
  upperBound,
  type JsonTypeName,
  type SchemaNode,
} from '../../openapi/schema-keywords.js';
import { fixedValues, gather, largest, smallest, stringsOf, typesAllowed } from './conjunction.js';
import { brokenFormat } from './formats.js';
import { jsonType } from './json-schema.js';
import { planSample } from './plan-sample.js';
import { checkValue, codePoints, prefixOf } from './schema-check.js';
import { ceilDiv, planValue, type PlanOptions } from './value-plan.js';

/**
 * The edits that break one keyword of a value (invalid-variants.ts applies them): the value's type, enum or const,
 * bounds, multipleOf, lengths, pattern, format, `not`, a discriminator's tag.
 */

/** A value of each JSON type, to put where another type is required. */
export const SAMPLES: Record<string, unknown> = {
  string: 'x',
  integer: 7,
  number: 1.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

export type Step = string | number;

/** Where in a valid value a mutation acts: the path to it and the schemas that apply there. */
export interface Site {
  path: Step[];
  nodes: SchemaNode[];
  where: string;
  /** The schema parts on the path here, against recursion. */
  above: Set<SchemaNode>;
}

/** One edit of the value at a path; `needs`: the edit reads that value as an object or an array. */
export interface Edit {
  label: string;
  path: Step[];
  needs?: 'object' | 'array';
  edit(current: unknown): unknown;
}

/** Adds an edit that puts `make()` where the site's value is. */
export type ValueSink = (label: string, make: () => unknown) => void;

/**
 * The JSON types a value here may have: those its own keywords allow, or where they say nothing and a oneOf/anyOf
 * decides, those of its branches.
 */
export function siteTypes(nodes: SchemaNode[], depth = 0): JsonTypeName[] {
  const direct = typesAllowed(nodes);
  if (direct.length < ALL_TYPE_COUNT || depth > 3) return direct;
  const branches = nodes.flatMap((node) =>
    [node.oneOf, node.anyOf].flatMap((b) => (Array.isArray(b) ? (b as unknown[]) : [])),
  );
  if (branches.length === 0) return direct;
  return [...new Set(branches.flatMap((branch) => siteTypes(gather(branch).nodes, depth + 1)))];
}

const ALL_TYPE_COUNT = 7;

/** The JSON types a value here may have, as a label says them (`string`, `integer or null`). */
function acceptedLabel(nodes: SchemaNode[]): Set<string> {
  const fixed = fixedValues(nodes);
  if (fixed) return new Set(fixed.map(jsonType));
  const types = siteTypes(nodes);
  return new Set(types.includes('number') ? types.filter((t) => t !== 'integer') : types);
}

/**
 * A value of each JSON type the site refuses; `few`, deeper in the value: null and the first other type only (a
 * list of nested objects would otherwise give six for every property of every level).
 */
export function typeEdits(site: Site, value: ValueSink, few = false): void {
  const accepted = acceptedLabel(site.nodes);
  if (accepted.size === 0 || accepted.size >= 6) return;
  // Where the type allows null and an enum does not, enumEdits says so in those words.
  const nullTyped = typesAllowed(site.nodes).includes('null');
  let offered = 0;
  for (const [type, sample] of Object.entries(SAMPLES)) {
    if (accepted.has(type) || (type === 'integer' && accepted.has('number')) || (type === 'null' && nullTyped))
      continue;
    if (few && type !== 'null' && offered++ > 0) continue;
    value(`${describe(sample)} (a JSON ${type}) where ${[...accepted].join(' or ')} is required`, () => sample);
  }
}

/** Values of the right JSON type that break a keyword: enum, const, range, integer-ness, multipleOf, length, format. */
export function valueEdits(nodes: SchemaNode[], value: ValueSink): void {
  const fixed = fixedValues(nodes);
  if (fixed) {
    enumEdits(nodes, fixed, value);
    return;
  }
  const types = typesAllowed(nodes);
  const formats = stringsOf(nodes, 'format');
  if (types.includes('integer') || formats.includes('int32') || formats.includes('int64')) integerEdits(nodes, value);
  if (types.includes('number')) numberEdits(nodes, value);
  if (types.includes('string')) stringEdits(nodes, value);
}

function enumEdits(nodes: SchemaNode[], fixed: unknown[], value: ValueSink): void {
  const constant = nodes.find((node) => 'const' in node);
  const list = `[${fixed.map(String).join(', ')}]`;
  const says = (candidate: unknown) =>
    constant
      ? `${describe(candidate)} is not the const ${describe(constant.const)}`
      : `${describe(candidate)} is not in the enum ${list}`;
  const candidates: unknown[] = [];
  if (fixed.every((v) => typeof v === 'string')) {
    const strings = fixed;
    candidates.push('', ...strings.map((v) => v.toUpperCase()), ` ${strings[0] ?? ''}`, 'contract-unknown-value');
  } else if (fixed.every((v) => typeof v === 'number')) {
    const numbers = fixed;
    candidates.push(Math.max(...numbers) + 1, Math.min(...numbers) - 1);
  } else candidates.push('contract-unknown-value', -1);
  // OAS 3.0.3 §4.7.24.1: nullable adds null to the type, and an enum without null still refuses it.
  if (!fixed.includes(null) && typesAllowed(nodes).includes('null')) candidates.push(null);
  for (const candidate of candidates) value(says(candidate), () => candidate);
}

function integerEdits(nodes: SchemaNode[], value: ValueSink): void {
  let min = INT64_MIN;
  let max = INT64_MAX;
  let step = 1n;
  const format = stringsOf(nodes, 'format').find((f) => f === 'int32' || f === 'int64');
  if (format === 'int32') {
    min = -(2n ** 31n);
    max = 2n ** 31n - 1n;
  }
  for (const node of nodes) {
    const lower = lowerBound(node);
    if (lower && Number.isFinite(lower.value)) {
      const bound = BigInt(Math.ceil(lower.value)) + (lower.exclusive && Number.isInteger(lower.value) ? 1n : 0n);
      if (bound > min) min = bound;
    }
    const upper = upperBound(node);
    if (upper && Number.isFinite(upper.value)) {
      const bound = BigInt(Math.floor(upper.value)) - (upper.exclusive && Number.isInteger(upper.value) ? 1n : 0n);
      if (bound < max) max = bound;
    }
    if (typeof node.multipleOf === 'number' && Number.isInteger(node.multipleOf) && node.multipleOf > 1)
      step = BigInt(node.multipleOf);
  }
  const below = min - 1n;
  const above = max + 1n;
  const bound = (v: bigint) =>
    v === INT64_MIN - 1n || v === INT64_MAX + 1n || v === 2n ** 31n || v === -(2n ** 31n) - 1n
      ? `outside ${format ?? 'the'} range`
      : v < min
        ? `below the minimum ${min}`
        : `above the maximum ${max}`;
  value(`${below} is ${bound(below)}`, () => toJsonInteger(below));
  value(`${above} is ${bound(above)}`, () => toJsonInteger(above));
  // Absurd values, 20 digits: beyond any integer type the service could parse them into.
  if (min > INT64_MIN) value(`-${10n ** 20n - 1n} is far below the minimum ${min}`, () => -(10n ** 20n - 1n));
  if (max < INT64_MAX) value(`${10n ** 20n - 1n} is far above the maximum ${max}`, () => 10n ** 20n - 1n);
  if (step > 1n) {
    const base = ceilDiv(min > 0n ? min : 0n, step) * step + 1n;
    if (base <= max) value(`${base} is not a multiple of ${step}`, () => toJsonInteger(base));
  }
  // A number in a string: a target that coerces it has no integer type at all.
  value('"7" is a string, not an integer', () => '7');
}

function numberEdits(nodes: SchemaNode[], value: ValueSink): void {
  for (const node of nodes) {
    const lower = lowerBound(node);
    if (lower && Number.isFinite(lower.value)) {
      if (lower.exclusive) value(`${lower.value} is not above the exclusive minimum ${lower.value}`, () => lower.value);
      else value(`below the minimum ${lower.value}`, () => lower.value - 1);
    }
    const upper = upperBound(node);
    if (upper && Number.isFinite(upper.value)) {
      if (upper.exclusive) value(`${upper.value} is not below the exclusive maximum ${upper.value}`, () => upper.value);
      else value(`above the maximum ${upper.value}`, () => upper.value + 1);
    }
    const m = node.multipleOf;
    if (typeof m === 'number' && m > 0) {
      const start = lower ? Math.ceil(lower.value / m) * m : 0;
      const off = start + m / 2;
      value(`${off} is not a multiple of ${m}`, () => off);
    }
  }
}

function stringEdits(nodes: SchemaNode[], value: ValueSink): void {
  const minLength = largest(nodes, 'minLength');
  const maxLength = smallest(nodes, 'maxLength');
  if (minLength !== undefined && minLength > 0)
    value(`shorter than minLength ${minLength}`, () => 'x'.repeat(minLength - 1));
  if (maxLength !== undefined) value(`longer than maxLength ${maxLength}`, () => 'x'.repeat(maxLength + 1));
  for (const format of stringsOf(nodes, 'format')) {
    const broken = brokenFormat(format);
    if (broken !== undefined) value(`"${broken}" is not a ${format}`, () => broken);
  }
  for (const pattern of stringsOf(nodes, 'pattern')) {
    const candidates = ['contract-not-matching', '', ' ', '!', '\u0000', 'x'.repeat(Math.max(1, minLength ?? 1))];
    const fitting = candidates.find((text) => {
      const length = codePoints(text);
      const sized = length >= (minLength ?? 0) && (maxLength === undefined || length <= maxLength);
      return sized && checkValue({ pattern }, text).valid === false;
    });
    if (fitting !== undefined) value(`${describe(fitting)} does not match the pattern ${pattern}`, () => fitting);
  }
}

/** What a `not` describes, made to fit the rest of the schema: refused for that one keyword. */
export function notEdits(site: Site, value: ValueSink, options: PlanOptions): void {
  for (const node of site.nodes) {
    if (node.not === undefined || node.not === false) continue;
    const rest = site.nodes.map((n) => (n === node ? withoutKey(n, 'not') : n));
    const plan = planValue({ allOf: [...rest, node.not] }, { ...options, direction: 'any' });
    const sample = plan.ok ? planSample(plan.value, 'contract', 0) : undefined;
    if (sample?.ok) {
      const refused = sample.value;
      value(`${describe(refused)} is what its "not" describes`, () => refused);
    }
  }
}

/** A shallow copy without one keyword (shallow: the schemas it holds stay the document's own). */
function withoutKey(node: SchemaNode, key: string): SchemaNode {
  const copy = { ...node };
  delete copy[key];
  return copy;
}

/** A discriminator's tag naming no branch (OAS 3.0.3 §4.7.25). */
export function discriminatorEdits(site: Site, edits: Edit[]): void {
  for (const node of site.nodes) {
    const discriminator = node.discriminator;
    if (!isSchemaNode(discriminator) || typeof discriminator.propertyName !== 'string') continue;
    if (!Array.isArray(node.oneOf) && !Array.isArray(node.anyOf)) continue;
    const tag = discriminator.propertyName;
    edits.push({
      label: `${site.where}.${tag}: "contract-unknown-kind" names no branch of the discriminator`,
      path: site.path,
      needs: 'object',
      edit: (current) => ({ ...(current as object), [tag]: 'contract-unknown-kind' }),
    });
  }
}

export function itemSchemas(nodes: SchemaNode[], index: number): unknown[] {
  return nodes
    .map(prefixOf)
    .map((layout) => (index < layout.schemas.length ? layout.schemas[index] : layout.rest))
    .filter((schema) => schema !== undefined);
}

/** An integer beyond the int64 range is a bigint in memory and leaves as its digits (stringifyJson). */
export function toJsonInteger(value: bigint): number | bigint {
  return value >= -(2n ** 53n - 1n) && value <= 2n ** 53n - 1n ? Number(value) : value;
}

export function without(value: unknown, name: string): unknown {
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[name];
  return copy;
}

export function describe(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
