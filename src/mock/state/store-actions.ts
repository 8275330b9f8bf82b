import type { Spec } from '../../openapi/load-spec.js';
import type { Runtime } from '../runtime.js';
import type { StoreSnapshot } from '../store/pet-store.js';
import type { Int64 } from '../../json/int64.js';
import { parseSnapshot } from './snapshot.js';

/** Back to the fixtures; the state file follows. Shared by `mock.reset()` and `POST /__admin/reset`. */
export async function resetStore(runtime: Runtime): Promise<void> {
  await runtime.store.reset();
  runtime.changed();
}

/**
 * Replaces the store's state with a snapshot checked against `spec`'s Pet schema (an InputFileError rooted at
 * `where` when it breaks it, nothing changed); the state file follows. Shared by `mock.restore()` and
 * `PUT /__admin/state`.
 */
export async function restoreStore(runtime: Runtime, spec: Spec, snapshot: unknown, where: string): Promise<void> {
  await runtime.store.restore(parseSnapshot(snapshot, spec, where));
  runtime.changed();
}

/** The counts, not a copy of the whole store. */
export async function storeSummary(runtime: Runtime): Promise<{ petCount: number; nextId: Int64 }> {
  const { pets, nextId } = await runtime.store.snapshot();
  return { petCount: pets.length, nextId };
}

export type { StoreSnapshot };
