import type { Spec } from '../../openapi/load-spec.js';
import type { Runtime } from '../runtime.js';
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

/**
 * The counts, not a copy of the whole store: for a one-collection document (v1) its count and next id as ever,
 * `{petCount, nextId}`; for several, every collection's under `collections` and the total as `itemCount`.
 */
export async function storeSummary(runtime: Runtime): Promise<Record<string, unknown>> {
  const state = await runtime.store.snapshot();
  const parts = Object.entries(state);
  if (parts.length === 1) return { petCount: parts[0]![1].items.length, nextId: parts[0]![1].nextId };
  const collections: Record<string, { count: number; nextId: Int64 }> = {};
  let itemCount = 0;
  for (const [name, part] of parts) {
    collections[name] = { count: part.items.length, nextId: part.nextId };
    itemCount += part.items.length;
  }
  return { itemCount, collections };
}
