import { INT64_MAX, INT64_MIN } from '../../../json/int64.js';
import {
  isSchemaNode,
  lowerBound,
  upperBound,
  type JsonTypeName,
  type SchemaNode,
} from '../../../openapi/schema-keywords.js';
import {
  checkAll,
  declaredNames,
  fixedValues,
  gather,
  largest,
  needsCheck,
  propertySchemas,
  requiredNames,
  saysTrue,
  smallest,
  stringsOf,
  typesAllowed,
} from './conjunction.js';
import { FORMATS } from './formats.js';
import { apartFromOthers } from './one-of-apart.js';
import { made, noValue, unhonoured, type Generated } from './generated.js';
import { twinBranchesReason } from './twin-branches.js';
import { integerRange } from '../json-schema.js';
import { UNCHECKED_KEYWORDS, prefixOf, type Direction } from './schema-check.js';
import { ceilDiv, floorDiv, type Plan, type PropertyPlan, type ExtraPlan } from './plan-types.js';

export type { Plan, PropertyPlan, ExtraPlan } from './plan-types.js';

export interface PlanOptions {
  /** readOnly properties are left out of requests, writeOnly ones out of responses. Default: request. */
  direction?: Direction;
  /** The document the schema belongs to, to name a discriminator's branches (`#/components/schemas/Cat`). */
  document?: unknown;
  /** Nesting from which optional properties and items beyond `minItems` are left out (recursive schemas end). */
  optionalDepth?: number;
}

/** Nesting from which optional properties and items beyond minItems are left out, unless options say otherwise. */
export const OPTIONAL_DEPTH = 4;
/** Nesting past which a value that still needs more (a required property that recurses) is not made. */
export const MAX_DEPTH = 24;
/** Schema parts planned for one value, past which optional parts are left out, then nothing is made. */
const LEAN_AFTER = 1500;
const GIVE_UP_AFTER = 20_000;

interface Build {
  direction: Direction;
  optionalDepth: number;
  names: Map<unknown, string>;
  document: unknown;
  planned: number;
}

/**
 * The plan of a schema's valid values; the root is always checked as a whole (checkAll), so that a value the plan
 * gets wrong is never offered as valid.
 * @example planValue({ type: 'string', format: 'uuid' })  // { ok: true, value: { kind: 'checked', … } }
 */
export function planValue(schema: unknown, options: PlanOptions = {}): Generated<Plan> {
  const build: Build = {
    direction: options.direction ?? 'request',
    optionalDepth: options.optionalDepth ?? OPTIONAL_DEPTH,
    names: componentNames(options.document),
    document: options.document,
    planned: 0,
  };
  const conjunction = gather(schema);
  if (conjunction.never) return unhonoured('false', '', 'the schema is false: no value is valid');
  const planned = planNodes(conjunction.nodes, build, 0, '', new Set(), schema);
  if (!planned.ok) return planned;
  if (planned.value.kind === 'checked') return planned;
  return made({ kind: 'checked', plan: planned.value, nodes: conjunction.nodes, direction: build.direction, at: '' });
}

function componentNames(document: unknown): Map<unknown, string> {
  const names = new Map<unknown, string>();
  const components = isSchemaNode(document) && isSchemaNode(document.components) ? document.components : undefined;
  const schemas = components && isSchemaNode(components.schemas) ? components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) if (!names.has(schema)) names.set(schema, name);
  return names;
}

/** A combinator already expanded on this path: the node and its keyword. */
type Expanded = Set<string>;

const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(node: object): number {
  let id = ids.get(node);
  if (id === undefined) ids.set(node, (id = nextId++));
  return id;
}

function planNodes(
  nodes: SchemaNode[],
  build: Build,
  depth: number,
  at: string,
  expanded: Expanded,
  named?: unknown,
): Generated<Plan> {
  if (++build.planned > GIVE_UP_AFTER)
    return unhonoured('size', at, `more than ${GIVE_UP_AFTER} schema parts for one value`);
  if (depth > MAX_DEPTH) return unhonoured('$ref', at, `the schema still requires more after ${MAX_DEPTH} levels`);
  for (const node of nodes)
    for (const keyword of UNCHECKED_KEYWORDS)
      if (keyword in node && !(keyword === '$ref' && typeof node.$ref !== 'string'))
        return unhonoured(keyword, at, 'this keyword is not evaluated by the generators');
  for (const node of nodes) {
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches) || expanded.has(`${idOf(node)}/${keyword}`)) continue;
      return planBranches(nodes, node, keyword, branches as unknown[], build, depth, at, expanded);
    }
  }
  const tagged = inheritedTag(nodes, named, build);
  const leaf = planLeaf(tagged ?? nodes, build, depth, at);
  if (!leaf.ok || !needsCheck(nodes)) return leaf;
  return made({ kind: 'checked', plan: leaf.value, nodes: tagged ?? nodes, direction: build.direction, at });
}

/**
 * A `oneOf`/`anyOf`: one plan per branch, each the branch taken with the rest of the conjunction. Where a
 * `discriminator` annotates it (OAS 3.0.3 §4.7.25), each branch's value carries the tag that names it: the mapping's
 * key for it, or the value its tag property's const/enum gives, or the name of its component.
 */
function planBranches(
  nodes: SchemaNode[],
  node: SchemaNode,
  keyword: 'oneOf' | 'anyOf',
  branches: unknown[],
  build: Build,
  depth: number,
  at: string,
  expanded: Expanded,
): Generated<Plan> {
  const twins = keyword === 'oneOf' ? twinBranchesReason(branches, build.names) : undefined;
  if (twins) return noValue(keyword, at, twins);
  const next = new Set(expanded).add(`${idOf(node)}/${keyword}`);
  const options: Plan[] = [];
  let first: Generated<Plan> | undefined;
  const discriminator = isSchemaNode(node.discriminator) ? node.discriminator : undefined;
  for (const branch of branches) {
    const parts = gather(branch);
    if (parts.never) continue;
    let added = parts.nodes;
    if (discriminator && typeof discriminator.propertyName === 'string') {
      const tag = tagFor(discriminator, branch, build);
      if (tag === undefined) {
        first ??= unhonoured(
          'discriminator',
          at,
          `no value of "${discriminator.propertyName}" names one of its branches (a mapping or a component name needs options.document)`,
        );
        continue;
      }
      added = [...added, tagNode(discriminator.propertyName, tag)];
    }
    let planned = planNodes([...nodes, ...added], build, depth, at, next);
    if (planned.ok && keyword === 'oneOf') {
      const others = branches.filter((other) => other !== branch);
      const apart = apartFromOthers(planned.value, [...nodes, ...added], others, build.direction);
      const again = apart.length > 0 ? planNodes([...nodes, ...added, ...apart], build, depth, at, next) : undefined;
      if (again?.ok) planned = again;
    }
    if (planned.ok) options.push(planned.value);
    else first ??= planned;
  }
  if (options.length === 0) return first ?? unhonoured(keyword, at, `no branch of the ${keyword} has a valid value`);
  return made(options.length === 1 ? options[0]! : { kind: 'choice', options });
}

function tagNode(propertyName: string, tag: string): SchemaNode {
  return { type: 'object', properties: { [propertyName]: { const: tag } }, required: [propertyName] };
}

/** The tag value naming `branch`: the mapping's key (OAS 3.0.3 §4.7.25.2), the branch's const/enum, its name. */
function tagFor(discriminator: SchemaNode, branch: unknown, build: Build): string | undefined {
  const propertyName = discriminator.propertyName as string;
  const own = ownTagValues(branch, propertyName);
  const mapping = isSchemaNode(discriminator.mapping) ? discriminator.mapping : {};
  for (const [key, target] of Object.entries(mapping)) {
    if (typeof target !== 'string') continue;
    const resolved = resolvePointer(build.document, target);
    const sameName = target === build.names.get(branch) || target.endsWith(`/${build.names.get(branch) ?? '\0'}`);
    if ((resolved !== undefined && resolved === branch) || sameName) if (!own || own.includes(key)) return key;
  }
  if (own?.length) return own.find((v): v is string => typeof v === 'string');
  const name = build.names.get(branch);
  // Without a mapping entry the tag is the component's name (§4.7.25.2: "the inline or referenced schema name").
  const mapped = Object.values(mapping).some(
    (target) => target === name || (typeof target === 'string' && target.endsWith(`/${name}`)),
  );
  return name !== undefined && !mapped ? name : undefined;
}

function ownTagValues(branch: unknown, propertyName: string): unknown[] | undefined {
  for (const node of gather(branch).nodes) {
    const property = isSchemaNode(node.properties) ? node.properties[propertyName] : undefined;
    if (!isSchemaNode(property)) continue;
    if ('const' in property) return [property.const];
    if (Array.isArray(property.enum)) return property.enum as unknown[];
  }
  return undefined;
}

/** A local reference (`#/components/schemas/Cat`) in the document; undefined for any other. */
function resolvePointer(document: unknown, reference: string): unknown {
  if (!reference.startsWith('#/') || !isSchemaNode(document)) return undefined;
  let current: unknown = document;
  for (const token of reference.slice(2).split('/')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchemaNode(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A named schema that inherits a discriminator through allOf (Cat: allOf [Pet, …], Pet's discriminator
 * `petType`): its values carry the tag that names it, as a client of the base schema reads them.
 */
function inheritedTag(nodes: SchemaNode[], named: unknown, build: Build): SchemaNode[] | undefined {
  const name = named === undefined ? undefined : build.names.get(named);
  if (name === undefined) return undefined;
  for (const node of nodes) {
    const discriminator = node.discriminator;
    if (!isSchemaNode(discriminator) || typeof discriminator.propertyName !== 'string') continue;
    if (Array.isArray(node.oneOf) || Array.isArray(node.anyOf) || node === named) continue;
    const tag = tagFor(discriminator, named, build);
    return tag === undefined ? undefined : [...nodes, tagNode(discriminator.propertyName, tag)];
  }
  return undefined;
}

function planLeaf(nodes: SchemaNode[], build: Build, depth: number, at: string): Generated<Plan> {
  const fixed = fixedValues(nodes);
  if (fixed) {
    if (fixed.length === 0) return unhonoured('enum', at, 'no value is in every enum and const');
    const holding = fixed.filter((value) => checkAll(nodes, value, build.direction).valid === true);
    if (holding.length === 0) {
      const verdict = checkAll(nodes, fixed[0], build.direction);
      return unhonoured(verdict.keyword ?? 'enum', at, 'no value of the enum or const holds for the other keywords');
    }
    return made({ kind: 'fixed', values: holding });
  }
  const types = typesAllowed(nodes);
  // JSON Schema 2020-12 Core §10.2.1.1: a value must hold for every allOf part; parts naming types with none in
  // common (readme's schema-types.yaml: allOf [string, integer]) admit no value, a reason the document gives.
  if (types.length === 0)
    return noValue(
      'type',
      at,
      'no value is valid: the allOf parts allow no type in common (JSON Schema 2020-12 Core §10.2.1.1)',
    );
  const options: Plan[] = [];
  let first: Generated<Plan> | undefined;
  // Null last: a deterministic sample is of the main type.
  const ordered = [...types.filter((t) => t !== 'null'), ...types.filter((t) => t === 'null')];
  for (const type of ordered) {
    const planned = planType(type, nodes, build, depth, at);
    if (planned.ok) options.push(planned.value);
    else first ??= planned;
  }
  if (options.length === 0) return first!;
  return made(options.length === 1 ? options[0]! : { kind: 'choice', options });
}

function planType(type: JsonTypeName, nodes: SchemaNode[], build: Build, depth: number, at: string): Generated<Plan> {
  switch (type) {
    case 'null':
      return made({ kind: 'null' });
    case 'boolean':
      return made({ kind: 'boolean' });
    case 'integer':
      return planInteger(nodes, at);
    case 'number':
      return planNumber(nodes, at);
    case 'string':
      return planString(nodes, at);
    case 'array':
      return planArray(nodes, build, depth, at);
    case 'object':
      return planObject(nodes, build, depth, at);
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/**
 * Integers: the tightest range of the parts (bounds in either dialect, int32/int64), multiples of every integer
 * `multipleOf` (their least common multiple); a fractional multipleOf is left to the check.
 */
function planInteger(nodes: SchemaNode[], at: string): Generated<Plan> {
  let min = INT64_MIN;
  let max = INT64_MAX;
  let step = 1n;
  let bounded = false;
  for (const node of nodes) {
    const range = integerRange({ ...node, format: typeof node.format === 'string' ? node.format : undefined });
    if (range.min > min) min = range.min;
    if (range.max < max) max = range.max;
    if (upperBound(node) || node.format === 'int32') bounded = true;
    const multipleOf = node.multipleOf;
    if (typeof multipleOf === 'number' && Number.isInteger(multipleOf) && multipleOf > 0) {
      const m = BigInt(multipleOf);
      step = (step * m) / gcd(step, m);
    }
  }
  if (min > max) return unhonoured('minimum', at, `no integer from ${min} to ${max}`);
  if (step > 1n) {
    // Multiples stay within ±(2^53−1): AJV meets a larger bigint as a stand-in number (for-validation.ts).
    const safe = 2n ** 53n - 1n;
    if (min < -safe) min = -safe;
    if (max > safe) max = safe;
    const low = ceilDiv(min, step);
    const high = floorDiv(max, step);
    if (low > high) return unhonoured('multipleOf', at, `no multiple of ${step} from ${min} to ${max}`);
  }
  return made({ kind: 'integer', min, max, step, bounded });
}

/** Numbers: the tightest bounds of the parts with their exclusivity; `format: int32/int64` makes them integers. */
function planNumber(nodes: SchemaNode[], at: string): Generated<Plan> {
  if (nodes.some((node) => node.format === 'int32' || node.format === 'int64')) return planInteger(nodes, at);
  let min: number | undefined;
  let max: number | undefined;
  let minExcluded = false;
  let maxExcluded = false;
  for (const node of nodes) {
    const lower = lowerBound(node);
    if (lower && (min === undefined || lower.value > min || (lower.value === min && lower.exclusive))) {
      min = lower.value;
      minExcluded = lower.exclusive;
    }
    const upper = upperBound(node);
    if (upper && (max === undefined || upper.value < max || (upper.value === max && upper.exclusive))) {
      max = upper.value;
      maxExcluded = upper.exclusive;
    }
  }
  if (min !== undefined && max !== undefined && (min > max || (min === max && (minExcluded || maxExcluded))))
    return unhonoured('maximum', at, `no number between ${min} and ${max}`);
  const multiples = nodes.map((node) => node.multipleOf).filter((m): m is number => typeof m === 'number' && m > 0);
  const multipleOf = multiples[0];
  if (
    multipleOf !== undefined &&
    min !== undefined &&
    max !== undefined &&
    Math.floor(max / multipleOf) < Math.ceil(min / multipleOf)
  )
    return unhonoured('multipleOf', at, `no multiple of ${multipleOf} between ${min} and ${max}`);
  return made({
    kind: 'number',
    min,
    max,
    minExcluded,
    maxExcluded,
    ...(multipleOf !== undefined ? { multipleOf } : {}),
  });
}

/**
 * Strings: a format this table generates, else the first pattern, else any text; lengths in code points. The plain
 * strings are never empty unless the schema says so (an empty name is a corner the document leaves to the service).
 */
function planString(nodes: SchemaNode[], at: string): Generated<Plan> {
  const minLength = largest(nodes, 'minLength');
  const maxLength = smallest(nodes, 'maxLength');
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    return unhonoured('maxLength', at, `no string of at least ${minLength} and at most ${maxLength} characters`);
  const format = stringsOf(nodes, 'format').find((f) => FORMATS[f]?.sample !== undefined);
  const patterns = stringsOf(nodes, 'pattern');
  const plain = format === undefined && patterns.length === 0;
  const floor = plain && (maxLength === undefined || maxLength > 0) ? Math.max(minLength ?? 1, 1) : (minLength ?? 0);
  return made({
    kind: 'string',
    minLength: floor,
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(format !== undefined ? { format } : {}),
    patterns,
    plain,
  });
}

/**
 * Arrays: each position's schemas across the parts (prefixItems then items, or draft 4's tuple `items` then
 * additionalItems), `minItems`/`maxItems` the tightest, `uniqueItems`; deep enough, only `minItems` items.
 */
function planArray(nodes: SchemaNode[], build: Build, depth: number, at: string): Generated<Plan> {
  const minItems = largest(nodes, 'minItems') ?? 0;
  let maxItems = smallest(nodes, 'maxItems') ?? Infinity;
  if (minItems > maxItems)
    return unhonoured('maxItems', at, `no array of at least ${minItems} and at most ${maxItems} items`);
  const lean = depth >= build.optionalDepth || build.planned > LEAN_AFTER;
  if (lean) maxItems = minItems;
  const layouts = nodes.map(prefixOf);
  const prefixLength = Math.max(0, ...layouts.map((layout) => layout.schemas.length));
  const prefix: Plan[] = [];
  const positionSchemas = (i: number) =>
    layouts
      .map((layout) => (i < layout.schemas.length ? layout.schemas[i] : layout.rest))
      .filter((s) => s !== undefined);
  for (let i = 0; i < prefixLength && i < maxItems; i++) {
    const planned = planPosition(positionSchemas(i), build, depth, `${at}/${i}`);
    if (planned.ok) {
      prefix.push(planned.value);
      continue;
    }
    if (i < minItems) return planned;
    maxItems = i;
  }
  let rest: Plan | undefined;
  if (maxItems > prefixLength) {
    const planned = planPosition(positionSchemas(prefixLength), build, depth, `${at}/${prefixLength}`);
    if (planned.ok) rest = planned.value;
    else if (minItems > prefixLength) return planned;
    else maxItems = prefixLength;
  }
  const unique = nodes.some((node) => node.uniqueItems === true);
  if (unique && minItems > 1 && rest && distinctValues(rest) < minItems - prefix.length)
    return unhonoured('uniqueItems', at, `fewer than ${minItems} distinct items exist`);
  return made({ kind: 'array', prefix, ...(rest ? { rest } : {}), minItems, maxItems, unique });
}

function planPosition(schemas: unknown[], build: Build, depth: number, at: string): Generated<Plan> {
  const conjunction = gather(...schemas);
  if (conjunction.never) return unhonoured('items', at, 'no item is allowed here');
  return planNodes(conjunction.nodes, build, depth + 1, at, new Set(), schemas.length === 1 ? schemas[0] : undefined);
}

/** How many distinct values a plan can make, when few (a boolean, an enum); Infinity otherwise. */
function distinctValues(plan: Plan): number {
  switch (plan.kind) {
    case 'fixed':
      return plan.values.length;
    case 'boolean':
      return 2;
    case 'null':
      return 1;
    case 'checked':
      return distinctValues(plan.plan);
    case 'choice':
      return plan.options.reduce((sum, option) => sum + distinctValues(option), 0);
    default:
      return Infinity;
  }
}

/**
 * Objects: the declared properties (those the direction leaves out dropped, required ones always, optional ones
 * while not deep), extra members from `patternProperties` and a schema-valued `additionalProperties` (never
 * unknown members where the document only allows them: a target may refuse what it never declared), and as many as
 * `minProperties` needs.
 */
function planObject(nodes: SchemaNode[], build: Build, depth: number, at: string): Generated<Plan> {
  const lean = depth >= build.optionalDepth || build.planned > LEAN_AFTER;
  const required = new Set(requiredNames(nodes));
  const properties: PropertyPlan[] = [];
  for (const name of [...declaredNames(nodes), ...[...required].filter((n) => !declaredNames(nodes).includes(n))]) {
    const { schemas, forbidden } = propertySchemas(nodes, name);
    const where = `${at}/${escapeToken(name)}`;
    const leftOut =
      (build.direction === 'request' && saysTrue(schemas, 'readOnly')) ||
      (build.direction === 'response' && saysTrue(schemas, 'writeOnly'));
    if (leftOut) continue;
    const isRequired = required.has(name);
    if (forbidden) {
      if (isRequired) return unhonoured('additionalProperties', where, `"${name}" is required and not allowed`);
      continue;
    }
    if (!isRequired && lean) continue;
    const conjunction = gather(...schemas);
    if (conjunction.never) {
      if (isRequired) return unhonoured('false', where, `"${name}" is required and its schema is false`);
      continue;
    }
    const planned = planNodes(
      conjunction.nodes,
      build,
      depth + 1,
      where,
      new Set(),
      schemas.length === 1 ? schemas[0] : undefined,
    );
    if (planned.ok) properties.push({ name, plan: planned.value, required: isRequired });
    else if (isRequired) return planned;
  }
  const extras = lean ? [] : extraPlans(nodes, properties, build, depth, at);
  const minProperties = largest(nodes, 'minProperties') ?? 0;
  const maxProperties = smallest(nodes, 'maxProperties') ?? Infinity;
  const requiredCount = properties.filter((p) => p.required).length;
  if (requiredCount > maxProperties)
    return unhonoured(
      'maxProperties',
      at,
      `${requiredCount} properties are required, at most ${maxProperties} allowed`,
    );
  if (properties.length < minProperties && extras.length === 0)
    return unhonoured('minProperties', at, `at least ${minProperties} properties, ${properties.length} can be made`);
  return made({ kind: 'object', properties, extras, minProperties, maxProperties });
}

const EXTRA_NAMES = ['extra', 'other', 'more', 'additional', 'x-contract'];

function extraPlans(
  nodes: SchemaNode[],
  properties: PropertyPlan[],
  build: Build,
  depth: number,
  at: string,
): ExtraPlan[] {
  const declared = new Set(declaredNames(nodes));
  const extras: ExtraPlan[] = [];
  for (const node of nodes) {
    if (isSchemaNode(node.patternProperties)) {
      for (const pattern of Object.keys(node.patternProperties)) {
        const schemas = [node.patternProperties[pattern]];
        const planned = planNodes(
          gather(...schemas).nodes,
          build,
          depth + 1,
          `${at}/${escapeToken(pattern)}`,
          new Set(),
        );
        if (planned.ok) extras.push({ pattern, plan: planned.value });
      }
    }
    if (isSchemaNode(node.additionalProperties)) {
      const names = EXTRA_NAMES.filter((name) => !declared.has(name) && !properties.some((p) => p.name === name));
      const usable = names.filter((name) => !propertySchemas(nodes, name).forbidden);
      const { schemas } = propertySchemas(nodes, usable[0] ?? '');
      const planned = planNodes(gather(...schemas).nodes, build, depth + 1, `${at}/${usable[0] ?? ''}`, new Set());
      if (usable.length > 0 && planned.ok) extras.push({ names: usable, plan: planned.value });
    }
  }
  return extras;
}

function escapeToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
