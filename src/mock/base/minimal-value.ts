import {
  constOf,
  examplesOf,
  isSchemaNode,
  lowerBound,
  mainType,
  typesOf,
  upperBound,
  type SchemaNode,
} from '../../openapi/schema-keywords.js';

/** How deep a made-up value nests at most: an error body's required fields are a level or two deep. */
const MAX_DEPTH = 8;
/** The most items a made-up array holds (`minItems` beyond it is not met; the caller's validator says so). */
const MAX_ITEMS = 4;

/**
 * Samples for the common string formats (JSON Schema 2020-12 Validation §7.3), fixed so that the same schema always
 * gives the same value: an answer the mock makes up from a schema is decided once and cached (error-template.ts).
 * Another format gets the plain string, which its validator may refuse (the caller checks).
 */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'mock@example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'about:blank',
  'uri-reference': 'about:blank',
  uuid: '00000000-0000-0000-0000-000000000000',
};

/**
 * Says whether `value` is valid against `schema` (a schema of the document, found by reference): the document's own
 * compiled validator (`spec.compile`), so that an example is taken only where it keeps its schema.
 */
export type Accepts = (schema: SchemaNode, value: unknown) => boolean;

export interface MinimalOptions {
  /**
   * Asked before an example or a `default` is taken: OpenAPI 3.0.3 §4.7.24.2 and JSON Schema 2020-12 Validation §9.5
   * say an example SHOULD match its schema, not that it does (Box's `shared_link` example lacks its required
   * `accessed`). One it refuses is passed over, and the value is built by type instead. Absent: every example is
   * taken as written (the error bodies of error-shape.ts, checked whole by their caller).
   */
  accepts?: Accepts;
}

/**
 * The least value a schema accepts, made without randomness: `const`, else the first `enum` value, else the first
 * example (the first `accepts` takes, when given), else `default` (likewise), else one built by type (an object holds its required properties only, an array its
 * `minItems`, a number its lower bound, a string its format's sample or `minLength` x's). `allOf` parts are merged
 * for an object, `oneOf`/`anyOf` take the first branch (merged into an object schema that has them beside its members). Recursive schemas stop at the first schema already on the
 * path (a required property that needs itself gets `null`), and nothing nests deeper than 8 levels.
 * Best effort: a `pattern` beyond a literal start (`^/v1/items`), `not` and `multipleOf` beyond a lower bound are
 * not met; whoever needs the value to be valid checks it with the schema's compiled validator.
 * @example minimalValue({ type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date' } } })
 *   // { at: '1970-01-01' }
 */
export function minimalValue(schema: unknown, options: MinimalOptions = {}): unknown {
  return valueOf(schema, { path: new Set(), accepts: options.accepts }, 0);
}

/** What one made-up value carries down its schema: the schemas on its path (the cycle guard) and the check. */
interface Walk {
  path: Set<SchemaNode>;
  accepts: Accepts | undefined;
}

function valueOf(schema: unknown, walk: Walk, depth: number): unknown {
  const { path, accepts } = walk;
  if (!isSchemaNode(schema) || path.has(schema) || depth > MAX_DEPTH) return null;
  const fixed = constOf(schema);
  if (fixed) return fixed.value;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const written = schema.default === undefined ? examplesOf(schema) : [...examplesOf(schema), schema.default];
  const example = accepts ? written.find((value) => accepts(schema, value)) : written[0];
  if (example !== undefined) return example;
  path.add(schema);
  try {
    return byType(schema, walk, depth);
  } finally {
    path.delete(schema);
  }
}

function byType(schema: SchemaNode, walk: Walk, depth: number): unknown {
  const branch = firstBranch(schema);
  const type = mainType(schema) ?? (objectLike(schema) ? 'object' : undefined);
  if (branch && type === undefined) return valueOf(branch, walk, depth + 1);
  switch (type) {
    case 'object':
      return objectOf(schema, walk, depth);
    case 'array': {
      const count = Math.min(typeof schema.minItems === 'number' ? schema.minItems : 0, MAX_ITEMS);
      return Array.from({ length: count }, () => valueOf(schema.items, walk, depth + 1));
    }
    case 'integer':
    case 'number':
      return numberOf(schema, type);
    case 'boolean':
      return false;
    case 'string':
      return stringOf(schema);
    case 'null':
      return null;
    default: {
      const allOf = Array.isArray(schema.allOf) ? schema.allOf.find(isSchemaNode) : undefined;
      if (allOf) return valueOf(allOf, walk, depth + 1);
      // No type named: a string is the value most schemas without a type still accept.
      return typesOf(schema)?.includes('null') ? null : '';
    }
  }
}

/** The first `oneOf` or `anyOf` branch that is a schema object. */
function firstBranch(schema: SchemaNode): SchemaNode | undefined {
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return branches.find(isSchemaNode);
  }
  return undefined;
}

/** A schema that names no type but describes an object's members. */
export function objectLike(schema: SchemaNode): boolean {
  return (
    isSchemaNode(schema.properties) ||
    Array.isArray(schema.required) ||
    (Array.isArray(schema.allOf) && schema.allOf.some((part) => isSchemaNode(part) && objectLike(part)))
  );
}

function objectOf(schema: SchemaNode, walk: Walk, depth: number): Record<string, unknown> {
  const members = objectMembers(schema);
  // An object schema that is also a `oneOf`/`anyOf` (Box's SearchResultsResponse: `type: object` beside two branches
  // that each require their own `type`): the value is one of the first branch, the object's own members first.
  const branch = firstBranch(schema);
  if (branch && !walk.path.has(branch)) objectMembers(branch, members);
  const { properties, required } = members;
  const value: Record<string, unknown> = {};
  for (const name of required) value[name] = valueOf(properties.get(name) ?? {}, walk, depth + 1);
  return value;
}

/** An object schema's properties (first declaration wins) and required names, `allOf` parts merged in, in order. */
export interface ObjectMembers {
  properties: Map<string, unknown>;
  required: Set<string>;
  /** `additionalProperties: false` somewhere in the merge: no member beyond `properties` is allowed. */
  closed: boolean;
}

/**
 * Merges an object schema with its `allOf` parts (OAS 3.0.3 §4.7.24.3: composition), each part once per path, at
 * most 8 levels deep: what a value of it must hold and may hold, in declaration order.
 */
export function objectMembers(schema: unknown, into?: ObjectMembers, path = new Set<SchemaNode>()): ObjectMembers {
  const members = into ?? { properties: new Map(), required: new Set(), closed: false };
  if (!isSchemaNode(schema) || path.has(schema) || path.size > MAX_DEPTH) return members;
  path.add(schema);
  if (isSchemaNode(schema.properties))
    for (const [name, property] of Object.entries(schema.properties))
      if (!members.properties.has(name)) members.properties.set(name, property);
  if (Array.isArray(schema.required))
    for (const name of schema.required) if (typeof name === 'string') members.required.add(name);
  if (schema.additionalProperties === false) members.closed = true;
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) objectMembers(part, members, path);
  path.delete(schema);
  return members;
}

function numberOf(schema: SchemaNode, type: 'integer' | 'number'): number {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  if (low) {
    const step = type === 'integer' ? 1 : high ? (high.value - low.value) / 2 : 1;
    const start = type === 'integer' ? Math.ceil(low.value) : low.value;
    return low.exclusive && start === low.value ? start + step : start;
  }
  if (high && high.value <= 0) {
    const end = type === 'integer' ? Math.floor(high.value) : high.value;
    return high.exclusive && end === high.value ? end - 1 : end;
  }
  return 0;
}

function stringOf(schema: SchemaNode): string {
  const sample = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  if (sample !== undefined) return sample;
  const length = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 1024) : 0;
  // A pattern that only fixes how the string starts (Stripe's list urls: `^/v1/accounts`) is met by that start.
  const prefix = typeof schema.pattern === 'string' ? /^\^([\w/.-]*)$/.exec(schema.pattern)?.[1] : undefined;
  if (prefix !== undefined) return prefix.padEnd(length, 'x');
  return 'x'.repeat(length);
}
