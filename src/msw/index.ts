// petstore-kit/msw in Node: the mock as MSW request handlers (msw 2 is a peer dependency). The browser build of the
// same entry is web/msw.ts (package.json's "browser" condition).
import { nodeMock } from '../fetch/node-mock.js';
import { InProcessMock } from '../fetch/in-process-mock.js';
import { handlersOver, type PetstoreHandlers, type PetstoreHandlersOptions } from './petstore-handlers.js';

export type { PetstoreHandlers, PetstoreHandlersOptions } from './petstore-handlers.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from '../fetch/in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
export type { CompiledDocument } from '../mock/compiled-document.js';

/**
 * MSW (2.x) handlers answering the Petstore API under `baseUrl` (default `http://127.0.0.1:4010/v1`, where
 * `petstore-kit mock` listens, so an app already pointed at the server mock works unchanged) with the mock itself:
 * stateful pets from the fixtures, the bearer-key check, `limit`, `Prefer`, latency and the `Error` shapes. Use with
 * `setupServer` (Node: vitest, jest) or `setupWorker` (a browser). Requests outside `baseUrl` are let through.
 * @example
 * const handlers = petstoreHandlers({ apiKeys: ['test-key'] });
 * const server = setupServer(...handlers);
 * beforeEach(() => handlers.reset());
 */
export function petstoreHandlers(options: PetstoreHandlersOptions = {}): PetstoreHandlers {
  return handlersOver(new InProcessMock(options, nodeMock));
}
