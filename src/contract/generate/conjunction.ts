import { isSchemaNode, typesOf, type JsonTypeName, type SchemaNode } from '../../openapi/schema-keywords.js';
import { checkValue, patternRegExp, type Direction, type Verdict } from './schema-check.js';

/**
 * A schema and every `allOf` part under it, taken together (2020-12 Core §10.2.1.1: an instance must hold for all of
 * them): the generators read a keyword across all the parts rather than merging them into one object, so that two
 * parts naming one property both apply to it. `never`: a part is the `false` schema (nothing is valid).
 */
export interface Conjunction {
  nodes: SchemaNode[];
  never: boolean;
}

/** The parts of `schemas` and of their allOfs, each once (a schema that contains itself is read once). */
export function gather(...schemas: unknown[]): Conjunction {
  const nodes: SchemaNode[] = [];
  const seen = new Set<SchemaNode>();
  let never = false;
  const visit = (schema: unknown) => {
    if (schema === false) never = true;
    if (!isSchemaNode(schema) || seen.has(schema)) return;
    seen.add(schema);
    nodes.push(schema);
    if (Array.isArray(schema.allOf)) for (const part of schema.allOf as unknown[]) visit(part);
  };
  for (const schema of schemas) visit(schema);
  return { nodes, never };
}

/** Whether every part holds for `value`: true, false naming the keyword, or undecided. */
export function checkAll(nodes: SchemaNode[], value: unknown, direction: Direction): Verdict {
  let undecided: Verdict | undefined;
  for (const node of nodes) {
    const verdict = checkValue(node, value, direction);
    if (verdict.valid === false) return verdict;
    if (verdict.valid === undefined) undecided ??= verdict;
  }
  return undecided ?? { valid: true };
}

const ALL_TYPES: JsonTypeName[] = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

/**
 * The JSON types every part allows (`integer` where one says number and another integer), or, when none names a
 * type, the types its keywords speak of (`properties` → object, `items` → array …), else every type.
 */
export function typesAllowed(nodes: SchemaNode[]): JsonTypeName[] {
  let allowed: JsonTypeName[] | undefined;
  for (const node of nodes) {
    const types = typesOf(node);
    if (!types) continue;
    const widened = types.includes('number') ? [...types, 'integer' as const] : types;
    allowed = allowed ? allowed.filter((t) => widened.includes(t)) : [...new Set(widened)];
  }
  if (allowed) return allowed;
  const implied = new Set<JsonTypeName>();
  for (const node of nodes) {
    for (const [type, keywords] of IMPLIED) if (keywords.some((k) => k in node)) implied.add(type);
    if (typeof node.format === 'string' && STRING_FORMATS_HINT.test(node.format)) implied.add('string');
  }
  if (implied.size > 0) {
    const nullable = nodes.some((node) => node.nullable === true);
    return nullable ? [...implied, 'null'] : [...implied];
  }
  return ALL_TYPES;
}

const IMPLIED: [JsonTypeName, string[]][] = [
  ['object', ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties']],
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains']],
  ['string', ['minLength', 'maxLength', 'pattern']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
];
const STRING_FORMATS_HINT = /^(?!int32$|int64$|float$|double$)/;

/** The values `const` and `enum` leave, every part's kept; undefined when no part has either. */
export function fixedValues(nodes: SchemaNode[]): unknown[] | undefined {
  let values: unknown[] | undefined;
  for (const node of nodes) {
    const own = 'const' in node ? [node.const] : Array.isArray(node.enum) ? (node.enum as unknown[]) : undefined;
    if (!own) continue;
    values = values ? values.filter((v) => own.some((w) => checkValue({ const: w }, v).valid === true)) : own;
  }
  return values;
}

/** The tightest `min*` and loosest-kept `max*` of a numeric keyword over the parts. */
export function largest(nodes: SchemaNode[], keyword: string): number | undefined {
  let found: number | undefined;
  for (const node of nodes) {
    const value = node[keyword];
    if (typeof value === 'number' && (found === undefined || value > found)) found = value;
  }
  return found;
}

export function smallest(nodes: SchemaNode[], keyword: string): number | undefined {
  let found: number | undefined;
  for (const node of nodes) {
    const value = node[keyword];
    if (typeof value === 'number' && (found === undefined || value < found)) found = value;
  }
  return found;
}

/** The strings a keyword has across the parts (`pattern`, `format`), each once, in order. */
export function stringsOf(nodes: SchemaNode[], keyword: string): string[] {
  return [...new Set(nodes.map((node) => node[keyword]).filter((v): v is string => typeof v === 'string'))];
}

/**
 * Keywords whose every combination the plans do not build exactly: a value built for a conjunction holding one is
 * checked (checkAll) before it is offered, and replaced by one that holds when it does not.
 */
const CHECKED_KEYWORDS = [
  'not',
  'if',
  'oneOf',
  'anyOf',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'contains',
  'patternProperties',
  'uniqueItems',
  'multipleOf',
  'discriminator',
];

export function needsCheck(nodes: SchemaNode[]): boolean {
  if (nodes.length > 1) return true;
  const node = nodes[0];
  if (!node) return false;
  if (CHECKED_KEYWORDS.some((keyword) => keyword in node)) return true;
  return (
    typeof node.pattern === 'string' && (typeof node.format === 'string' || 'minLength' in node || 'maxLength' in node)
  );
}

/** One property of an object conjunction: the schemas that apply to its value, or `forbidden` by a closed part. */
export interface PropertySchemas {
  schemas: unknown[];
  forbidden: boolean;
}

/**
 * The schemas that apply to the value of property `name` across the parts (2020-12 Core §10.3.2): each part's
 * `properties[name]`, its `patternProperties` whose pattern matches, and else its `additionalProperties`; a part whose
 * additionalProperties is false and that neither declares nor patterns the name forbids it.
 */
export function propertySchemas(nodes: SchemaNode[], name: string): PropertySchemas {
  const schemas: unknown[] = [];
  let forbidden = false;
  for (const node of nodes) {
    let matched = false;
    if (isSchemaNode(node.properties) && Object.prototype.hasOwnProperty.call(node.properties, name)) {
      matched = true;
      schemas.push(node.properties[name]);
    }
    if (isSchemaNode(node.patternProperties)) {
      for (const [source, schema] of Object.entries(node.patternProperties)) {
        if (patternRegExp(source)?.test(name)) {
          matched = true;
          schemas.push(schema);
        }
      }
    }
    if (matched || node.additionalProperties === undefined || node.additionalProperties === true) continue;
    if (node.additionalProperties === false) forbidden = true;
    else schemas.push(node.additionalProperties);
  }
  if (schemas.includes(false)) forbidden = true;
  return { schemas, forbidden };
}

/** The property names the parts declare, in the order they declare them. */
export function declaredNames(nodes: SchemaNode[]): string[] {
  const names: string[] = [];
  for (const node of nodes)
    if (isSchemaNode(node.properties)) for (const name of Object.keys(node.properties)) names.push(name);
  return [...new Set(names)];
}

/** The names every part requires. */
export function requiredNames(nodes: SchemaNode[]): string[] {
  const names: string[] = [];
  for (const node of nodes)
    if (Array.isArray(node.required))
      for (const name of node.required as unknown[]) if (typeof name === 'string') names.push(name);
  return [...new Set(names)];
}

/** Whether a schema or a part of its allOf says `flag` (readOnly, writeOnly, deprecated …) is true. */
export function saysTrue(schemas: unknown[], flag: string): boolean {
  return gather(...schemas).nodes.some((node) => node[flag] === true);
}
