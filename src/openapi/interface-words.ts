import type { OpenAPIV3 } from 'openapi-types';
import { isSchemaNode, mainType } from './schema-keywords.js';

/** The members of the interface's Error (§2), each required: what makes a document speak the interface's words. */
const INTERFACE_ERROR_MEMBERS = ['code', 'message', 'status'];

const known = new WeakMap<object, boolean>();

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
  const cached = known.get(document);
  if (cached !== undefined) return cached;
  const error: unknown = document.components?.schemas?.Error;
  const required: unknown[] = isSchemaNode(error) && Array.isArray(error.required) ? error.required : [];
  const properties = isSchemaNode(error) && isSchemaNode(error.properties) ? error.properties : {};
  const ours =
    INTERFACE_ERROR_MEMBERS.every((member) => required.includes(member)) && mainType(properties.status) === 'integer';
  known.set(document, ours);
  return ours;
}
