/**
 * How a Schema Object's keywords are read, whichever dialect wrote them: OpenAPI 3.0 (`nullable`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum`, `example`) or OpenAPI 3.1, which is JSON Schema 2020-12 (type arrays, numeric
 * exclusive bounds, `const`, `prefixItems`, `examples`). Code that walks schemas asks here rather than reading the
 * keywords itself, so that no generator, model or judge carries an `if (version === '3.1')` of its own.
 *
 * Schemas reached through a loaded document may be shared and cyclic (a `$ref` is the object it names, not a copy):
 * `walkSchema` carries the guard every walker needs.
 */

/** A Schema Object as parsed: a plain object whose keywords this module reads. */
export type SchemaNode = Record<string, unknown>;

/** JSON Schema's seven types (2020-12 Validation §6.1.1); `integer` is a `number` with no fraction. */
export type JsonTypeName = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'string' | 'integer';

/** Whether a value is a schema object (2020-12 also allows `true` and `false` as schemas; those are not objects). */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The types a schema names, or undefined when it names none (any type, as far as `type` goes). `type` is a string or
 * (2020-12 §6.1.1) an array; OpenAPI 3.0.3 §4.7.24.1 `nullable: true` "adds null to the allowed types specified by the
 * type keyword, only if type is explicitly defined within the same Schema Object".
 */
export function typesOf(schema: unknown): JsonTypeName[] | undefined {
  if (!isSchemaNode(schema)) return undefined;
  const type = schema.type;
  let types: JsonTypeName[];
  if (typeof type === 'string') types = [type as JsonTypeName];
  else if (Array.isArray(type)) types = type.filter((t): t is JsonTypeName => typeof t === 'string');
  else return undefined;
  if (schema.nullable === true && !types.includes('null')) types = [...types, 'null'];
  return types;
}

/** The one non-null type a schema names (`string`, or `[string, "null"]`), or undefined when it names none or several. */
export function mainType(schema: unknown): JsonTypeName | undefined {
  const types = typesOf(schema)?.filter((t) => t !== 'null');
  return types?.length === 1 ? types[0] : undefined;
}

/**
 * Whether null passes the schema's own `type`, `const` and `enum` (the keywords that can refuse it at this level;
 * 3.0.3: `nullable` adds null to the type but "other Schema Object constraints retain their defined behavior", so an
 * enum without null still refuses it).
 */
export function typeAllowsNull(schema: unknown): boolean {
  if (!isSchemaNode(schema)) return true;
  const types = typesOf(schema);
  if (types && !types.includes('null')) return false;
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  return true;
}

/**
 * Whether a member's schema says in so many words that it takes null (3.0 `nullable: true`, 3.1 a type array with
 * "null", one reading after dialect.ts), and nothing else at its level refuses it: a merge patch may set it to null.
 */
export function nullablePatch(schema: unknown): boolean {
  return typesOf(schema)?.includes('null') === true && typeAllowsNull(schema);
}

/** A numeric bound: its value and whether the value itself is excluded. */
export interface Bound {
  value: number;
  exclusive: boolean;
}

/**
 * The lower bound of a number or integer schema, the tighter of `minimum` and `exclusiveMinimum`: in 3.0 (JSON Schema
 * draft 4, OAS 3.0.3 §4.7.24.1) `exclusiveMinimum` is a boolean that makes `minimum` exclusive; in 2020-12 (§6.2.5) it
 * is a number of its own.
 */
export function lowerBound(schema: unknown): Bound | undefined {
  return boundOf(schema, 'minimum', 'exclusiveMinimum', (a, b) => a > b);
}

/** The upper bound, as lowerBound: `maximum` and `exclusiveMaximum` in either dialect. */
export function upperBound(schema: unknown): Bound | undefined {
  return boundOf(schema, 'maximum', 'exclusiveMaximum', (a, b) => a < b);
}

function boundOf(
  schema: unknown,
  inclusiveKey: 'minimum' | 'maximum',
  exclusiveKey: 'exclusiveMinimum' | 'exclusiveMaximum',
  tighter: (a: number, b: number) => boolean,
): Bound | undefined {
  if (!isSchemaNode(schema)) return undefined;
  const inclusive = schema[inclusiveKey];
  const exclusive = schema[exclusiveKey];
  const bounds: Bound[] = [];
  if (typeof inclusive === 'number') bounds.push({ value: inclusive, exclusive: exclusive === true });
  if (typeof exclusive === 'number') bounds.push({ value: exclusive, exclusive: true });
  let best: Bound | undefined;
  for (const bound of bounds) {
    if (!best || tighter(bound.value, best.value) || (bound.value === best.value && bound.exclusive)) best = bound;
  }
  return best;
}

/** `const` (2020-12 §6.1.3) as a value found, or undefined when the schema has none (a const of null is `{value: null}`). */
export function constOf(schema: unknown): { value: unknown } | undefined {
  return isSchemaNode(schema) && 'const' in schema ? { value: schema.const } : undefined;
}

/** The examples a schema gives: 3.0's `example` (OAS 3.0.3 §4.7.24.2) and 2020-12's `examples` array (§9.5). */
export function examplesOf(schema: unknown): unknown[] {
  if (!isSchemaNode(schema)) return [];
  const examples: unknown[] = [];
  if ('example' in schema) examples.push(schema.example);
  if (Array.isArray(schema.examples)) examples.push(...(schema.examples as unknown[]));
  return examples;
}

/** The keywords whose value is one subschema (2020-12 Core §10.2, §10.3; Validation §8.2.4; §11). */
export const ONE_SCHEMA = [
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;
/** The keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** The keywords whose value is an object of subschemas by name. */
export const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'] as const;

/** One subschema of a schema and where it sits, as a JSON pointer suffix (`/properties/name`, `/allOf/0`). */
export interface Subschema {
  at: string;
  schema: SchemaNode;
}

/** The direct subschemas of a schema, in a stable order; `true`/`false` schemas are left out. */
export function subschemasOf(schema: unknown): Subschema[] {
  if (!isSchemaNode(schema)) return [];
  const found: Subschema[] = [];
  for (const key of ONE_SCHEMA) {
    const value = schema[key];
    if (isSchemaNode(value)) found.push({ at: `/${key}`, schema: value });
    // Draft 4's tuple form of `items` (not OpenAPI 3.0, but documents write it).
    else if (key === 'items' && Array.isArray(value))
      value.forEach((part, index) => isSchemaNode(part) && found.push({ at: `/items/${index}`, schema: part }));
  }
  for (const key of SCHEMA_ARRAYS) {
    const value = schema[key];
    if (!Array.isArray(value)) continue;
    value.forEach((part, index) => isSchemaNode(part) && found.push({ at: `/${key}/${index}`, schema: part }));
  }
  for (const key of SCHEMA_MAPS) {
    const value = schema[key];
    if (!isSchemaNode(value)) continue;
    for (const [name, part] of Object.entries(value))
      if (isSchemaNode(part)) found.push({ at: `/${key}/${escapePointer(name)}`, schema: part });
  }
  return found;
}

/**
 * A shallow copy of a schema with each direct subschema replaced by `map(subschema)`, in the same places
 * (`properties.name`, `allOf[0]`, `items`); keywords that are no subschema are kept as they are.
 */
export function mapSubschemas(schema: SchemaNode, map: (subschema: SchemaNode) => unknown): SchemaNode {
  const copy: SchemaNode = { ...schema };
  for (const key of ONE_SCHEMA) {
    const value = schema[key];
    if (isSchemaNode(value)) copy[key] = map(value);
    else if (key === 'items' && Array.isArray(value)) copy[key] = value.map((part) => mapPart(part, map));
  }
  for (const key of SCHEMA_ARRAYS) {
    const value = schema[key];
    if (Array.isArray(value)) copy[key] = value.map((part) => mapPart(part, map));
  }
  for (const key of SCHEMA_MAPS) {
    const value = schema[key];
    if (isSchemaNode(value))
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, part]) => [name, mapPart(part, map)]));
  }
  return copy;
}

function mapPart(part: unknown, map: (subschema: SchemaNode) => unknown): unknown {
  return isSchemaNode(part) ? map(part) : part;
}

/** RFC 6901 §3: `~` is written `~0` and `/` is written `~1` in a reference token. */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** What a visitor of walkSchema answers: 'skip' leaves the schema's subschemas unvisited. */
export type WalkAnswer = void | 'skip';

/**
 * Visits a schema and its subschemas depth first, each schema once per path: a schema already on the path from the
 * root (a recursive schema: a tree node whose children are tree nodes) is not entered again, and nothing deeper than
 * `maxDepth` is visited. Without recursion on the JS stack, so a deep document cannot overflow it.
 * @example walkSchema(schema, (node, at) => { if (node.format) formats.add(String(node.format)); })
 */
export function walkSchema(
  root: unknown,
  visit: (schema: SchemaNode, at: string, depth: number) => WalkAnswer,
  maxDepth = 64,
): void {
  if (!isSchemaNode(root)) return;
  // Each frame holds the schemas on its path, so that a schema shared by two branches is visited in each.
  const stack: Array<{ schema: SchemaNode; at: string; depth: number; path: ReadonlySet<SchemaNode> }> = [
    { schema: root, at: '', depth: 0, path: new Set() },
  ];
  while (stack.length > 0) {
    const { schema, at, depth, path } = stack.pop()!;
    if (visit(schema, at, depth) === 'skip' || depth >= maxDepth) continue;
    const below = new Set(path).add(schema);
    const children = subschemasOf(schema);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]!;
      if (below.has(child.schema)) continue;
      stack.push({ schema: child.schema, at: at + child.at, depth: depth + 1, path: below });
    }
  }
}

/**
 * Whether `holds` is true of `root` or of any schema below it, each schema visited once however often it is named
 * (cycles and shared parts cost nothing more).
 * @example someSchema(answerSchema, (node) => node.writeOnly === true)
 */
export function someSchema(root: unknown, holds: (schema: SchemaNode) => boolean): boolean {
  const seen = new Set<SchemaNode>();
  let found = false;
  walkSchema(root, (node) => {
    if (found || seen.has(node)) return 'skip';
    seen.add(node);
    if (holds(node)) found = true;
  });
  return found;
}
