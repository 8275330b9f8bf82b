// petstore-kit/fetch: the mock as a fetch function, in-process.
export { createPetstoreFetch, type PetstoreFetch, type PetstoreFetchOptions } from './create-petstore-fetch.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from './in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
