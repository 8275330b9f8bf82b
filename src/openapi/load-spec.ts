import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from './ajv.js';
import { DocumentError } from '../input-errors.js';
import { specOf, type Spec } from './spec.js';
import { buildResourceModel } from './resource-model.js';
import { defaultSpecFile } from '../paths.js';
import { readDocument, type DocumentSource } from './read-document.js';

export { basePathOf, type Spec } from './spec.js';

/**
 * Loads, validates and dereferences an OpenAPI 3 document (a file, an http(s) URL or a value) through the one
 * bounded reader (read-document.ts), then compiles every validator it needs.
 * @example const spec = await loadSpec(); spec.operationById.get('listPets')
 */
export async function loadSpec(source: string | OpenAPIV3.Document = defaultSpecFile): Promise<Spec> {
  const loaded = await readDocument(sourceOf(source));
  // The validators are compiled from the dereferenced document, where a recursive schema is a cycle of objects
  // that AJV would follow for ever: said here in one line, rather than as a stack overflow.
  if (loaded.circular.length > 0)
    throw new DocumentError(
      `${loaded.label}: recursive schemas are not supported by the mock, the proxy and the runner: ${loaded.circular.slice(0, 3).join(', ')} ${loaded.circular.length === 1 ? 'refers' : 'refer'} back to ${loaded.circular.length === 1 ? 'itself' : 'themselves'}`,
    );
  const ajv = createAjv();
  return specOf(
    loaded.dereferenced,
    loaded.bundled,
    loaded.file ?? (typeof source === 'string' ? source : undefined),
    (schema) => ajv.compile(schema),
    buildResourceModel,
  );
}

/** A string is a file, or a URL when it starts with http:// or https://. */
export function sourceOf(source: string | OpenAPIV3.Document): DocumentSource {
  if (typeof source !== 'string') return { label: 'the OpenAPI document', value: source };
  return /^https?:\/\//i.test(source) ? { url: source } : { path: source };
}
