import { apiError } from '../../errors.js';
import { attachedJsonText, freezeWithJsonText } from '../json-text.js';
import { DEFAULT_MAX_PETS, type ListQuery, type NewPet, type Pet, type PetStore, type StoreSnapshot } from './pet-store.js';
import { toStoredPet } from './stored-pet.js';

export interface MemoryStoreOptions {
  /** The most pets the store holds, seed included; a create beyond it is refused. Default DEFAULT_MAX_PETS. */
  maxPets?: number;
}

/** A list page as handed out: frozen with its JSON text (see json-text.ts), so that it is reused as it is. */
interface Page {
  pets: readonly Pet[];
  /** How many pets its source held when the page was cut. */
  sourceLength: number;
}

// List pages are cached per (status, limit); the parameters' schemas bound those, this bounds the cache anyway.
const MAX_CACHED_PAGES = 1024;

/**
 * The in-memory pet store: ordered by id (ids only grow, so that is also insertion order), with an index per
 * status so that a filtered list costs O(limit) and a lookup O(1), however many pets there are.
 * Stored pets and list pages are frozen: nothing outside the store can change them, so they are handed out without
 * copies, and a page is reused until a create could change it.
 */
export class MemoryPetStore implements PetStore {
  readonly kind = 'memory';
  readonly maxPets: number;
  #seed: readonly Pet[];
  #byId = new Map<number, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<string, Pet[]>();
  #pages = new Map<string, Page>();
  #nextId = 1;

  constructor(seed: readonly Pet[] = [], options: MemoryStoreOptions = {}) {
    this.maxPets = options.maxPets ?? DEFAULT_MAX_PETS;
    if (!Number.isSafeInteger(this.maxPets) || this.maxPets < 1) throw new RangeError(`maxPets must be a whole number of at least 1 (got ${this.maxPets})`);
    if (seed.length > this.maxPets) throw new RangeError(`the fixtures hold ${seed.length} pets, more than maxPets (${this.maxPets})`);
    this.#seed = sortedStored(seed);
    this.#load(this.#seed, 1);
  }

  // The interface is async (a Redis store answers later); this one answers at once, with already settled promises.

  async count(): Promise<number> {
    return this.#all.length;
  }

  /** The first `limit` pets in id order, only those with `status` when it is given. */
  async list(query: ListQuery): Promise<readonly Pet[]> {
    return this.#list(query);
  }

  #list({ limit, status }: ListQuery): readonly Pet[] {
    const source = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    const key = status === undefined ? String(limit) : `${limit} ${status}`;
    const cached = this.#pages.get(key);
    // Pets are only ever appended, so a full page never changes, and a short one only when its source grew.
    if (cached && (cached.pets.length === limit || cached.sourceLength === source.length)) return cached.pets;
    const page = source.slice(0, limit);
    // The page's text is its pets' texts joined: O(limit) string work once per page, not once per request.
    const pets = freezeWithJsonText(page, `[${page.map(attachedJsonText).join(',')}]`);
    if (this.#pages.size >= MAX_CACHED_PAGES) this.#pages.clear();
    this.#pages.set(key, { pets, sourceLength: source.length });
    return pets;
  }

  async get(id: number): Promise<Pet | undefined> {
    return this.#byId.get(id);
  }

  /**
   * Stores a new pet under the next id. The work is synchronous (the promise is settled when it is returned), so
   * concurrent requests can never share an id. Rejects with a 409 `store_full` ApiError when the store holds
   * `maxPets` pets.
   */
  async create(pet: NewPet): Promise<Pet> {
    if (this.#all.length >= this.maxPets) {
      throw apiError(
        'store_full',
        `the store is full: it holds its maximum of ${this.maxPets} pets; reset the mock, or restart it with a larger --max-pets`,
      );
    }
    // Ids are int64 held to JavaScript's safe range: past 2^53 - 1 two pets would share one.
    if (!Number.isSafeInteger(this.#nextId)) {
      throw apiError('store_full', `the store has used every id up to ${Number.MAX_SAFE_INTEGER}; reset the mock, or restore a state with lower ids`);
    }
    const stored = toStoredPet(this.#nextId, pet);
    this.#insert(stored);
    return stored;
  }

  /** Back to the seed: every pet created since is gone and ids start again after the seed's highest. */
  async reset(): Promise<void> {
    this.#load(this.#seed, 1);
  }

  async reseed(seed: readonly Pet[]): Promise<void> {
    const sorted = sortedStored(seed);
    if (sorted.length > this.maxPets) throw tooMany(sorted.length, this.maxPets);
    this.#seed = sorted;
    this.#load(sorted, 1);
  }

  /** The whole state, for the admin API and persistence. The pets are the store's own frozen objects. */
  async snapshot(): Promise<StoreSnapshot> {
    return { pets: this.#all.slice(), nextId: this.#nextId };
  }

  /**
   * Replaces the whole state with a snapshot whose pets are already checked against the Pet schema (ids unique).
   * `nextId` never goes below the highest id + 1, so a created pet can never take an existing id.
   * Throws a 409 `store_full` ApiError, changing nothing, when the snapshot holds more than `maxPets` pets.
   */
  async restore(snapshot: StoreSnapshot): Promise<void> {
    if (snapshot.pets.length > this.maxPets) throw tooMany(snapshot.pets.length, this.maxPets);
    this.#load(sortedStored(snapshot.pets), snapshot.nextId);
  }

  /** Nothing to release: no connections, no timers. */
  async close(): Promise<void> {}

  #load(pets: readonly Pet[], nextId: number): void {
    this.#byId.clear();
    this.#all = [];
    this.#byStatus.clear();
    // Cached pages assume pets are only ever appended; a new state breaks that.
    this.#pages.clear();
    this.#nextId = 1;
    for (const pet of pets) this.#insert(pet);
    this.#nextId = Math.max(this.#nextId, nextId);
  }

  #insert(pet: Pet): void {
    this.#byId.set(pet.id, pet);
    this.#all.push(pet);
    if (pet.status !== undefined) {
      const bucket = this.#byStatus.get(pet.status);
      if (bucket) bucket.push(pet);
      else this.#byStatus.set(pet.status, [pet]);
    }
    this.#nextId = Math.max(this.#nextId, pet.id + 1);
  }
}

function sortedStored(pets: readonly Pet[]): Pet[] {
  return [...pets].sort((a, b) => a.id - b.id).map((pet) => toStoredPet(pet.id, pet));
}

function tooMany(count: number, maxPets: number) {
  return apiError('store_full', `the snapshot holds ${count} pets, more than this mock's maximum of ${maxPets} (--max-pets)`);
}
