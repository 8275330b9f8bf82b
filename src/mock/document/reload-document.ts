import type { Runtime } from '../runtime.js';
import type { MockOptions } from '../mock-options.js';
import { buildDocumentModel, type DocumentModel } from './document-model.js';
import { loadDocumentInputs, sameSeed, serverModelParts } from './document-inputs.js';
import { parseSnapshot } from '../state/snapshot.js';

/**
 * Builds the successor of a document model from the document and fixtures as they are now on disk. It throws, and
 * the caller keeps the model it serves, when either is invalid. The runtime stays; what happens to its pets:
 * - fixtures changed: the store is reseeded from the new fixtures (that is what editing them asks for);
 * - only the document changed: the store is kept as it is, unless a pet no longer matches the new Pet schema, in
 *   which case it is reseeded from the fixtures.
 * The store is changed only once the new model is built, right before the caller swaps it in.
 */
export async function reloadDocument(
  runtime: Runtime,
  current: DocumentModel,
  options: MockOptions,
): Promise<{ model: DocumentModel; message: string }> {
  const inputs = await loadDocumentInputs(options);
  let reseed: boolean;
  let message: string;
  if (!sameSeed(inputs.seed, current.seed)) {
    reseed = true;
    message = `the fixtures changed, so the store starts again from the ${inputs.seed.length} new fixtures`;
  } else {
    const state = await runtime.store.snapshot();
    try {
      parseSnapshot(state, inputs.spec, 'the current state');
      reseed = false;
      message = `kept the ${state.pets.length} pets in the store`;
    } catch (error) {
      reseed = true;
      message = `${(error as Error).message}, so the store starts again from the fixtures`;
    }
  }
  const model = await buildDocumentModel(inputs, runtime, serverModelParts(options));
  if (reseed) {
    await runtime.store.reseed(inputs.seed);
    runtime.changed();
  }
  return { model, message };
}
