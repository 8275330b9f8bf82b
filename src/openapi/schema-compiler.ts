/**
 * Validators compiled by reference, as AJV is meant to be used on a document of many schemas: the normalized
 * document (dialect.ts) is added to one AJV instance under a name, and each schema is compiled by its JSON pointer
 * (`request.json#/components/schemas/NewPet`). A schema named a thousand times is compiled once, a recursive one is
 * an ordinary function that calls itself, and nothing is expanded.
 *
 * A document is added twice, once per direction, because OpenAPI 3.0.3 §4.7.25 / 3.1 §4.8.24 make `readOnly` and
 * `writeOnly` change `required`: "If the property is marked as readOnly being true and is in the required list, the
 * required will take effect on the response only" (and writeOnly on the request only). The two copies share every
 * object that rule leaves alone.
 */

import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-keywords.js';
import { forEachSchemaRoot, valueAt } from './resolve-references.js';
import { DocumentError } from '../input-errors.js';
import { describeErrors, joinMessages } from './describe-errors.js';

/** Which way a body travels: a request (readOnly properties not required) or a response (writeOnly not required). */
export type Direction = 'request' | 'response';

/** The name each direction's copy of the document is added to AJV under. */
export const DOCUMENT_IDS: Record<Direction, string> = { request: 'request.json', response: 'response.json' };

/** Compiles a schema of the document (found by reference) or one made by code (whose document parts are referenced). */
export interface SchemaCompiler {
  compile: (schema: object, direction?: Direction) => ValidateFunction;
  /** The key a validator is known by: `request.json#/…` for a schema of the document, else its JSON text. */
  keyOf: (schema: object, direction?: Direction) => string;
}

/**
 * The compiler of one document: `normalized` is the document as AJV reads it (references kept), `pointerOf` says
 * where an object of the resolved view is written (resolve-references.ts).
 */
export function createSchemaCompiler(
  ajv: Ajv,
  normalized: object,
  pointerOf: WeakMap<object, string>,
  wrap: (validate: ValidateFunction) => ValidateFunction,
): SchemaCompiler {
  const copies = [forDirection(normalized, 'request'), forDirection(normalized, 'response')] as const;
  ajv.addSchema(copies[0], DOCUMENT_IDS.request, undefined, false);
  ajv.addSchema(copies[1], DOCUMENT_IDS.response, undefined, false);
  const compiled = new Map<string, ValidateFunction>();
  let copyPointers: WeakMap<object, string> | undefined;

  function keyOf(schema: object, direction: Direction = 'response'): string {
    return pointerOf.has(schema)
      ? schemaKey(schema, pointerOf, direction)
      : JSON.stringify(referencing(schema, pointerOf, direction));
  }

  /**
   * A validator compiled when it first runs: a large document (Stripe's 4 MB, 395 operations) is ready in a second
   * instead of after compiling every schema, and a schema no request reaches costs nothing. Whether each schema can
   * be compiled was settled when the document was read (checkSchemas).
   */
  function compile(schema: object, direction: Direction = 'response'): ValidateFunction {
    const key = keyOf(schema, direction);
    const known = compiled.get(key);
    if (known) return known;
    let real: ValidateFunction | undefined;
    const deferred = function validateDeferred(data: unknown): boolean {
      real ??= build(schema, key, direction);
      const valid = real(data);
      deferred.errors = real.errors && documentPaths(real.errors, (copyPointers ??= pointersOf(copies)));
      return valid;
    } as ValidateFunction;
    deferred.schema = schema;
    deferred.errors = null;
    const wrapped = wrap(deferred);
    compiled.set(key, wrapped);
    return wrapped;
  }

  function build(schema: object, key: string, direction: Direction): ValidateFunction {
    const validate = pointerOf.has(schema)
      ? ajv.getSchema(key)
      : ajv.compile(referencing(schema, pointerOf, direction) as object);
    if (!validate) throw new Error(`${key} names no schema`);
    return validate;
  }

  return { compile, keyOf };
}

/**
 * AJV's schemaPath is relative to the schema a `$ref` led to (`#/properties/categoryId/type`), which says nothing
 * of which schema that was; with `verbose`, an error carries the schema it failed in, and its place in the
 * document makes the path a reader can follow (`#/components/schemas/NewPet/properties/categoryId/type`). Errors
 * are returned without the schema and data `verbose` adds, which a report has no use for. A part made by code
 * keeps AJV's path.
 */
function documentPaths(errors: ErrorObject[], pointers: WeakMap<object, string>): ErrorObject[] {
  return errors.map(function inDocument({ schema: _schema, parentSchema, data: _data, ...error }) {
    const pointer = typeof parentSchema === 'object' && parentSchema !== null ? pointers.get(parentSchema) : undefined;
    if (pointer === undefined) return error;
    const keyword = error.schemaPath.slice(error.schemaPath.lastIndexOf('/') + 1);
    return { ...error, schemaPath: `${pointer}/${keyword}` };
  });
}

/** Where each object of the two copies is written (`#/components/schemas/Pet`), for errors' paths. */
function pointersOf(copies: readonly object[]): WeakMap<object, string> {
  const pointers = new WeakMap<object, string>();
  const pending: [unknown, string][] = copies.map((copy) => [copy, '#']);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, pointer] = next;
    if (typeof node !== 'object' || node === null || pointers.has(node)) continue;
    pointers.set(node, pointer);
    for (const [key, value] of Object.entries(node))
      if (typeof value === 'object' && value !== null)
        pending.push([value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return pointers;
}

/**
 * Checks every schema of the normalized document against JSON Schema 2020-12's meta-schema, so that a schema AJV
 * could not compile is refused when the document is read, in one line naming where it is, although validators are
 * compiled only when they first run.
 */
export function checkSchemas(ajv: Ajv, normalized: object): void {
  forEachSchemaRoot(normalized, (schema, at) => {
    if (ajv.validateSchema(schema) === true) return;
    const where = at
      .slice(2)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    throw new DocumentError(`${where}: ${joinMessages(describeErrors(ajv.errors, 'schema'))}`);
  });
}

/**
 * The key a validator is known by, where it was compiled ahead too (a compiled module in a page): a schema of the
 * document by its direction and pointer (`request.json#/components/schemas/NewPet`), one made by code (the Error
 * shape, which holds no part of the document) by its JSON text.
 */
export function schemaKey(
  schema: object,
  pointerOf: WeakMap<object, string>,
  direction: Direction = 'response',
): string {
  const pointer = pointerOf.get(schema);
  return pointer === undefined ? JSON.stringify(schema) : DOCUMENT_IDS[direction] + pointer;
}

/**
 * A schema made by code (the Error shape, a schema assembled from parts) with every part that belongs to the
 * document replaced by a reference to it, so that AJV neither copies the document nor loops on a recursive part.
 */
function referencing(schema: unknown, pointerOf: WeakMap<object, string>, direction: Direction, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const pointer = pointerOf.get(schema);
  if (pointer !== undefined) return { $ref: DOCUMENT_IDS[direction] + pointer };
  if (depth > 64) throw new Error('a schema made by code nests deeper than 64 levels');
  if (Array.isArray(schema)) return schema.map((item) => referencing(item, pointerOf, direction, depth + 1));
  return isSchemaNode(schema)
    ? mapSubschemas(schema, (part) => referencing(part, pointerOf, direction, depth + 1))
    : schema;
}

/**
 * The document as validated in one direction: every object schema's `required` without the properties that are
 * `readOnly` (request) or `writeOnly` (response), and without examples and extensions, which validate nothing and
 * which AJV would search for `$id`s (an example that shows a JSON Schema, as Box's do, would name one id twice).
 * Copy on write: objects the rules leave alone are shared.
 */
export function forDirection(document: object, direction: Direction): object {
  const flag = direction === 'request' ? 'readOnly' : 'writeOnly';
  return new DirectionRewrite(document, flag).outside(document, 0) as object;
}

function isExampleOrExtension(key: string): boolean {
  return key === 'example' || key === 'examples' || key.startsWith('x-');
}

class DirectionRewrite {
  private readonly done = new Map<object, unknown>();

  constructor(
    private readonly document: object,
    private readonly flag: 'readOnly' | 'writeOnly',
  ) {}

  outside(node: unknown, depth: number): unknown {
    if (typeof node !== 'object' || node === null || depth > 400) return node;
    let copy: Record<string, unknown> | unknown[] | undefined;
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(node) && isExampleOrExtension(key)) {
        copy ??= { ...node };
        delete (copy as Record<string, unknown>)[key];
        continue;
      }
      const rewritten =
        key === 'schema' || (key === 'schemas' && depth === 1)
          ? this.schemaOrMap(key, value, depth)
          : this.outside(value, depth + 1);
      if (rewritten === value) continue;
      copy ??= Array.isArray(node) ? [...(node as unknown[])] : { ...node };
      (copy as Record<string, unknown>)[key] = rewritten;
    }
    return copy ?? node;
  }

  private schemaOrMap(key: string, value: unknown, depth: number): unknown {
    if (key === 'schema') return this.schema(value, depth + 1);
    if (!isSchemaNode(value)) return value;
    let copy: SchemaNode | undefined;
    for (const [name, schema] of Object.entries(value)) {
      const rewritten = this.schema(schema, depth + 1);
      if (rewritten === schema) continue;
      copy ??= { ...value };
      copy[name] = rewritten;
    }
    return copy ?? value;
  }

  private schema(node: unknown, depth: number): unknown {
    if (!isSchemaNode(node) || depth > 400) return node;
    const done = this.done.get(node);
    if (done !== undefined) return done;
    let changed = false;
    const copy = mapSubschemas(node, (part) => {
      const rewritten = this.schema(part, depth + 1);
      if (rewritten !== part) changed = true;
      return rewritten;
    });
    const required = this.required(node);
    if (required) {
      copy.required = required;
      changed = true;
    }
    for (const key of Object.keys(copy))
      if (isExampleOrExtension(key)) {
        delete copy[key];
        changed = true;
      }
    const result = changed ? copy : node;
    this.done.set(node, result);
    return result;
  }

  /** `required` without the flagged properties, or undefined when it has none of them. */
  private required(node: SchemaNode): string[] | undefined {
    const properties = node.properties;
    if (!Array.isArray(node.required) || !isSchemaNode(properties)) return undefined;
    const kept = (node.required as unknown[]).filter((name) => !this.flagged(properties[String(name)]));
    return kept.length === node.required.length ? undefined : (kept as string[]);
  }

  /** Whether a property schema (a reference followed, a few hops at most) carries the flag. */
  private flagged(property: unknown): boolean {
    let node = property;
    for (let hop = 0; hop < 8 && isSchemaNode(node); hop++) {
      if (node[this.flag] === true) return true;
      const ref = node.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) return false;
      node = valueAt(this.document, decodeURIComponent(ref));
    }
    return false;
  }
}
