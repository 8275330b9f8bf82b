import type { PetStore } from './store.js';
import { assembleMock, loadMockInputs, partsOf, type Mock, type MockOptions } from './create-mock.js';
import { parseSnapshot } from './snapshot.js';

/**
 * Builds the successor of a running mock from the document and fixtures as they are now on disk. It throws, and
 * the caller keeps the running mock, when either is invalid. What happens to the pets:
 * - fixtures changed: the store starts again from the new fixtures (that is what editing them asks for);
 * - only the document changed: the very same store is kept (so creates still in flight on the old mock land in it),
 *   unless a pet no longer matches the new Pet schema, in which case the store starts again from the fixtures.
 * The journal, the observers (request logs) and the state file carry over.
 */
export async function reloadMock(previous: Mock, options: MockOptions): Promise<{ mock: Mock; message: string }> {
  const { spec, seed } = await loadMockInputs(options);
  const old = partsOf(previous);
  let store: PetStore | undefined;
  let message: string;
  if (JSON.stringify(seed) !== JSON.stringify(old.seed)) {
    message = `the fixtures changed, so the store starts again from the ${seed.length} new fixtures`;
  } else {
    try {
      parseSnapshot(old.store.snapshot(), spec, 'the current state');
      store = old.store;
      message = `kept the ${old.store.size} pets in the store`;
    } catch (error) {
      message = `${(error as Error).message}, so the store starts again from the fixtures`;
    }
  }
  const mock = await assembleMock(options, spec, seed, { observers: old.observers, journal: old.journal, stateFile: old.stateFile, store });
  return { mock, message };
}
