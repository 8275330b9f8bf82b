import type { OpenAPIV3 } from 'openapi-types';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { listedItems } from '../../openapi/list-wrapper.js';

/**
 * The items a document's examples show for a collection without a fixtures file: the list answer's examples
 * (`example`, or every value of `examples`), each item once by id. Examples that are no array, or items without an
 * id, seed nothing. An example the item schema refuses stops the start like a bad fixture (check-fixtures.ts).
 */
export function examplesOf(collection: ResourceCollection, document: OpenAPIV3.Document): unknown[] {
  const list = collection.operations.list;
  if (!list?.success.mediaType) return [];
  const operation = document.paths?.[list.path]?.[list.method as OpenAPIV3.HttpMethods];
  const response = operation?.responses?.[list.success.declared] as OpenAPIV3.ResponseObject | undefined;
  return listExamples(response?.content?.[list.success.mediaType], collection.id.property, list.wrapper);
}

/** The list answer's examples, read from the operation's raw response (through the list's wrapper, when it has one). */
export function listExamples(
  response: OpenAPIV3.MediaTypeObject | undefined,
  idProperty: string,
  wrapper?: string,
): unknown[] {
  if (!response) return [];
  const values: unknown[] = [
    ...(response.example === undefined ? [] : [response.example as unknown]),
    ...Object.values(response.examples ?? {}).map((example) => (example as OpenAPIV3.ExampleObject).value as unknown),
  ];
  const seen = new Set<string>();
  const items: unknown[] = [];
  for (const value of values) {
    const listed = listedItems(value, wrapper);
    if (!listed) continue;
    for (const item of listed) {
      const id = (item as Record<string, unknown> | null)?.[idProperty];
      const key = JSON.stringify(typeof id === 'bigint' ? String(id) : id);
      if (id === undefined || id === null || seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  }
  return items;
}
