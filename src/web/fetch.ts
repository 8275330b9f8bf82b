// petstore-kit/fetch in a browser: the Node entry's fetch function over the mock built from the document compiled
// at build time (see web/msw.ts).
import { InProcessMock } from '../fetch/in-process-mock.js';
import { fetchOver, type PetstoreFetch, type PetstoreFetchOptions } from '../fetch/create-petstore-fetch.js';
import { createBrowserMock } from './compiled-mock.js';

export type { PetstoreFetch, PetstoreFetchOptions } from '../fetch/create-petstore-fetch.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from '../fetch/in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
export type { CompiledDocument } from '../mock/compiled-document.js';

/** As `createPetstoreFetch` of the Node entry (fetch/index.ts); the package's document, or another one compiled by
 * `petstore-kit compile-web` and given as `compiled`. */
export function createPetstoreFetch(options: PetstoreFetchOptions = {}): PetstoreFetch {
  return fetchOver(new InProcessMock(options, createBrowserMock));
}
