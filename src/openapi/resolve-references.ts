/**
 * A bundled document (every `$ref` internal, `#/…`) as one graph of objects: each Reference Object replaced by the
 * very object it names, shared, never copied. A recursive schema becomes an object that contains itself, and a
 * schema named a thousand times is one object: the graph costs what the document weighs, whatever its references
 * would expand to. Every object keeps the JSON pointer of the place it is written (`pointerOf`), so that a validator
 * can be compiled by reference (schema-compiler.ts) and a report can say where a schema is.
 *
 * No `node:` import: the browser build resolves a compiled document's references with it too.
 */

import { DocumentError } from '../input-errors.js';
import { escapePointer, ONE_SCHEMA, SCHEMA_ARRAYS, SCHEMA_MAPS } from './schema-keywords.js';

/** The longest chain of references that name references (`A: {$ref: B}`, `B: {$ref: C}` …) followed. */
export const MAX_REFERENCE_CHAIN = 64;

/** A document whose references are the objects they name, and where each object is written. */
export interface ResolvedDocument<T> {
  /** The document, every `$ref` replaced by its target (shared; cycles where schemas recurse). */
  view: T;
  /** The JSON pointer (`#/components/schemas/Pet`) of the place an object of the view is written. */
  pointerOf: WeakMap<object, string>;
}

interface PendingReference {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  ref: string;
  at: string;
}

/**
 * Resolves a bundled document's internal references (the document is not changed: the view is a copy). Values that
 * are data (examples, a schema's `default`, `enum`, `const`, extensions) are shared as they are (contextOf).
 * @example const { view, pointerOf } = resolveReferences(bundled); pointerOf.get(view.components.schemas.Pet)
 */
export function resolveReferences<T extends object>(document: T): ResolvedDocument<T> {
  const byPointer = new Map<string, object>();
  const pointerOf = new WeakMap<object, string>();
  const pending: PendingReference[] = [];
  const view = copyNode(document, '#', byPointer, pointerOf, pending) as T;
  for (const reference of pending) {
    const target = targetOf(reference, document, byPointer);
    (reference.holder as Record<string | number, unknown>)[reference.key] = target;
  }
  return { view, pointerOf };
}

/**
 * What a node of the document is, so that only what can hold a Reference Object is searched for one: OpenAPI's own
 * objects (`outside`), Schema Objects, maps of schemas (`properties`, `components.schemas`), maps of Example Objects,
 * and Example Objects, whose `value` is data. Inside a schema only the subschema keywords are walked: `default`,
 * `enum`, `const`, `examples` and `discriminator` are values, shared as they are, whatever they hold.
 */
type Context = 'outside' | 'schema' | 'schemas' | 'examples' | 'example' | 'data';

const ONE = new Set<string>(ONE_SCHEMA);
const ARRAYS = new Set<string>(SCHEMA_ARRAYS);
const MAPS = new Set<string>(SCHEMA_MAPS);

/** The context of the value under `key` of a node in context `context` (at the JSON pointer `at`). */
function contextOf(context: Context, key: string, value: unknown, at: string): Context {
  if (key.startsWith('x-')) return 'data';
  switch (context) {
    case 'schema':
      if (ONE.has(key)) return 'schema';
      if (ARRAYS.has(key)) return 'schemas';
      if (MAPS.has(key)) return 'schemas';
      return 'data';
    case 'schemas':
      return 'schema';
    case 'examples':
      return 'example';
    case 'example':
      return key === 'value' ? 'data' : 'outside';
    case 'outside':
      if (key === 'schema') return 'schema';
      if (key === 'schemas' && at === '#/components') return 'schemas';
      if (key === 'example') return 'data';
      if (key === 'examples') return Array.isArray(value) ? 'data' : 'examples';
      return 'outside';
    default:
      return 'data';
  }
}

/** Copies the tree without recursion on the JS stack (a deep document cannot overflow it). */
function copyNode(
  root: unknown,
  rootPointer: string,
  byPointer: Map<string, object>,
  pointerOf: WeakMap<object, string>,
  pending: PendingReference[],
): unknown {
  if (typeof root !== 'object' || root === null) return root;
  const top = Array.isArray(root) ? [] : {};
  const stack: Array<{ from: object; to: Record<string, unknown> | unknown[]; at: string; context: Context }> = [
    { from: root, to: top, at: rootPointer, context: 'outside' },
  ];
  record(top, rootPointer, byPointer, pointerOf);
  while (stack.length > 0) {
    const { from, to, at, context } = stack.pop()!;
    const isArray = Array.isArray(from);
    for (const [key, value] of Object.entries(from)) {
      const slot: string | number = isArray ? Number(key) : key;
      const childAt = `${at}/${escapePointer(key)}`;
      // An array's items are in its own context (a list of schemas, of parameters).
      const childContext = isArray ? (context === 'schemas' ? 'schema' : context) : contextOf(context, key, value, at);
      if (typeof value !== 'object' || value === null || childContext === 'data') {
        (to as Record<string | number, unknown>)[slot] = value;
        continue;
      }
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && !Array.isArray(value)) {
        pending.push({ holder: to, key: slot, ref, at: childAt });
        (to as Record<string | number, unknown>)[slot] = undefined;
        continue;
      }
      const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
      record(copy, childAt, byPointer, pointerOf);
      (to as Record<string | number, unknown>)[slot] = copy;
      stack.push({ from: value as object, to: copy, at: childAt, context: childContext });
    }
  }
  return top;
}

function record(copy: object, at: string, byPointer: Map<string, object>, pointerOf: WeakMap<object, string>): void {
  byPointer.set(at, copy);
  pointerOf.set(copy, at);
}

/** The object a reference names, following references that name references, each at most MAX_REFERENCE_CHAIN deep. */
function targetOf(reference: PendingReference, document: object, byPointer: Map<string, object>): unknown {
  let ref = reference.ref;
  for (let hop = 0; hop < MAX_REFERENCE_CHAIN; hop++) {
    const pointer = canonicalPointer(ref, reference.at);
    const resolved = byPointer.get(pointer);
    if (resolved) return resolved;
    // A pointer to a value the copy shares as data, or to a reference (its slot holds no copy): read the document.
    const written = valueAt(document, pointer);
    if (written === undefined)
      throw new DocumentError(`${reference.at}: $ref "${reference.ref}" names nothing in the document`);
    const next = typeof written === 'object' && written !== null ? (written as { $ref?: unknown }).$ref : undefined;
    if (typeof next !== 'string') return written;
    ref = next;
  }
  throw new DocumentError(
    `${reference.at}: $ref "${reference.ref}" starts a chain of more than ${MAX_REFERENCE_CHAIN} references that name references (a loop of $refs names no schema)`,
  );
}

/** RFC 6901 in a URI fragment (RFC 3986 §3.5): percent-decoded, then written again with only `~0` and `~1` escapes. */
function canonicalPointer(ref: string, at: string): string {
  if (!ref.startsWith('#'))
    throw new DocumentError(`${at}: $ref "${ref}" names another document, which bundling should have pulled in`);
  if (ref === '#' || ref === '#/') return '#';
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw new DocumentError(`${at}: $ref "${ref}" is not a valid URI fragment (RFC 3986 §2.1)`);
  }
  if (!fragment.startsWith('/')) throw new DocumentError(`${at}: $ref "${ref}" is not a JSON pointer (RFC 6901)`);
  return `#${fragment}`;
}

/** The value at a canonical pointer of a document, or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '#') return document;
  let node: unknown = document;
  for (const token of pointer.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Visits every Schema Object of a document that is not inside another (a component, a parameter's, a media type's),
 * with its JSON pointer; a Reference Object in a schema's place is left to the schema it names. Subschemas are the
 * visitor's to walk.
 */
export function forEachSchemaRoot(document: object, visit: (schema: object, at: string) => void): void {
  const stack: Array<{ node: unknown; at: string; context: Context }> = [
    { node: document, at: '#', context: 'outside' },
  ];
  while (stack.length > 0) {
    const { node, at, context } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const isArray = Array.isArray(node);
    for (const [key, value] of Object.entries(node)) {
      const childContext = isArray ? (context === 'schemas' ? 'schema' : context) : contextOf(context, key, value, at);
      if (typeof value !== 'object' || value === null || childContext === 'data') continue;
      const childAt = `${at}/${escapePointer(key)}`;
      if (childContext === 'schema') {
        if (typeof (value as { $ref?: unknown }).$ref !== 'string') visit(value as object, childAt);
        continue;
      }
      stack.push({ node: value, at: childAt, context: childContext });
    }
  }
}
