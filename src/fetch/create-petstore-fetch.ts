import { handleOf, InProcessMock, type InProcessOptions, type PetstoreHandle } from './in-process-mock.js';

export type PetstoreFetchOptions = InProcessOptions;

/** A `fetch` answered by the mock in this process (no socket, no port), with the mock's handle as its properties. */
export type PetstoreFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & PetstoreHandle;

/**
 * A `fetch`-compatible function backed by the mock itself — the same store, checks, fixtures, `Prefer` and latency
 * as `petstore-kit mock`, in-process: for code that takes a fetch function (openapi-fetch, ky, a hand-written
 * client) and for test runners without MSW. A URL outside `baseUrl` rejects as fetch rejects an unreachable host;
 * a simulated dropped connection (`faultRate`) rejects as a network error.
 * @example
 * const fetch = createPetstoreFetch({ apiKeys: ['test-key'] });
 * const res = await fetch('http://127.0.0.1:4010/v1/pets?limit=2', { headers: { Authorization: 'Bearer test-key' } });
 * (await res.json()).length // 2
 * await fetch.reset();
 */
export function createPetstoreFetch(options: PetstoreFetchOptions = {}): PetstoreFetch {
  const mock = new InProcessMock(options);
  const petstoreFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const answer = await abortable(mock.respond(request), request.signal);
    if (answer === undefined) throw new TypeError(`fetch failed: ${new URL(request.url).origin}${new URL(request.url).pathname} is not the mock's: its baseUrl is ${mock.base.href}`);
    if (answer === null) throw new TypeError('fetch failed: the connection was dropped (a simulated network fault, faultRate)');
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
