import type { StoredNewPet as NewPet, StoredPet as Pet } from '../../types.js';
import { INT64_MAX, type Int64 } from '../../json/int64.js';
import { apiError } from '../../errors.js';

export type { NewPet, Pet };

export interface ListQuery {
  limit: number;
  status?: string | undefined;
}

/**
 * The whole state: every pet in id order and the id the next created pet gets. Ids and `nextId` are int64s in
 * their in-memory form (src/json/int64.ts): a number while safe, a bigint beyond ±(2^53−1).
 */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: Int64;
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
  /** O(1). undefined when no pet has that id (an int64 in its in-memory form: a bigint beyond the safe range). */
  get(id: Int64): Promise<Pet | undefined>;
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

/**
 * The largest `nextId` a store holds: 2^63 − 1, the largest int64 (interface §2: `id` is int64). A create takes the
 * id `nextId` and leaves `nextId` one above it, so the last id a create hands out is 2^63 − 2 (MAX_PET_ID, also the
 * largest id a fixture or snapshot may hold); at 2^63 − 1 a create gets 409 `store_full` and stores nothing.
 */
export const MAX_NEXT_ID = INT64_MAX;
export const MAX_PET_ID = INT64_MAX - 1n;

/** The 409 for a create when `nextId` is MAX_NEXT_ID; every store answers it with this one message. */
export function idsUsedUp() {
  return apiError(
    'store_full',
    `the store has used every id: nextId is ${MAX_NEXT_ID} (2^63 − 1, the largest int64), and a pet created now would leave no next id; reset the mock, or restore a state with a lower nextId`,
  );
}
