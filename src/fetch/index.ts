// petstore-kit/fetch in Node: the mock as a fetch function, in-process. The browser build of the same entry is
// web/fetch.ts (package.json's "browser" condition).
import { nodeMock } from './node-mock.js';
import { InProcessMock } from './in-process-mock.js';
import { fetchOver, type PetstoreFetch, type PetstoreFetchOptions } from './create-petstore-fetch.js';

export type { PetstoreFetch, PetstoreFetchOptions } from './create-petstore-fetch.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from './in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
export type { CompiledDocument } from '../mock/compiled-document.js';

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
  return fetchOver(new InProcessMock(options, nodeMock));
}
