import type { OpenAPIV3 } from 'openapi-types';

/**
 * Whether a document is the Petstore interface's own (openapi.yaml, or a later version of it such as the v1.1 test
 * document): it declares the interface's `Error` (§2: `code`, `message` and `status`, all required, `status` an
 * integer). Such a document's answers are judged in the interface's words as well as its own (§7: "Error responses
 * use the Error shape (code, message, status) as application/json", and `status` equals the HTTP status). Any other
 * document is judged by what it declares and by the RFCs alone: an error it declares without content needs none,
 * one it does not declare is not judged by a shape of ours.
 * @example isInterfaceDocument((await loadSpec()).document) // true
 */
export function isInterfaceDocument(document: OpenAPIV3.Document): boolean {
  // Read here without schema-keywords.ts, and not cached: this runs in the browser build of the mock (its journal
  // judges its own answers), whose weight is budgeted. `type` is a string, or a 3.1 type array.
  const error = document.components?.schemas?.Error as
    { required?: unknown; properties?: { status?: { type?: unknown } } } | undefined;
  const required = error?.required;
  return (
    Array.isArray(required) &&
    ['code', 'message', 'status'].every((member) => required.includes(member)) &&
    [error?.properties?.status?.type].flat().includes('integer')
  );
}
