import { apiError } from '../errors.js';
import type { Int64 } from '../json/int64.js';
import { checkMaxStoreBytes, defaultMaxStoreBytes, freezePet, petBytes, storeBytesFull } from './store-bytes.js';
import { attachedJsonText, freezeWithJsonText } from './json-text.js';

/** A pet as stored and returned (the interface's `Pet`, section 2). */
export interface Pet {
  /** Assigned by the store, within the safe-integer range. */
  id: number;
  name: string;
  /** int64: a number when safe, a bigint beyond ±(2^53−1) with exactly the digits sent (src/json/int64.ts). */
  categoryId: Int64;
  status?: string;
}

export type NewPet = Omit<Pet, 'id'>;

/** The whole state of a store: every pet in id order and the id the next created pet gets. */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: number;
}

export interface ListQuery {
  limit: number;
  status?: string | undefined;
}

export interface StoreOptions {
  /** The most pets the store holds, seed included; a create beyond it is refused. Default DEFAULT_MAX_PETS. */
  maxPets?: number;
  /** The most bytes of pets (their JSON text) the store holds; default `defaultMaxStoreBytes()` (store-bytes.ts). */
  maxBytes?: number;
}

/**
 * The default bound on stored pets: room for a large load test (the benchmark's 100,000-pet store and what a long
 * run creates), while a runaway client stops at a known memory cost (about 0.35 KB a pet with a short name, some 90 MB when full; long names cost more)
 * instead of exhausting the machine.
 */
export const DEFAULT_MAX_PETS = 250_000;

/** A list page as handed out: frozen with its JSON text (see json-text.ts), so that it is reused as it is. */
interface Page {
  pets: readonly Pet[];
  /** How many pets its source held when the page was cut. */
  sourceLength: number;
}

// List pages are cached per (status, limit); the parameters' schemas bound those, this bounds the cache anyway,
// in count and in the bytes of text the pages hold.
const MAX_CACHED_PAGES = 1024;
const MAX_CACHED_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * The in-memory pet store: ordered by id (ids only grow, so that is also insertion order), with an index per
 * status so that a filtered list costs O(limit) and a lookup O(1), however many pets there are.
 * Stored pets and list pages are frozen: nothing outside the store can change them, so they are handed out without
 * copies, and a page is reused until a create could change it.
 */
export class PetStore {
  readonly maxPets: number;
  readonly maxBytes: number;
  #bytes = 0;
  #pageBytes = 0;
  #seed: readonly Pet[];
  #byId = new Map<number, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<string, Pet[]>();
  #pages = new Map<string, Page>();
  #nextId = 1;

  constructor(seed: readonly Pet[] = [], options: StoreOptions = {}) {
    this.maxPets = options.maxPets ?? DEFAULT_MAX_PETS;
    if (!Number.isSafeInteger(this.maxPets) || this.maxPets < 1) throw new RangeError(`maxPets must be a whole number of at least 1 (got ${this.maxPets})`);
    if (seed.length > this.maxPets) throw new RangeError(`the fixtures hold ${seed.length} pets, more than maxPets (${this.maxPets})`);
    this.maxBytes = checkMaxStoreBytes(options.maxBytes ?? defaultMaxStoreBytes());
    this.#seed = [...seed].sort((a, b) => a.id - b.id).map((pet) => toPet(pet.id, pet));
    const seedBytes = totalBytes(this.#seed);
    if (seedBytes > this.maxBytes) throw new RangeError(`the fixtures hold ${seedBytes} bytes of pets, more than maxStoreBytes (${this.maxBytes})`);
    this.reset();
  }

  /** Bytes of pets held (their JSON text), counted against `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#all.length;
  }

  /** The id the next created pet gets. */
  get nextId(): number {
    return this.#nextId;
  }

  /** The first `limit` pets in id order, only those with `status` when it is given. */
  list({ limit, status }: ListQuery): readonly Pet[] {
    const source = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    const key = status === undefined ? String(limit) : `${limit} ${status}`;
    const cached = this.#pages.get(key);
    // Pets are only ever appended, so a full page never changes, and a short one only when its source grew.
    if (cached && (cached.pets.length === limit || cached.sourceLength === source.length)) return cached.pets;
    const page = source.slice(0, limit);
    // The page's text is its pets' texts joined: O(limit) string work once per page, not once per request. A page
    // with a large pet (no attached text, see store-bytes.ts) gets none either: its reply is serialised when sent.
    const texts = page.map(attachedJsonText);
    const whole = texts.every((text) => text !== undefined);
    const text = whole ? `[${texts.join(',')}]` : undefined;
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

  get(id: number): Pet | undefined {
    return this.#byId.get(id);
  }

  /**
   * Stores a new pet under the next id. Synchronous, so concurrent requests can never share an id.
   * Throws a 409 `store_full` ApiError when the store holds `maxPets` pets.
   */
  create(pet: NewPet): Pet {
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
    const { pet: stored, bytes } = toSizedPet(this.#nextId, pet);
    if (this.#bytes + bytes > this.maxBytes) throw storeBytesFull(this.#bytes, bytes, this.maxBytes);
    this.#insert(stored, bytes);
    return stored;
  }

  /** Back to the seed: every pet created since is gone and ids start again after the seed's highest. */
  reset(): void {
    this.#load(this.#seed, 1);
  }

  /** The whole state, for the admin API and persistence. The pets are the store's own frozen objects. */
  snapshot(): StoreSnapshot {
    return { pets: this.#all.slice(), nextId: this.#nextId };
  }

  /**
   * Replaces the whole state with a snapshot whose pets are already checked against the Pet schema (ids unique).
   * `nextId` never goes below the highest id + 1, so a created pet can never take an existing id.
   * Throws a 409 `store_full` ApiError, changing nothing, when the snapshot holds more than `maxPets` pets.
   */
  restore(snapshot: StoreSnapshot): void {
    if (snapshot.pets.length > this.maxPets) {
      throw apiError('store_full', `the snapshot holds ${snapshot.pets.length} pets, more than this mock's maximum of ${this.maxPets} (--max-pets)`);
    }
    const pets = [...snapshot.pets].sort((a, b) => a.id - b.id).map((pet) => toPet(pet.id, pet));
    const bytes = totalBytes(pets);
    if (bytes > this.maxBytes) {
      throw apiError('store_full', `the snapshot holds ${bytes} bytes of pets, more than this mock's budget of ${this.maxBytes} bytes (--max-store-bytes)`);
    }
    this.#load(pets, snapshot.nextId);
  }

  #load(pets: readonly Pet[], nextId: number): void {
    this.#byId.clear();
    this.#all = [];
    this.#byStatus.clear();
    // Cached pages assume pets are only ever appended; a new state breaks that.
    this.#pages.clear();
    this.#pageBytes = 0;
    this.#bytes = 0;
    this.#nextId = 1;
    for (const pet of pets) this.#insert(pet, petBytes(pet));
    this.#nextId = Math.max(this.#nextId, nextId);
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
    this.#nextId = Math.max(this.#nextId, pet.id + 1);
  }
}

/**
 * A frozen pet holding the schema's fields only, in the schema's order, with its JSON text attached when small
 * (store-bytes.ts); anything else a client sent is dropped. Also its size in bytes.
 */
function toSizedPet(id: number, pet: NewPet): { pet: Pet; bytes: number } {
  const stored: Pet = { id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return freezePet(stored);
}

function toPet(id: number, pet: NewPet): Pet {
  return toSizedPet(id, pet).pet;
}

function totalBytes(pets: readonly Pet[]): number {
  let bytes = 0;
  for (const pet of pets) bytes += petBytes(pet);
  return bytes;
}
