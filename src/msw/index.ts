// petstore-kit/msw: the mock as MSW request handlers (msw 2 is a peer dependency).
export { petstoreHandlers, type PetstoreHandlers, type PetstoreHandlersOptions } from './petstore-handlers.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from '../fetch/in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
