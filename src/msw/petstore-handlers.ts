import { http, passthrough, type HttpHandler } from 'msw';
import { handleOf, InProcessMock, type InProcessOptions, type PetstoreHandle } from '../fetch/in-process-mock.js';

export type PetstoreHandlersOptions = InProcessOptions;

/** MSW request handlers for the Petstore API, with the mock's handle as properties of the array. */
export type PetstoreHandlers = HttpHandler[] & PetstoreHandle;

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
  const mock = new InProcessMock(options);
  // One handler for every method and path under the base origin; the mock's own route table does the routing.
  const handler = http.all(`${mock.base.origin}/*`, async ({ request }) => {
    const answer = await mock.respond(request);
    if (answer === undefined) return passthrough();
    // A simulated dropped connection: fetch rejects with a network error, as over a real socket.
    if (answer === null) return Response.error();
    return answer;
  });
  return Object.assign([handler], handleOf(mock));
}
