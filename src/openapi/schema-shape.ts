import type { OpenAPIV3 } from 'openapi-types';
import { mainType } from './schema-keywords.js';

/** What an object schema declares, `allOf` parts merged: its properties and the names it requires. */
export interface ObjectShape {
  properties: Record<string, OpenAPIV3.SchemaObject>;
  required: string[];
  /** Whether the shape is known; `oneOf`/`anyOf` and non-object schemas leave it unknown. */
  known: boolean;
}

/**
 * The properties and required names of a dereferenced schema, `allOf` parts merged (JSON Schema 2020-12 §10.2.1.1:
 * an instance must be valid against every part, so every part's properties apply). `oneOf`/`anyOf` cannot be merged
 * into one list of fields, so their shape is unknown rather than guessed.
 */
export function objectShape(schema: unknown): ObjectShape {
  const shape: ObjectShape = { properties: {}, required: [], known: true };
  collectShape(schema, shape, 0);
  return shape;
}

function collectShape(schema: unknown, shape: ObjectShape, depth: number): void {
  if (typeof schema !== 'object' || schema === null || depth > 32) {
    shape.known = false;
    return;
  }
  const object = schema as OpenAPIV3.SchemaObject;
  if (object.oneOf || object.anyOf) shape.known = false;
  if (object.type !== undefined && mainType(object) !== 'object') shape.known = false;
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    shape.properties[name] ??= property as OpenAPIV3.SchemaObject;
  }
  for (const name of object.required ?? []) if (!shape.required.includes(name)) shape.required.push(name);
  for (const part of object.allOf ?? []) collectShape(part, shape, depth + 1);
}

/** The items schema of an array schema, or undefined when the schema is no array. */
export function arrayItems(schema: unknown): OpenAPIV3.SchemaObject | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const object = schema as OpenAPIV3.SchemaObject;
  if (mainType(object) !== 'array') return undefined;
  return (object as { items?: unknown }).items as OpenAPIV3.SchemaObject;
}
