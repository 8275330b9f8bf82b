import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import {
  isSchemaNode,
  lowerBound,
  upperBound,
  type JsonTypeName,
  type SchemaNode,
} from '../../openapi/schema-keywords.js';
import {
  declaredNames,
  fixedValues,
  gather,
  largest,
  propertySchemas,
  requiredNames,
  saysTrue,
  smallest,
  stringsOf,
  typesAllowed,
} from './conjunction.js';
import { brokenFormat } from './formats.js';
import { jsonType, type SchemaLike } from './json-schema.js';
import { patternSample } from './pattern-strings.js';
import { planSample } from './plan-sample.js';
import { checkValue, codePoints, prefixOf, type Direction } from './schema-check.js';
import { ceilDiv, planValue, type PlanOptions } from './value-plan.js';

/** One way of breaking one constraint of a schema, applied to a valid instance. */
export interface Mutation {
  /** What is broken, as a report shows it: `body.status: "AVAILABLE" is not in the enum`. */
  label: string;
  apply(valid: unknown): unknown;
}

export interface MutationOptions extends PlanOptions {
  /**
   * The validator the mock uses for this schema (an operation's compiled body validator): a mutation is offered only
   * where it refuses the result, so that no keyword the mock does not enforce is judged on a target.
   */
  validate?: (value: unknown) => boolean;
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

/** How deep nested properties and items are broken: below that, their parents' own keywords still are. */
const NESTING = 4;

type Step = string | number;

/** Where in a valid value a mutation acts: the path to it and the schemas that apply there. */
interface Site {
  path: Step[];
  nodes: SchemaNode[];
  where: string;
  /** The schema parts on the path here, against recursion. */
  above: Set<SchemaNode>;
}

/** One edit of the value at a path; `needs`: the edit reads that value as an object or an array. */
interface Edit {
  label: string;
  path: Step[];
  needs?: 'object' | 'array';
  edit(current: unknown): unknown;
}

/**
 * Each constraint of `schema` broken one at a time, derived from the document, never hand-listed per field: for a
 * value, every JSON type it refuses (null included, also where `nullable` meets an enum without null: OAS 3.0.3
 * §4.7.24.1), a value outside its enum or const, outside its bounds (exclusive ones exactly on the bound), its
 * int32/int64 range, not a multiple, too short or long, breaking its pattern or a format the validator checks, and
 * what its `not` describes; for an array, too few, too many or equal items and each item broken; for an object,
 * each required property left out, each property broken, an unknown member where additionalProperties is false, a
 * member breaking additionalProperties or patternProperties, too few or too many members, a discriminator naming no
 * branch. Each mutation's result is checked to break the schema (schema-check.ts; and `options.validate` when given)
 * before it is offered; a value that would still hold is replaced by one checked when the mutation was made.
 */
export function mutationsOf(input: SchemaLike, where = 'body', options: MutationOptions = {}): Mutation[] {
  const direction = options.direction ?? 'request';
  const planned = planValue(input, options);
  const rootSample = planned.ok ? planSample(planned.value, 'contract', 0) : undefined;
  const breaks = (value: unknown) =>
    checkValue(input, value, direction).valid === false && (!options.validate || options.validate(value) === false);
  const root = gather(input);
  const edits: Edit[] = [];
  collectEdits({ path: [], nodes: root.nodes, where, above: new Set() }, edits, direction, options);
  const fillCache = new Map<string, unknown>();
  const mutations: Mutation[] = [];
  const seen = new Set<string>();
  for (const edit of edits) {
    if (seen.has(edit.label)) continue;
    const fills = fillsAlong(input, edit.path, options, fillCache);
    const make = (valid: unknown) => setAt(valid, edit, fills, 0);
    // Checked once on the deterministic sample: offered only if it breaks the schema there.
    const needsSample = edit.path.length > 0 || edit.needs !== undefined;
    if (needsSample && !rootSample?.ok) continue;
    const fallback = make(needsSample && rootSample?.ok ? rootSample.value : undefined);
    if (!breaks(fallback)) continue;
    seen.add(edit.label);
    mutations.push({
      label: edit.label,
      apply(valid) {
        const result = make(valid);
        return breaks(result) ? result : fallback;
      },
    });
  }
  return mutations;
}

/** The deterministic valid value for each step of a path, to stand in where a valid instance has none. */
function fillsAlong(
  input: unknown,
  path: Step[],
  options: PlanOptions,
  cache: Map<string, unknown>,
): (() => unknown)[] {
  const fills: (() => unknown)[] = [];
  let schemas: unknown[] = [input];
  for (let i = 0; i <= path.length; i++) {
    const at = schemas;
    const key = JSON.stringify(path.slice(0, i));
    fills.push(() => {
      if (!cache.has(key)) {
        const plan = planValue({ allOf: at }, options);
        const sample = plan.ok ? planSample(plan.value, 'contract', 0) : undefined;
        cache.set(key, sample?.ok ? sample.value : undefined);
      }
      return cache.get(key);
    });
    if (i === path.length) break;
    const step = path[i]!;
    const nodes = gather(...schemas).nodes;
    schemas = typeof step === 'number' ? itemSchemas(nodes, step) : propertySchemas(nodes, step).schemas;
  }
  return fills;
}

function itemSchemas(nodes: SchemaNode[], index: number): unknown[] {
  return nodes
    .map(prefixOf)
    .map((layout) => (index < layout.schemas.length ? layout.schemas[index] : layout.rest))
    .filter((schema) => schema !== undefined);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value with the edit made at its path, missing containers on the way filled with valid ones. */
function setAt(value: unknown, edit: Edit, fills: (() => unknown)[], i: number): unknown {
  if (i === edit.path.length) {
    const fitting =
      (edit.needs === 'object' && !isObject(value)) || (edit.needs === 'array' && !Array.isArray(value))
        ? fills[i]!()
        : value;
    return edit.edit(fitting);
  }
  const step = edit.path[i]!;
  if (typeof step === 'number') {
    const array = Array.isArray(value)
      ? [...(value as unknown[])]
      : Array.isArray(fills[i]!())
        ? [...(fills[i]!() as unknown[])]
        : [];
    while (array.length <= step) array.push(fills[i + 1]!());
    array[step] = setAt(array[step], edit, fills, i + 1);
    return array;
  }
  const object = isObject(value) ? { ...value } : isObject(fills[i]!()) ? { ...(fills[i]!() as object) } : {};
  const copy = object as Record<string, unknown>;
  const child = copy[step] === undefined && i + 1 < edit.path.length ? fills[i + 1]!() : copy[step];
  copy[step] = setAt(child, edit, fills, i + 1);
  return copy;
}

function collectEdits(site: Site, edits: Edit[], direction: Direction, options: PlanOptions): void {
  const { nodes, where, path } = site;
  const value = (label: string, make: () => unknown) =>
    edits.push({ label: `${where}: ${label}`, path, edit: () => make() });
  const combined = nodes.some((node) => Array.isArray(node.oneOf) || Array.isArray(node.anyOf));
  typeEdits(site, value);
  // Within a oneOf/anyOf the branches hold the constraints: the value as a whole is broken by its type only.
  if (!combined) valueEdits(nodes, value);
  discriminatorEdits(site, edits);
  notEdits(site, value, options);
  if (combined || path.length >= NESTING || nodes.some((node) => site.above.has(node))) return;
  const above = new Set([...site.above, ...nodes]);
  const types = siteTypes(nodes);
  if (types.includes('object')) objectEdits({ ...site, above }, edits, direction, options);
  if (types.includes('array')) arrayEdits({ ...site, above }, edits, direction, options);
}

/**
 * The JSON types a value here may have: those its own keywords allow, or where they say nothing and a oneOf/anyOf
 * decides, those of its branches.
 */
function siteTypes(nodes: SchemaNode[], depth = 0): JsonTypeName[] {
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

function typeEdits(site: Site, value: (label: string, make: () => unknown) => void): void {
  const accepted = acceptedLabel(site.nodes);
  if (accepted.size === 0 || accepted.size >= 6) return;
  // Where the type allows null and an enum does not, enumEdits says so in those words.
  const nullTyped = typesAllowed(site.nodes).includes('null');
  for (const [type, sample] of Object.entries(SAMPLES)) {
    if (accepted.has(type) || (type === 'integer' && accepted.has('number')) || (type === 'null' && nullTyped))
      continue;
    value(`${describe(sample)} (a JSON ${type}) where ${[...accepted].join(' or ')} is required`, () => sample);
  }
}

/** Values of the right JSON type that break a keyword: enum, const, range, integer-ness, multipleOf, length, format. */
function valueEdits(nodes: SchemaNode[], value: (label: string, make: () => unknown) => void): void {
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

function enumEdits(nodes: SchemaNode[], fixed: unknown[], value: (label: string, make: () => unknown) => void): void {
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

function integerEdits(nodes: SchemaNode[], value: (label: string, make: () => unknown) => void): void {
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

function numberEdits(nodes: SchemaNode[], value: (label: string, make: () => unknown) => void): void {
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

function stringEdits(nodes: SchemaNode[], value: (label: string, make: () => unknown) => void): void {
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
function notEdits(site: Site, value: (label: string, make: () => unknown) => void, options: PlanOptions): void {
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
function discriminatorEdits(site: Site, edits: Edit[]): void {
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

function objectEdits(site: Site, edits: Edit[], direction: Direction, options: PlanOptions): void {
  const { nodes, where, path } = site;
  const leftOut = (schemas: unknown[]) =>
    (direction === 'request' && saysTrue(schemas, 'readOnly')) ||
    (direction === 'response' && saysTrue(schemas, 'writeOnly'));
  const object = (label: string, edit: (current: Record<string, unknown>) => unknown) =>
    edits.push({ label, path, needs: 'object', edit: (current) => edit(current as Record<string, unknown>) });
  const required = requiredNames(nodes);
  for (const name of required) {
    if (leftOut(propertySchemas(nodes, name).schemas)) continue;
    object(`${where}.${name}: left out (it is required)`, (current) => without(current, name));
  }
  const declared = declaredNames(nodes);
  for (const name of declared) {
    const { schemas, forbidden } = propertySchemas(nodes, name);
    if (forbidden || leftOut(schemas)) continue;
    collectEdits(
      { ...site, path: [...path, name], nodes: gather(...schemas).nodes, where: `${where}.${name}` },
      edits,
      direction,
      options,
    );
  }
  const unknownName = ['unexpected', 'unexpected-member', 'contract-unexpected'].find(
    (name) => !declared.includes(name) && propertySchemas(nodes, name).forbidden,
  );
  if (unknownName !== undefined)
    object(`${where}: an unknown property "${unknownName}" (additionalProperties is false)`, (current) => ({
      ...current,
      [unknownName]: 1,
    }));
  // A member additionalProperties or patternProperties judges, broken.
  const extraName = ['extra', 'other', 'additional'].find((name) => {
    const { schemas, forbidden } = propertySchemas(nodes, name);
    return !declared.includes(name) && !forbidden && schemas.length > 0;
  });
  if (extraName !== undefined)
    collectEdits(
      {
        ...site,
        path: [...path, extraName],
        nodes: gather(...propertySchemas(nodes, extraName).schemas).nodes,
        where: `${where}.${extraName}`,
      },
      edits,
      direction,
      options,
    );
  for (const node of nodes) {
    if (!isSchemaNode(node.patternProperties)) continue;
    for (const pattern of Object.keys(node.patternProperties)) {
      const name = patternSample(pattern, 0);
      if (name === undefined || declared.includes(name) || name === '__proto__') continue;
      const schemas = propertySchemas(nodes, name).schemas;
      collectEdits(
        { ...site, path: [...path, name], nodes: gather(...schemas).nodes, where: `${where}.${name}` },
        edits,
        direction,
        options,
      );
    }
  }
  const minProperties = largest(nodes, 'minProperties');
  if (minProperties !== undefined && minProperties > 0)
    object(`${where}: ${minProperties - 1} properties, fewer than minProperties ${minProperties}`, (current) => {
      const kept = Object.entries(current);
      const order = [...kept.filter(([k]) => required.includes(k)), ...kept.filter(([k]) => !required.includes(k))];
      return Object.fromEntries(order.slice(0, minProperties - 1));
    });
  const maxProperties = smallest(nodes, 'maxProperties');
  if (maxProperties !== undefined) {
    const fill = planValue({ allOf: nodes }, { ...options, optionalDepth: 1 });
    object(`${where}: ${maxProperties + 1} properties, more than maxProperties ${maxProperties}`, (current) => {
      const grown: Record<string, unknown> = { ...current };
      const full = fill.ok ? planSample(fill.value, 'contract', 0) : undefined;
      for (const [key, member] of Object.entries(full?.ok ? (full.value as object) : {})) {
        if (Object.keys(grown).length > maxProperties) break;
        if (!(key in grown)) grown[key] = member;
      }
      for (let i = 0; Object.keys(grown).length <= maxProperties && i < maxProperties + 2; i++)
        grown[`${extraName ?? 'extra'}${i}`] = 'x';
      return grown;
    });
  }
  for (const node of nodes) {
    const dependent = isSchemaNode(node.dependentRequired) ? node.dependentRequired : {};
    for (const [name, needs] of Object.entries(dependent)) {
      if (!Array.isArray(needs)) continue;
      for (const need of needs)
        if (typeof need === 'string')
          object(`${where}.${need}: left out while ${name} is present (dependentRequired)`, (current) =>
            without(name in current ? current : { ...current, [name]: 'x' }, need),
          );
    }
  }
}

function arrayEdits(site: Site, edits: Edit[], direction: Direction, options: PlanOptions): void {
  const { nodes, where, path } = site;
  const array = (label: string, edit: (current: unknown[]) => unknown) =>
    edits.push({ label, path, needs: 'array', edit: (current) => edit(current as unknown[]) });
  const minItems = largest(nodes, 'minItems');
  const maxItems = smallest(nodes, 'maxItems');
  const items = (count: number, current: unknown[]) => {
    const grown = [...current];
    for (let i = grown.length; grown.length < count && i < count + 8; i++) {
      const plan = planValue({ allOf: itemSchemas(nodes, grown.length) }, options);
      const sample = plan.ok ? planSample(plan.value, 'contract', i) : undefined;
      if (!sample?.ok) break;
      grown.push(sample.value);
    }
    return grown;
  };
  if (minItems !== undefined && minItems > 0)
    array(`${where}: ${minItems - 1} items, fewer than minItems ${minItems}`, (current) =>
      current.slice(0, minItems - 1),
    );
  if (maxItems !== undefined)
    array(`${where}: ${maxItems + 1} items, more than maxItems ${maxItems}`, (current) => items(maxItems + 1, current));
  if (nodes.some((node) => node.uniqueItems === true))
    array(`${where}: two equal items (uniqueItems)`, (current) => {
      const some = items(Math.max(1, current.length), current);
      if (some.length === 0) return some;
      if (some.length >= 2) return [...some.slice(0, -1), some[0]];
      return [some[0], some[0]];
    });
  const prefixLength = Math.max(0, ...nodes.map((node) => prefixOf(node).schemas.length));
  const closed = nodes.some((node) => prefixOf(node).schemas.length > 0 && prefixOf(node).rest === false);
  if (closed)
    array(`${where}: an item beyond its ${prefixLength} prefixItems (items is false)`, (current) => [
      ...items(prefixLength, current),
      'x',
    ]);
  const positions = Math.min(Math.max(prefixLength, 1), 3);
  for (let i = 0; i < positions; i++) {
    const schemas = itemSchemas(nodes, i);
    if (schemas.length === 0 || schemas.includes(false)) continue;
    if (maxItems !== undefined && i >= maxItems) continue;
    collectEdits(
      { ...site, path: [...path, i], nodes: gather(...schemas).nodes, where: `${where}[${i}]` },
      edits,
      direction,
      options,
    );
  }
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
