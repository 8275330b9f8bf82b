import { dialect, document, format, resources, seeds, validators } from './compiled-spec.js';
import { createCompiledMock, type CompiledDocument } from '../mock/compiled-document.js';
import type { Mock } from '../mock/mock-core.js';
import type { MockOptions } from '../mock/mock-options.js';

/**
 * The browser's `createMock`: the mock over a document compiled ahead (no YAML parser, no schema compiler, no model
 * builder in the page): the module `petstore-kit compile-web` wrote (`compiled`), else the package's openapi.yaml,
 * compiled when the package was built. What needs files or a server is refused by name: a document to parse,
 * fixtures or state from a file, a Redis store.
 */
// Named imports, not a namespace: a bundler then needs no namespace object (and no runtime helper to make one).
const packageDocument: CompiledDocument = { format, document, dialect, seeds, resources, validators };

export async function createBrowserMock(options: MockOptions, compiled?: CompiledDocument): Promise<Mock> {
  if (options.spec !== undefined)
    throw new TypeError(
      'spec: the browser build parses no OpenAPI document; compile yours with "petstore-kit compile-web" and pass the module as compiled',
    );
  return createCompiledMock(compiled ?? packageDocument, options, 'the browser build');
}
