import type { Operation } from '../../openapi/operations.js';
import type { ProbeRequest } from '../transport/send-request.js';
import { taggedName, type Session } from '../base/session.js';

/**
 * A valid request for any operation of the document: path parameters from a pet the run has seen (integer ids)
 * and, for an operation with a JSON body, a run-tagged NewPet. Used where a case needs "a request to this
 * operation" rather than a particular one (auth, deprecation).
 */
export function validRequest(session: Session, operation: Operation, label: string): ProbeRequest {
  const request: ProbeRequest = { operation: operation.id };
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  if (pathParameters.length > 0) {
    request.path = Object.fromEntries(
      pathParameters.map((p) => [p.name, p.type === 'integer' ? knownPetId(session) : 'x']),
    );
  }
  if (operation.body) request.json = { name: taggedName(session, label), categoryId: 1 };
  return request;
}

/** An id that exists on the target, as far as the run knows, else 1; in digits (an int64 id may be a bigint). */
export function knownPetId(session: Session): string {
  return String(session.findings.sample?.[0]?.id ?? session.findings.created[0]?.pet.id ?? 1);
}

/** Methods that change state (RFC 9110 §9.2.1: not safe); read-only runs send none. */
export function writes(operation: Operation): boolean {
  return !['get', 'head', 'options'].includes(operation.method);
}
