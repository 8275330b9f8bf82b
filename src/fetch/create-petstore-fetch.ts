import { handleOf, type InProcessMock, type InProcessOptions, type PetstoreHandle } from './in-process-mock.js';

export type PetstoreFetchOptions = InProcessOptions;

/** A `fetch` answered by the mock in this process (no socket, no port), with the mock's handle as its properties. */
export type PetstoreFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & PetstoreHandle;

/**
 * A `fetch`-compatible function answered by `mock`, with the mock's handle as its properties: `createPetstoreFetch`
 * of the Node entry (fetch/index.ts) and of the browser build (web/fetch.ts).
 */
export function fetchOver(mock: InProcessMock): PetstoreFetch {
  const petstoreFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const answer = await abortable(mock.respond(request), request.signal);
    if (answer === undefined)
      throw new TypeError(
        `fetch failed: ${new URL(request.url).origin}${new URL(request.url).pathname} is not the mock's: its baseUrl is ${mock.base.href}`,
      );
    if (answer === null)
      throw new TypeError('fetch failed: the connection was dropped (a simulated network fault, faultRate)');
    return answer;
  };
  return Object.assign(petstoreFetch, handleOf(mock));
}

/** Rejects with the signal's reason when it aborts first (a delayed answer, `Prefer: delay`, cut short). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
