/**
 * The one place where OpenAPI 3.0 and 3.1 differ in how their Schema Objects are read. A bundled document is
 * rewritten once, as a copy, into JSON Schema 2020-12 (OpenAPI 3.1's dialect, §4.8.24), so that one AJV (its 2020
 * build) validates both and every walker after this reads one set of keywords:
 *
 * - 3.0 `nullable: true` (OAS 3.0.3 §4.7.24.1): with a `type`, `null` joins the type array, and `enum`/`const` keep
 *   their meaning ("other Schema Object constraints retain their defined behavior": an enum without null still
 *   refuses it). Without a `type` the keyword has no effect by the letter; generated documents write it beside
 *   `oneOf`/`anyOf`/`allOf` to mean "or null", and the OpenAPI tooling reads it so: a `{type: 'null'}` alternative is
 *   added there (docs/mock.md, the keyword table).
 * - 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` (JSON Schema draft 4) become 2020-12's numeric ones.
 * - 3.0 Reference Objects "cannot be extended with additional properties and any properties added SHALL be ignored"
 *   (§4.7.23): siblings of `$ref` are dropped. In 3.1 a Schema Object's `$ref` is an applicator beside its siblings
 *   (2020-12 Core §8.2.3.1); it is kept as `allOf: [{$ref}]` beside them, which means the same, so that the reference
 *   can later be replaced by the schema it names without losing either side.
 * - 3.0's annotations (`example`, `xml`, `externalDocs`, `discriminator`) stay as written; `nullable` in a 3.1
 *   document is no keyword there and is dropped, so that nothing reads it as one.
 */

import { isSchemaNode, mapSubschemas, type SchemaNode } from './schema-keywords.js';

/** What the rest of the kit needs to know of the document's OpenAPI version. */
export interface Dialect {
  /** `3.0` or `3.1`, from the `openapi` field. */
  version: '3.0' | '3.1';
  /** The JSON Schema dialect the schemas declare (`jsonSchemaDialect`, 3.1 §4.8.1), when it is not 2020-12's. */
  otherDialect: string | undefined;
}

/** JSON Schema 2020-12 and the OpenAPI 3.1 base dialect (which extends it): what the kit reads schemas as. */
const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'https://spec.openapis.org/oas/3.1/dialect/2024-10-25',
]);

/** The dialect of a document, read from its `openapi` and `jsonSchemaDialect` fields. */
export function dialectOf(document: { openapi?: unknown; jsonSchemaDialect?: unknown }): Dialect {
  const version = String(document.openapi).startsWith('3.1') ? '3.1' : '3.0';
  const declared = document.jsonSchemaDialect;
  const otherDialect =
    typeof declared === 'string' && !KNOWN_DIALECTS.has(declared.replace(/#$/, '')) ? declared : undefined;
  return { version, otherDialect };
}

/** Keys of non-schema objects whose values are data (examples) or extensions, never walked for schemas. */
function isDataKey(key: string): boolean {
  return key === 'example' || key === 'examples' || key.startsWith('x-');
}

/**
 * A copy of a bundled document with every Schema Object in JSON Schema 2020-12 form (the rules above). Objects the
 * rules do not touch are copied too, so the result shares nothing with its input; values that are data (examples,
 * defaults, enums) are shared, since nothing writes them.
 * @example normalizeDocument(bundled, dialectOf(bundled)).components.schemas.Pet
 */
export function normalizeDocument<T extends object>(document: T, dialect: Dialect): T {
  return new Normalizer(dialect).document(document) as T;
}

class Normalizer {
  constructor(private readonly dialect: Dialect) {}

  /** A node outside any schema: Paths, Operations, Parameters, Media Types, Components. */
  document(root: unknown): unknown {
    return this.copyOutside(root, 0);
  }

  private copyOutside(node: unknown, depth: number): unknown {
    if (typeof node !== 'object' || node === null || depth > 400) return node;
    if (Array.isArray(node)) return node.map((item) => this.copyOutside(item, depth + 1));
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string' && this.dialect.version === '3.0') return { $ref: object.$ref };
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (isDataKey(key)) copy[key] = value;
      else if (key === 'schema') copy[key] = this.schema(value, depth + 1);
      else if (key === 'schemas' && depth === 1) copy[key] = this.schemaMap(value, depth + 1);
      else copy[key] = this.copyOutside(value, depth + 1);
    }
    return copy;
  }

  private schemaMap(value: unknown, depth: number): unknown {
    if (!isSchemaNode(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, this.schema(schema, depth + 1)]));
  }

  /** A Schema Object and everything under it, rewritten by the rules of the module's comment. */
  schema(node: unknown, depth: number): unknown {
    if (!isSchemaNode(node) || depth > 400) return node;
    if (typeof node.$ref === 'string') return this.reference(node, depth);
    const copy = mapSubschemas(node, (subschema) => this.schema(subschema, depth + 1));
    return this.dialect.version === '3.0' ? fromOpenApi30(copy) : withoutNullable(copy);
  }

  private reference(node: SchemaNode, depth: number): SchemaNode {
    if (this.dialect.version === '3.0') return { $ref: node.$ref };
    const siblings = Object.keys(node).filter(
      (key) => key !== '$ref' && !DOCUMENTATION.has(key) && !key.startsWith('x-'),
    );
    if (siblings.length === 0) return { $ref: node.$ref };
    // 2020-12: `$ref` applies beside its siblings; as an allOf part it can be resolved without losing them.
    const { $ref, ...rest } = node;
    const copy = this.schema(rest, depth) as SchemaNode;
    return { ...copy, allOf: [{ $ref }, ...((copy.allOf as unknown[] | undefined) ?? [])] };
  }
}

/**
 * Siblings of a 3.1 `$ref` that only document it (2020-12 Validation §9.1, §9.5; OAS 3.1 §4.8.24): dropped with the
 * reference rather than kept beside it, so that `{$ref, description}` stays a plain reference.
 */
const DOCUMENTATION = new Set(['description', 'summary', 'title', '$comment', 'examples', 'example', 'deprecated']);

/** A 3.0 Schema Object's draft-4 keywords in their 2020-12 form (its subschemas already rewritten). */
function fromOpenApi30(schema: SchemaNode): SchemaNode {
  exclusiveBound(schema, 'minimum', 'exclusiveMinimum');
  exclusiveBound(schema, 'maximum', 'exclusiveMaximum');
  if (!('nullable' in schema)) return schema;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return schema;
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.oneOf)) schema.oneOf = [...(schema.oneOf as unknown[]), { type: 'null' }];
  else if (Array.isArray(schema.anyOf)) schema.anyOf = [...(schema.anyOf as unknown[]), { type: 'null' }];
  else if (Array.isArray(schema.allOf)) {
    // `nullable: true` beside `allOf: [{$ref}]`: null, or everything the schema says without it.
    const { allOf, ...rest } = schema;
    return { ...rest, anyOf: [{ type: 'null' }, { allOf }] };
  }
  return schema;
}

/** Draft 4's `exclusiveMinimum: true` beside `minimum: n` is 2020-12's `exclusiveMinimum: n`; `false` says nothing. */
function exclusiveBound(schema: SchemaNode, inclusive: string, exclusive: string): void {
  if (typeof schema[exclusive] !== 'boolean') return;
  if (schema[exclusive] === true && typeof schema[inclusive] === 'number') {
    schema[exclusive] = schema[inclusive];
    delete schema[inclusive];
  } else delete schema[exclusive];
}

function withoutNullable(schema: SchemaNode): SchemaNode {
  if ('nullable' in schema) delete schema.nullable;
  return schema;
}
