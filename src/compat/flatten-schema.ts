import { follow, member, type Located } from './json-pointer.js';

/** A schema's keywords with `allOf` folded in, each keyword with the pointer of the schema that states it. */
export interface FlatSchema {
  /** Where the schema itself is written. */
  pointer: string;
  keywords: Map<string, Located>;
  properties: Map<string, Located>;
  required: Set<string>;
  items: Located | undefined;
}

/** The keywords compared for a value's own constraints (JSON Schema validation vocabulary as OpenAPI 3.0 uses it). */
const KEYWORDS = [
  'type',
  'format',
  'enum',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'pattern',
  'nullable',
  'default',
];

/**
 * A schema of a bundled document as one set of constraints: its `$ref` followed and its `allOf` members merged, as a
 * validator applies them all at once (`Pet` is `NewPet` and `{ id }`). The schema itself wins over its members for a
 * keyword both state.
 */
export function flattenSchema(document: unknown, node: Located): FlatSchema {
  const flat: FlatSchema = {
    pointer: node.pointer,
    keywords: new Map(),
    properties: new Map(),
    required: new Set(),
    items: undefined,
  };
  mergeInto(flat, document, node, 0);
  return flat;
}

function mergeInto(flat: FlatSchema, document: unknown, node: Located, depth: number): void {
  const schema = follow(document, node);
  // A chain of allOf this deep is a cycle in the document; what was merged so far is what can be compared.
  if (!schema || typeof schema.value !== 'object' || schema.value === null || depth > 16) return;
  if (depth === 0) flat.pointer = schema.pointer;
  for (const keyword of KEYWORDS) {
    const found = member(schema, keyword);
    if (found && !flat.keywords.has(keyword)) flat.keywords.set(keyword, found);
  }
  const properties = member(schema, 'properties');
  for (const name of Object.keys((properties?.value as object | undefined) ?? {})) {
    if (!flat.properties.has(name)) flat.properties.set(name, member(properties, name)!);
  }
  const required = (schema.value as { required?: unknown }).required;
  if (Array.isArray(required)) for (const name of required) flat.required.add(String(name));
  flat.items ??= member(schema, 'items');
  const allOf = member(schema, 'allOf');
  if (Array.isArray(allOf?.value)) {
    allOf.value.forEach((_, index) => mergeInto(flat, document, member(allOf, index)!, depth + 1));
  }
}
