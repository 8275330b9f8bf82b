import { openRuntime } from './open-runtime.js';
import type { MockOptions } from './mock-options.js';
import { buildDocumentModel } from './document/document-model.js';
import { loadDocumentInputs, serverModelParts } from './document/document-inputs.js';
import { reloadDocument } from './document/reload-document.js';
import { mockOver, type Mock } from './mock-core.js';

export { DEV_API_KEY, DEFAULT_BODY_LIMIT } from './runtime.js';

export type { MockOptions } from './mock-options.js';
export type { Mock } from './mock-core.js';

/**
 * Builds a mock from an OpenAPI document and fixtures: the runtime once, then the document model, and the front
 * door over both. Use `createMockApp` or `createMockServer` to put it on HTTP.
 * @example const mock = await createMock({ apiKeys: ['secret'] }); await mock.store.count() // 57
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const inputs = await loadDocumentInputs(options);
  const runtime = await openRuntime(options, inputs.spec, inputs.seeds);
  // A store on Redis holds a connection open: release it when the mock cannot be built after all.
  const model = await buildDocumentModel(inputs, runtime, serverModelParts(options)).catch(async (error: unknown) => {
    await runtime.store.close();
    throw error;
  });
  return mockOver(runtime, model, (current) => reloadDocument(runtime, current, options));
}
