import type { StoredNewPet as NewPet, StoredPet as Pet } from '../../types.js';

export type { NewPet, Pet };

export interface ListQuery {
  limit: number;
  status?: string | undefined;
}

/** The whole state: every pet in id order and the id the next created pet gets. */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: number;
}

/**
 * One store behind every handler; handlers never know which implementation they have. All async, so that a store
 * on another process (Redis) fits the same interface. Failures are ApiErrors (`store_full`, …).
 */
export interface PetStore {
  /** 'memory' or 'redis': for the banner and the admin summary only. */
  readonly kind: string;
  /** The most pets the store holds, seed included; create beyond it → ApiError 'store_full' (409). */
  readonly maxPets: number;
  /** First `limit` pets in ascending id order (only those with `status` when given). O(limit). */
  list(query: ListQuery): Promise<readonly Pet[]>;
  /** O(1). undefined when no pet has that id. */
  get(id: number): Promise<Pet | undefined>;
  /** Next id from an atomic counter; the pet is durably in the store before the promise resolves. */
  create(pet: NewPet): Promise<Pet>;
  count(): Promise<number>;
  /** Back to the seed pets, ids continue after the seed's highest. Atomic. */
  reset(): Promise<void>;
  /**
   * Makes `seed` the pets `reset` goes back to, and resets to them (a hot reload after the fixtures changed).
   * Added by the redesign beside the agreed members: the store lives as long as the runtime, the seed does not.
   */
  reseed(seed: readonly Pet[]): Promise<void>;
  snapshot(): Promise<StoreSnapshot>;
  /** Replace the whole state atomically; nextId never below highest id + 1; too many pets → store_full, nothing changed. */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** Release connections/timers. */
  close(): Promise<void>;
}

/**
 * The default bound on stored pets: room for a large load test (the benchmark's 100,000-pet store and what a long
 * run creates), while a runaway client stops at a known memory cost (about 0.35 KB a pet with a short name, some
 * 90 MB when full; long names cost more) instead of exhausting the machine.
 */
export const DEFAULT_MAX_PETS = 250_000;
