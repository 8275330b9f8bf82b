import { apiError } from '../../errors.js';
import { attachedJsonText, freezeWithJsonText } from '../base/json-text.js';
import {
  DEFAULT_MAX_PETS,
  idsUsedUp,
  MAX_NEXT_ID,
  type ListQuery,
  type NewPet,
  type Pet,
  type PetStore,
  type StoreSnapshot,
} from './pet-store.js';
import { toSizedStoredPet, toStoredPet } from './stored-pet.js';
import { compareInt64, maxInt64, normaliseInteger, plusOne, type Int64 } from '../../json/int64.js';
import { checkMaxStoreBytes, PORTABLE_STORE_BYTES, petBytes, storeBytesFull } from '../base/store-bytes.js';

export interface MemoryStoreOptions {
  /** The most pets the store holds, seed included; a create beyond it is refused. Default DEFAULT_MAX_PETS. */
  maxPets?: number;
  /** The most bytes of pet JSON text the store holds; a create beyond it is refused. Default: sized to the heap. */
  maxBytes?: number;
}

/** A list page as handed out: frozen with its JSON text (see json-text.ts), so that it is reused as it is. */
interface Page {
  pets: readonly Pet[];
  /** How many pets its source held when the page was cut. */
  sourceLength: number;
}

// List pages are cached per (status, limit); the parameters' schemas bound those, this bounds the cache anyway,
// in count and in the bytes of text the pages hold.
const MAX_CACHED_PAGES = 1024;
export const MAX_CACHED_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * The in-memory pet store: ordered by id (ids only grow, so that is also insertion order), with an index per
 * status so that a filtered list costs O(limit) and a lookup O(1), however many pets there are.
 * Stored pets and list pages are frozen: nothing outside the store can change them, so they are handed out without
 * copies, and a page is reused until a create could change it.
 */
export class MemoryPetStore implements PetStore {
  readonly kind = 'memory';
  readonly maxPets: number;
  readonly maxBytes: number;
  #bytes = 0;
  #pageBytes = 0;
  #seed: readonly Pet[];
  // Keys are ids in their in-memory form (a number while safe, a bigint beyond), one form per value (int64.ts).
  #byId = new Map<Int64, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<string, Pet[]>();
  #pages = new Map<string, Page>();
  #nextId: Int64 = 1;

  constructor(seed: readonly Pet[] = [], options: MemoryStoreOptions = {}) {
    this.maxPets = options.maxPets ?? DEFAULT_MAX_PETS;
    if (!Number.isSafeInteger(this.maxPets) || this.maxPets < 1)
      throw new RangeError(`maxPets must be a whole number of at least 1 (got ${this.maxPets})`);
    if (seed.length > this.maxPets)
      throw new RangeError(`the fixtures hold ${seed.length} pets, more than maxPets (${this.maxPets})`);
    this.maxBytes = checkMaxStoreBytes(options.maxBytes ?? PORTABLE_STORE_BYTES);
    this.#seed = sortedStored(seed);
    const seedBytes = totalBytes(this.#seed);
    if (seedBytes > this.maxBytes)
      throw new RangeError(`the fixtures hold ${seedBytes} bytes of pets, more than maxStoreBytes (${this.maxBytes})`);
    this.#load(this.#seed, 1);
  }

  /** Bytes of pets held (their JSON text), counted against `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
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
    // The page's text is its pets' texts joined: O(limit) string work once per page, not once per request. A page
    // with a large pet (no attached text, see store-bytes.ts) gets none either: its reply is serialised when sent.
    const texts = page.map(attachedJsonText);
    const text = texts.every((one) => one !== undefined) ? `[${texts.join(',')}]` : undefined;
    const pets = text === undefined ? Object.freeze(page) : freezeWithJsonText(page, text);
    const bytes = text?.length ?? 0;
    if (this.#pages.size >= MAX_CACHED_PAGES || this.#pageBytes + bytes > MAX_CACHED_PAGE_BYTES) {
      this.#pages.clear();
      this.#pageBytes = 0;
    }
    this.#pages.set(key, { pets, sourceLength: source.length });
    this.#pageBytes += bytes;
    return pets;
  }

  async get(id: Int64): Promise<Pet | undefined> {
    return this.#byId.get(typeof id === 'bigint' ? normaliseInteger(id) : id);
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
    // The id after this one must still be an int64 (interface §2: id is int64), so that nextId stays one.
    if (typeof this.#nextId === 'bigint' && this.#nextId >= MAX_NEXT_ID) throw idsUsedUp();
    const { pet: stored, bytes } = toSizedStoredPet(this.#nextId, pet);
    if (this.#bytes + bytes > this.maxBytes) throw storeBytesFull(this.#bytes, bytes, this.maxBytes);
    this.#insert(stored, bytes);
    return stored;
  }

  /** Back to the seed: every pet created since is gone and ids start again after the seed's highest. */
  async reset(): Promise<void> {
    this.#load(this.#seed, 1);
  }

  async reseed(seed: readonly Pet[]): Promise<void> {
    const sorted = sortedStored(seed);
    if (sorted.length > this.maxPets) throw tooMany(sorted.length, this.maxPets);
    checkBytes(sorted, this.maxBytes);
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
    const pets = sortedStored(snapshot.pets);
    checkBytes(pets, this.maxBytes);
    this.#load(pets, snapshot.nextId);
  }

  /** Nothing to release: no connections, no timers. */
  async close(): Promise<void> {}

  #load(pets: readonly Pet[], nextId: Int64): void {
    this.#byId.clear();
    this.#all = [];
    this.#byStatus.clear();
    // Cached pages assume pets are only ever appended; a new state breaks that.
    this.#pages.clear();
    this.#pageBytes = 0;
    this.#bytes = 0;
    this.#nextId = 1;
    for (const pet of pets) this.#insert(pet, petBytes(pet));
    this.#nextId = maxInt64(this.#nextId, nextId);
  }

  #insert(pet: Pet, bytes: number): void {
    this.#bytes += bytes;
    this.#byId.set(pet.id, pet);
    this.#all.push(pet);
    if (pet.status !== undefined) {
      const bucket = this.#byStatus.get(pet.status);
      if (bucket) bucket.push(pet);
      else this.#byStatus.set(pet.status, [pet]);
    }
    this.#nextId = maxInt64(this.#nextId, plusOne(pet.id));
  }
}

function sortedStored(pets: readonly Pet[]): Pet[] {
  return [...pets].sort((a, b) => compareInt64(a.id, b.id)).map((pet) => toStoredPet(pet.id, pet));
}

function tooMany(count: number, maxPets: number) {
  return apiError(
    'store_full',
    `the snapshot holds ${count} pets, more than this mock's maximum of ${maxPets} (--max-pets)`,
  );
}

function totalBytes(pets: readonly Pet[]): number {
  let bytes = 0;
  for (const pet of pets) bytes += petBytes(pet);
  return bytes;
}

/** A snapshot or seed past the byte budget is refused whole (409 `store_full`), changing nothing. */
function checkBytes(pets: readonly Pet[], maxBytes: number): void {
  const bytes = totalBytes(pets);
  if (bytes > maxBytes) {
    throw apiError(
      'store_full',
      `the snapshot holds ${bytes} bytes of pets, more than this mock's budget of ${maxBytes} bytes (--max-store-bytes)`,
    );
  }
}
