import type { Spec } from '../../openapi/spec.js';
import { MemoryPetStore, type MemoryStoreOptions } from './memory.js';
import { CollectionsStore, type ResourceStore, type StoreSeeds } from './resource-store.js';
import { collectionRules } from './collection-rules.js';
import { DEFAULT_MAX_PETS } from './pet-store.js';

/**
 * A store in this process: one MemoryPetStore a collection, made with the document's rule and its seed. No Node:
 * the server and the browser build share it.
 */
export function memoryStore(
  spec: Spec,
  seeds: StoreSeeds,
  options: Pick<MemoryStoreOptions, 'maxPets' | 'maxBytes'>,
): ResourceStore {
  return new CollectionsStore(
    'memory',
    options.maxPets ?? DEFAULT_MAX_PETS,
    (_name, rule, seed) => new MemoryPetStore(seed.items, { ...options, rule, parents: seed.parents }),
    { rules: collectionRules(spec.resources), seeds },
  );
}
