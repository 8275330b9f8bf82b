import type { Document } from './read-document.js';

/** Where hide-data.ts keeps what it took out of sight: a symbol, which AJV's walk of a schema never sees. */
export const HIDDEN = Symbol('data of the document kept out of AJV’s sight');

/** Values that are data, never schemas: examples, defaults and specification extensions. */
const DATA_KEYS = (key: string) => key === 'example' || key === 'examples' || key === 'default' || key.startsWith('x-');
/**
 * Maps whose keys are names chosen by the author or codes, never keywords: a property may be called `example`, a
 * response is `default` (OAS 3.0.3 §4.7.16), a schema may be named `default`.
 */
const NAME_MAPS = new Set([
  ...['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'],
  ...['paths', 'webhooks', 'responses', 'schemas', 'parameters', 'headers', 'requestBodies', 'securitySchemes'],
  ...['links', 'callbacks', 'pathItems', 'content', 'encoding', 'mapping', 'scopes', 'variables'],
]);

/**
 * Moves examples, defaults and `x-` extensions of every object of the document under the HIDDEN symbol, in place.
 * AJV collects `$id`s from every key of a schema it is given (json-schema-traverse with allKeys), examples
 * included: Box's examples hold two different objects with the same `"$id"` value, and AJV refuses the whole
 * document. None of these values is read when validating (OAS 3.0.3 §4.7.24: `example` and `default` are
 * annotations; 3.1 `examples` likewise, JSON Schema 2020-12 Validation §9); the value generator reads them back.
 */
export function hideData(node: unknown, parentKey = '', seen = new Set<object>()): void {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) hideData(item, '', seen);
    return;
  }
  const object = node as Document;
  const nameMap = NAME_MAPS.has(parentKey);
  for (const key of Object.keys(object)) {
    if (!nameMap && DATA_KEYS(key)) {
      ((object[HIDDEN as unknown as string] ??= {}) as Document)[key] = object[key];
      delete object[key];
    } else hideData(object[key], key, seen);
  }
}

/** What hideData took from `schema`: its `example`, `examples` and `default`. */
export function hiddenData(schema: Document): Document {
  return (schema[HIDDEN as unknown as string] ?? {}) as Document;
}
