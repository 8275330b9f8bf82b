/** A pet as stored and returned (the interface's `Pet`, section 2). */
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
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

/**
 * The in-memory pet store: ordered by id (ids only grow, so that is also insertion order), with an index per
 * status so that a filtered list costs O(limit) and a lookup O(1), however many pets there are.
 * Stored pets are frozen: nothing outside the store can change them, so they are handed out without copies.
 */
export class PetStore {
  #seed: readonly Pet[];
  #byId = new Map<number, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<string, Pet[]>();
  #nextId = 1;

  constructor(seed: readonly Pet[] = []) {
    this.#seed = [...seed].sort((a, b) => a.id - b.id).map((pet) => toPet(pet.id, pet));
    this.reset();
  }

  get size(): number {
    return this.#all.length;
  }

  /** The first `limit` pets in id order, only those with `status` when it is given. */
  list({ limit, status }: ListQuery): Pet[] {
    const source = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    return source.length <= limit ? source.slice() : source.slice(0, limit);
  }

  get(id: number): Pet | undefined {
    return this.#byId.get(id);
  }

  /** Stores a new pet under the next id. Synchronous, so concurrent requests can never share an id. */
  create(pet: NewPet): Pet {
    const stored = toPet(this.#nextId, pet);
    this.#insert(stored);
    return stored;
  }

  /** Back to the seed: every pet created since is gone and ids start again after the seed's highest. */
  reset(): void {
    this.#byId.clear();
    this.#all = [];
    this.#byStatus.clear();
    this.#nextId = 1;
    for (const pet of this.#seed) this.#insert(pet);
  }

  /** The whole state, for the admin API and persistence. The pets are the store's own frozen objects. */
  snapshot(): StoreSnapshot {
    return { pets: this.list({ limit: this.size }), nextId: this.#nextId };
  }

  /**
   * Replaces the whole state with a snapshot whose pets are already checked against the Pet schema (ids unique).
   * `nextId` never goes below the highest id + 1, so a created pet can never take an existing id.
   */
  restore(snapshot: StoreSnapshot): void {
    const pets = [...snapshot.pets].sort((a, b) => a.id - b.id).map((pet) => toPet(pet.id, pet));
    this.#byId.clear();
    this.#all = [];
    this.#byStatus.clear();
    this.#nextId = 1;
    for (const pet of pets) this.#insert(pet);
    this.#nextId = Math.max(this.#nextId, snapshot.nextId);
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

/** A frozen pet holding the schema's fields only, in the schema's order; anything else a client sent is dropped. */
function toPet(id: number, pet: NewPet): Pet {
  const stored: Pet = { id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return Object.freeze(stored);
}
