import { http, passthrough, type HttpHandler } from 'msw';
import { handleOf, type InProcessMock, type InProcessOptions, type PetstoreHandle } from '../fetch/in-process-mock.js';

export type PetstoreHandlersOptions = InProcessOptions;

/** MSW request handlers for the Petstore API, with the mock's handle as properties of the array. */
export type PetstoreHandlers = HttpHandler[] & PetstoreHandle;

/** MSW handlers answered by `mock`, with its handle as properties: for the Node entry and the browser build. */
export function handlersOver(mock: InProcessMock): PetstoreHandlers {
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
