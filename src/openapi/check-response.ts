import type { Spec } from './load-spec.js';
import type { Operation } from './operations.js';
import { findResponse, isJsonMediaType } from './operations.js';
import { describeErrors, type Violation } from './describe-errors.js';
import type { ValidateFunction } from 'ajv';

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
 * Judges a response against the document: a documented status must carry its documented media type and body
 * schema; any 4xx/5xx, documented or not, must be the interface's Error shape with `status` equal to the HTTP
 * status (interface §7). `operation` is undefined for a request that matched no operation.
 * Returns the violations; an empty array means the response keeps the contract.
 */
export function checkResponse(spec: Spec, operation: Operation | undefined, response: ObservedResponse): Violation[] {
  const violations: Violation[] = [];
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
  if (operation && !documented && response.status === 404 && !operation.path.includes('{')) {
    violations.push({
      path: 'status',
      rule: 'documented-status',
      message: `status 404 for ${operation.id}, whose path ${operation.path} always exists: the server does not serve the document's paths there (interface §7 has 404 for getPet only)`,
    });
  }
  // The media types the answer may carry: those the document lists for it, parameters allowed (RFC 9110 §8.3.1);
  // an error the document does not list is `application/json` (interface §7: "Error responses use the Error shape
  // … as application/json"). Another JSON type (`application/problem+json`) is another media type: a client
  // checking for `application/json` refuses it.
  const allowed = documented
    ? documented.mediaTypes.filter(isJsonMediaType)
    : response.status >= 400
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
  const validate = documented?.validate ?? (response.status >= 400 ? errorValidator(spec) : undefined);
  if (validate && !validate(response.body)) violations.push(...describeErrors(validate.errors, 'response'));
  if (response.status >= 400 && violations.length === 0) {
    const status = (response.body as { status?: unknown }).status;
    if (status !== response.status) {
      violations.push({
        path: 'response.status',
        rule: 'error-status',
        message: `response.status must equal the HTTP status ${response.status} (got ${JSON.stringify(status)})`,
      });
    }
  }
  return violations;
}

/** The interface's Error shape (§2), for a document that does not define `components.schemas.Error` itself. */
export const ERROR_SHAPE = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};
const builtInError = new WeakMap<Spec, ValidateFunction>();

/** The document's own `Error` schema, or the interface's shape compiled once per document. */
function errorValidator(spec: Spec): ValidateFunction {
  if (spec.document.components?.schemas?.Error) return spec.schema('Error');
  let validate = builtInError.get(spec);
  if (!validate) {
    validate = spec.compile(ERROR_SHAPE);
    builtInError.set(spec, validate);
  }
  return validate;
}

/** A media type without its parameters, in lower case (RFC 9110 §8.3.1: type and subtype are case-insensitive). */
function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}
