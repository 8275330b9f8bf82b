import type { Spec } from '../../openapi/spec.js';
import { MemoryCollectionStore, type MemoryStoreOptions } from './memory.js';
import { CollectionsStore, type ResourceStore, type StoreSeeds } from './resource-store.js';
import { collectionRules } from './collection-rules.js';
import { DEFAULT_MAX_ITEMS } from './collection-store.js';

/**
 * A store in this process: one MemoryCollectionStore a collection, made with the document's rule and its seed. No Node:
 * the server and the browser build share it.
 */
export function memoryStore(
  spec: Spec,
  seeds: StoreSeeds,
  options: Pick<MemoryStoreOptions, 'maxItems' | 'maxBytes'>,
): ResourceStore {
  return new CollectionsStore(
    'memory',
    options.maxItems ?? DEFAULT_MAX_ITEMS,
    (_name, rule, seed) => new MemoryCollectionStore(seed.items, { ...options, rule, parents: seed.parents }),
    { rules: collectionRules(spec.resources), seeds },
  );
}
