import type { CompileSchema } from '../../openapi/operations.js';
import { isSchemaNode, mainType, type SchemaNode } from '../../openapi/schema-keywords.js';
import { minimalValue, objectLike, objectMembers, type Accepts, type ObjectMembers } from '../base/minimal-value.js';

/** How deep a stored item's members are completed: as deep as minimal-value.ts makes one. */
const MAX_DEPTH = 8;

/**
 * A stored item with every member its item schema requires and it lacks, at every depth: what the answer must hold
 * and no request supplies. The request and the answer may describe one item differently (OAS 3.0.3 §4.7.25: a
 * `readOnly` member is required "on the response only"; Box's `POST /folders` takes `parent: {id}` and answers
 * `parent: {id, type}` with `type` required), and a stored item is answered as it is stored. A missing member gets
 * `current`'s value (a replace keeps what the item had, at the top), else the least value its schema accepts
 * (minimal-value.ts, with only the examples `accepts` takes). `skip` names top-level members the store assigns
 * (the id, the parent's property). Returns `item` itself when nothing is missing, so an answer the schema already
 * describes (v1's pets) is the same object, byte for byte.
 */
export type Completer = (item: Record<string, unknown>, current?: Record<string, unknown>) => Record<string, unknown>;

/**
 * What completes a collection's stored items against its item schema, examples checked by the document's own
 * validators. Loaded only for a document whose items may lack something (document-model.ts), as the writeOnly
 * omitter is: v1's flat pets never load it.
 */
export function itemCompleter(itemSchema: object, compile: CompileSchema, skip: ReadonlySet<string>): Completer {
  const accepts: Accepts = (schema, value) => compile(schema, 'response')(value);
  return (item, current) => completeRequired(item, itemSchema, accepts, skip, current);
}

/** What resourceHandlers takes to complete the stored items of a collection. */
export type CompleterFor = typeof itemCompleter;

export function completeRequired(
  item: Record<string, unknown>,
  schema: unknown,
  accepts: Accepts,
  skip: ReadonlySet<string>,
  current?: Record<string, unknown>,
): Record<string, unknown> {
  return completeObject(item, schema, { accepts, path: new Set() }, 0, skip, current);
}

interface Walk {
  accepts: Accepts;
  path: Set<SchemaNode>;
}

function completeValue(value: unknown, schema: unknown, walk: Walk, depth: number): unknown {
  if (!isSchemaNode(schema) || walk.path.has(schema) || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!isSchemaNode(items)) return value;
    walk.path.add(schema);
    const done = value.map((entry) => completeValue(entry, items, walk, depth + 1));
    walk.path.delete(schema);
    return done.every((entry, index) => entry === value[index]) ? value : done;
  }
  if (typeof value !== 'object' || value === null) return value;
  return completeObject(value as Record<string, unknown>, schema, walk, depth, new Set());
}

function completeObject(
  value: Record<string, unknown>,
  schema: unknown,
  walk: Walk,
  depth: number,
  skip: ReadonlySet<string>,
  current?: Record<string, unknown>,
): Record<string, unknown> {
  if (!isSchemaNode(schema) || walk.path.has(schema) || depth > MAX_DEPTH) return value;
  const { properties, required } = membersOf(
    schema,
    { properties: new Map(), required: new Set(), closed: false },
    new Set(),
    0,
  );
  walk.path.add(schema);
  let done: Record<string, unknown> | undefined;
  const set = (name: string, member: unknown) => ((done ??= { ...value })[name] = member);
  for (const [name, member] of Object.entries(value)) {
    const completed = completeValue(member, properties.get(name), walk, depth + 1);
    if (completed !== member) set(name, completed);
  }
  for (const name of required) {
    if (value[name] !== undefined || skip.has(name)) continue;
    const kept = current?.[name];
    set(name, kept !== undefined ? kept : minimalValue(properties.get(name) ?? {}, { accepts: walk.accepts }));
  }
  walk.path.delete(schema);
  return done ?? value;
}

/**
 * An object schema's members, its `allOf` parts merged, and where it (or a part) is a `oneOf`/`anyOf`, its first
 * branch that is an object: 3.0's `nullable` beside `allOf` reads as `anyOf: [null, {allOf}]` (dialect.ts), and
 * Box's CollaborationItem is one of File, Folder, WebLink, inside an `allOf`.
 */
function membersOf(schema: unknown, members: ObjectMembers, seen: Set<SchemaNode>, depth: number): ObjectMembers {
  if (!isSchemaNode(schema) || seen.has(schema) || depth > MAX_DEPTH) return members;
  seen.add(schema);
  objectMembers(schema, members);
  const branch = objectBranch(schema);
  if (branch) membersOf(branch, members, seen, depth + 1);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) membersOf(part, members, seen, depth + 1);
  return members;
}

/** The first `oneOf` or `anyOf` branch that describes an object. */
function objectBranch(schema: SchemaNode): SchemaNode | undefined {
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const found = (branches as unknown[]).find((branch) => describesObject(branch, 0));
    if (isSchemaNode(found)) return found;
  }
  return undefined;
}

/** Whether a schema, or one of its `allOf` parts, is an object's (`type: object`, or members named). */
function describesObject(schema: unknown, depth: number): boolean {
  if (!isSchemaNode(schema) || depth > MAX_DEPTH) return false;
  if (mainType(schema) === 'object' || objectLike(schema)) return true;
  return Array.isArray(schema.allOf) && schema.allOf.some((part) => describesObject(part, depth + 1));
}
