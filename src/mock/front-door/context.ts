import type { Operation } from '../../openapi/operations.js';
import type { Parameters } from '../stages/parse-parameters.js';
import type { ResourceStore } from '../store/resource-store.js';
import type { Negotiation } from '../stages/negotiate-prefer.js';
import type { Reply } from '../base/reply.js';

/** Everything a handler may look at, checked already: the route, auth, parameters and body all passed. */
export interface Context {
  operation: Operation;
  params: Parameters;
  body: unknown;
  store: ResourceStore;
  /** The path of another operation's resource, e.g. `urlFor('getPet', { petId: 7 })` → `/v1/pets/7`. */
  urlFor: (operationId: string, pathParams: Record<string, string | number>) => string;
  /** The request headers, lower-cased. */
  headers: Record<string, string | string[] | undefined>;
  /** What the `Prefer` negotiator asks prism-http for (operations without a handler only). */
  prism?: Negotiation['prism'];
}

/** A handler answers with a reply value; it never touches HTTP. */
export type Handler = (context: Context) => Reply | Promise<Reply>;
