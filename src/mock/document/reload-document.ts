import type { Runtime } from '../runtime.js';
import type { MockOptions } from '../mock-options.js';
import { buildDocumentModel, type DocumentModel } from './document-model.js';
import { loadDocumentInputs, sameSeed, serverModelParts } from './document-inputs.js';
import { parseSnapshot, stateJson } from '../state/snapshot.js';
import { nounOf } from '../store/collection-rules.js';

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
  if (!sameSeed(inputs.seeds, current.seeds)) {
    reseed = true;
    const count = [...inputs.seeds.values()].reduce((sum, seed) => sum + seed.items.length, 0);
    message = `the fixtures changed, so the store starts again from the ${count} new fixtures`;
  } else {
    const state = await runtime.store.snapshot();
    try {
      parseSnapshot(stateJson(state), inputs.spec, 'the current state');
      reseed = false;
      const count = Object.values(state).reduce((sum, part) => sum + part.items.length, 0);
      message = `kept the ${count} ${Object.keys(state).length === 1 ? `${nounOf(Object.keys(state)[0]!)}s` : 'items'} in the store`;
    } catch (error) {
      reseed = true;
      message = `${(error as Error).message}, so the store starts again from the fixtures`;
    }
  }
  const model = await buildDocumentModel(inputs, runtime, serverModelParts(options));
  if (reseed) {
    await runtime.store.reseed(inputs.seeds);
    runtime.changed();
  }
  return { model, message };
}
