import { readDocument, type DocumentSource, type LoadedDocument } from '../openapi/read-document.js';

export { MAX_DOCUMENT_BYTES, URL_TIMEOUT_MS } from '../openapi/read-document.js';
export type { DocumentSource, LoadedDocument } from '../openapi/read-document.js';

/**
 * Reads, checks and bundles an OpenAPI 3 document through the one bounded reader every command uses. A document that
 * does not parse, breaks the OpenAPI schema or a bound, or holds a `$ref` that does not resolve throws a
 * DocumentError naming it: `compat` cannot judge it (exit 2). Recursive schemas are fine here: compat's walkers
 * stop at a reference they are already inside.
 * @example await loadDocument({ path: 'openapi.yaml' })
 */
export function loadDocument(source: DocumentSource): Promise<LoadedDocument> {
  return readDocument(source);
}
