// petstore-kit/msw in a browser (and any runtime with fetch's Request and Response): the Node entry's handlers over
// the mock built from the document compiled at build time. No `node:` import in what this file reaches; the build
// bundles it and fails past the size budget (scripts/build-web.mjs).
import { InProcessMock } from '../fetch/in-process-mock.js';
import { handlersOver, type PetstoreHandlers, type PetstoreHandlersOptions } from '../msw/petstore-handlers.js';
import { createBrowserMock } from './compiled-mock.js';

export type { PetstoreHandlers, PetstoreHandlersOptions } from '../msw/petstore-handlers.js';
export { DEFAULT_BASE_URL, type PetstoreHandle } from '../fetch/in-process-mock.js';
export type { Pet, NewPet, PetStatus } from '../types.js';
export type { ErrorBody } from '../errors.js';
export type { CompiledDocument } from '../mock/compiled-document.js';

/** As `petstoreHandlers` of the Node entry (msw/index.ts), for `setupWorker`; the package's document, or another one compiled by
 * `petstore-kit compile-web` and given as `compiled`. */
export function petstoreHandlers(options: PetstoreHandlersOptions = {}): PetstoreHandlers {
  return handlersOver(new InProcessMock(options, createBrowserMock));
}
