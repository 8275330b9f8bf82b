import type { Operation } from '../openapi/operations.js';
import type { Parameters } from './parse-parameters.js';
import type { PetStore } from './store.js';

/** What a handler answers: a status, headers and a JSON-able body. Never an Express `res`. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Destroy the connection instead of answering (a simulated network fault); `status` is then 0. */
  drop?: true;
}

/** Everything a handler may look at, checked already: the route, auth, parameters and body all passed. */
export interface Context {
  operation: Operation;
  params: Parameters;
  body: unknown;
  store: PetStore;
  /** The path of another operation's resource, e.g. `urlFor('getPet', { petId: 7 })` → `/v1/pets/7`. */
  urlFor(operationId: string, pathParams: Record<string, string | number>): string;
  /** The request headers, lower-cased. */
  headers: Record<string, string | string[] | undefined>;
}

export type Handler = (context: Context) => Reply | Promise<Reply>;
