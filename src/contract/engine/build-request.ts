import type { Operation } from '../../openapi/operations.js';
import type { ProbeRequest } from '../transport/send-request.js';
import { taggedName, type Session } from '../base/session.js';
import { INT64_MAX } from '../../json/int64.js';

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
      pathParameters.map((p) => [
        p.name,
        p.type === 'integer' ? (writes(operation) ? ownPetId(session) : knownPetId(session)) : 'x',
      ]),
    );
  }
  if (operation.body) request.json = { name: taggedName(session, label), categoryId: 1 };
  return request;
}

/** An id that exists on the target, as far as the run knows, else 1; in digits (an int64 id may be a bigint). */
export function knownPetId(session: Session): string {
  return String(session.findings.sample?.[0]?.id ?? session.findings.created[0]?.pet.id ?? 1);
}

/**
 * An id for a request that writes (PUT, PATCH, DELETE, a POST under an item): a pet this run created, else one no
 * pet has (2^63−1). Never a seed's or another client's: a target whose auth is broken must not lose an item the run
 * did not make (the run's clean-up rule: it touches only what it created).
 */
export function ownPetId(session: Session): string {
  return String(session.findings.created[0]?.pet.id ?? INT64_MAX);
}

/** Methods that change state (RFC 9110 §9.2.1: not safe); read-only runs send none. */
export function writes(operation: Operation): boolean {
  return !['get', 'head', 'options'].includes(operation.method);
}
