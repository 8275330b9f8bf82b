import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { MockRequest } from '../mock-request.js';
import type { FinishedReply } from '../base/reply.js';
import type { ContractViolation } from '../../openapi/judge-observed.js';

/** One request the mock answered, as its observers (request log, journal, state file) hear of it. */
export interface ServedRequest {
  request: MockRequest;
  /** The document the request was served under (a reload may have swapped it since). */
  spec: Spec;
  /** The operation the request matched, if any. */
  operation: Operation | undefined;
  /** The reply as sent: frozen, never changed after observers see it. */
  reply: FinishedReply;
  /** The request body as parsed and validated, when the request got that far. */
  requestBody?: unknown;
  /** Bytes of request body actually read (0 or undefined when none was read). */
  requestBytes?: number;
  /** From the front door to the finished reply, in milliseconds. */
  durationMs: number;
  /** Contract violations the proxy found (request and upstream answer); undefined for a plain mock. */
  violations?: readonly ContractViolation[];
  /** Behind the proxy: who answered, the upstream or the embedded mock. */
  source?: 'upstream' | 'mock';
}

export type Observer = (served: ServedRequest) => void;

/**
 * Tells every observer. An observer's failure must not turn an answer the store already acted on into a 500 (a
 * client would retry a create that succeeded), nor keep the observers after it from hearing of the request.
 */
export function notifyObservers(
  observers: ReadonlySet<Observer>,
  served: ServedRequest,
  onError: (error: unknown) => void,
): void {
  for (const observer of observers) {
    try {
      observer(served);
    } catch (error) {
      onError(error);
    }
  }
}
