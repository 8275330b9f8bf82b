import { createMock } from '../mock/create-mock.js';
import { createCompiledMock, type CompiledDocument } from '../mock/compiled-document.js';
import type { Mock } from '../mock/mock-core.js';
import type { MockOptions } from '../mock/mock-options.js';

/**
 * The Node entries' mock: over a module compiled by `petstore-kit compile-web` when given (the same code as a page
 * runs, so a test in Node and the app in a browser see the same mock), else `createMock` (a document file or value).
 */
export function nodeMock(options: MockOptions, compiled: CompiledDocument | undefined): Promise<Mock> {
  if (!compiled) return createMock(options);
  if (options.spec !== undefined)
    return Promise.reject(new TypeError('spec: the compiled module is the document; pass spec or compiled, not both'));
  return createCompiledMock(compiled, options);
}
