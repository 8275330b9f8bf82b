import type { Spec } from './load-spec.js';
import type { Operation } from './operations.js';
import { findResponse, isJsonMediaType } from './operations.js';
import { describeErrors, type Violation } from './describe-errors.js';
import { isInterfaceDocument } from './interface-words.js';

export interface ObservedResponse {
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | null;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  /** The raw body text. */
  text: string;
}

/**
 * Judges a response against the document: a documented status (exact code, range, then `default`: OpenAPI 3.0.3
 * §4.7.16) must carry its documented media type and body schema, and a response declared without content needs
 * none. A 2xx or 3xx the operation does not declare is not one of its answers. On the interface's own document
 * (isInterfaceDocument), any 4xx/5xx must also be the interface's Error with `status` equal to the HTTP status (§7);
 * on any other document an error it does not declare is not judged by a shape of ours, and an
 * `application/problem+json` body's `status` member, when present, must equal the HTTP status (RFC 9457 §3.1.3).
 * `operation` is undefined for a request that matched no operation.
 * Returns the violations; an empty array means the response keeps the contract.
 */
export function checkResponse(spec: Spec, operation: Operation | undefined, response: ObservedResponse): Violation[] {
  const violations: Violation[] = [];
  const ours = isInterfaceDocument(spec.document);
  const documented = operation ? findResponse(operation, response.status) : undefined;
  if (operation && !documented && response.status < 400) {
    violations.push({
      path: 'status',
      rule: 'documented-status',
      message: `status ${response.status} is not documented for ${operation.id}`,
    });
  }
  // §7 answers 404 when "the requested resource" is not found; a path without parameters names the collection
  // itself, which always exists: a 404 there means the server does not serve the document's path (a wrong base path).
  // Another document's undeclared statuses are open (OpenAPI 3.0.3 §4.7.16: the responses need not cover every code).
  if (ours && operation && !documented && response.status === 404 && !operation.path.includes('{')) {
    violations.push({
      path: 'status',
      rule: 'documented-status',
      message: `status 404 for ${operation.id}, whose path ${operation.path} always exists: the server does not serve the document's paths there (interface §7 has 404 for getPet only)`,
    });
  }
  const error = response.status >= 400;
  // The media types the answer may carry: those the document lists for it, parameters allowed (RFC 9110 §8.3.1);
  // on the interface's document an error it does not list is `application/json` (§7: "Error responses use the
  // Error shape … as application/json"). Another JSON type (`application/problem+json`) is another media type: a
  // client checking for `application/json` refuses it.
  const allowed = documented
    ? documented.mediaTypes.filter(isJsonMediaType)
    : error && ours
      ? ['application/json']
      : [];
  if (allowed.length > 0) {
    if (!response.contentType || !allowed.includes(essenceOf(response.contentType))) {
      violations.push({
        path: 'header.content-type',
        rule: 'content-type',
        message: `Content-Type must be ${allowed.join(' or ')} (got ${response.contentType ?? 'none'})`,
      });
      return violations;
    }
    if (response.body === undefined) {
      violations.push({ path: 'response', rule: 'json', message: 'the body is not valid JSON' });
      return violations;
    }
  }
  // The schema the document declares for the status; on the interface's document (which declares the Error, see
  // isInterfaceDocument) an error without one is an Error.
  const validate = documented?.validate ?? (error && ours ? spec.schema('Error') : undefined);
  if (validate && !validate(response.body)) violations.push(...describeErrors(validate.errors, 'response'));
  if (error && violations.length === 0) violations.push(...statusMemberOf(response, ours));
  return violations;
}

/**
 * The error body's `status` member against the HTTP status: on the interface's document always (§7: "The status
 * field of the Error body holds the same number as the HTTP status"), on another only for a problem details body
 * that has one (RFC 9457 §3.1.3: "Generators MUST use the same status code in the actual HTTP response").
 */
function statusMemberOf(response: ObservedResponse, ours: boolean): Violation[] {
  const body = response.body as { status?: unknown } | null | undefined;
  const problem = !ours && essenceOf(response.contentType ?? '') === 'application/problem+json';
  if (
    ours ? body?.status === response.status : !problem || body?.status === undefined || body.status === response.status
  )
    return [];
  return [
    {
      path: 'response.status',
      rule: 'error-status',
      message: `response.status must equal the HTTP status ${response.status} (got ${JSON.stringify(body?.status)})`,
    },
  ];
}

/**
 * The interface's Error shape (§2): compile-web precompiles it for a document without `components.schemas.Error`.
 * The judge no longer needs it: only a document that declares the interface's Error is judged by it.
 */
export const ERROR_SHAPE = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};

/** A media type without its parameters, in lower case (RFC 9110 §8.3.1: type and subtype are case-insensitive). */
function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}
