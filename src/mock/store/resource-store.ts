import { apiError } from '../../errors.js';
import {
  DEFAULT_RULE,
  type CollectionRule,
  type CollectionSnapshot,
  type CollectionStore,
  type Item,
  type ItemId,
  type ListFilter,
  type ListQuery,
  type NewItem,
} from './collection-store.js';

/** A collection's seed: its items, and for a nested collection without a parent property, each item's parent. */
export interface CollectionSeed {
  items: readonly Item[];
  parents?: readonly ItemId[] | undefined;
}

/** The state of every collection, by name, in the document's order. */
export type StoreState = Record<string, CollectionSnapshot>;

/** The seeds of every collection, by name. */
export type StoreSeeds = ReadonlyMap<string, CollectionSeed>;

/**
 * The one store behind every handler: a collection store per collection of the document (store/collection-store.ts),
 * made with its rule and seed on first use. The store outlives a document model: a reload tells it the new rules
 * (`define`) and, when the fixtures changed, the new seeds (`reseed`).
 */
export interface ResourceStore {
  /** 'memory' or 'redis': for the banner and the admin summary only. */
  readonly kind: string;
  /** The most items each collection holds, seed included. */
  readonly maxItems: number;
  /** The collection's store; an ApiError when this store cannot hold it (see `refusal`). */
  collection(name: string): CollectionStore;
  /** The rules new items of each collection are made by (from the document being served). */
  define(rules: ReadonlyMap<string, CollectionRule>): void;
  /** The names of the collections held, in the order they were defined. */
  names(): string[];
  /**
   * Removes an item of collection `name` and every item nested under it, at any depth (DELETE /pets/{id} removes
   * that pet's photos): the removed item, or undefined when none had that id (under that parent).
   */
  removeItem(name: string, id: ItemId, parent?: ItemId): Promise<Item | undefined>;
  /** Items in every collection. */
  count(): Promise<number>;
  /** Every collection back to its seed. */
  reset(): Promise<void>;
  /** New seeds, and every collection reset to them. */
  reseed(seeds: StoreSeeds): Promise<void>;
  snapshot(): Promise<StoreState>;
  /** Every collection named in `state` replaced; the others emptied. Checked whole before anything changes. */
  restore(state: StoreState): Promise<void>;
  close(): Promise<void>;
  /**
   * Shortcuts to the document's first collection (the pets of v1), as the v1 store had them: `list` takes its
   * filters as properties (`{ limit: 3, status: 'available' }`).
   */
  list(query: ListQuery & Record<string, unknown>): Promise<readonly Item[]>;
  get(id: ItemId): Promise<Item | undefined>;
  create(item: NewItem): Promise<Item>;
}

/** Makes one collection's store. */
export type CollectionFactory = (name: string, rule: CollectionRule, seed: CollectionSeed) => CollectionStore;

/**
 * A ResourceStore over collection stores made by `factory` (in memory: one MemoryCollectionStore each). Collections are
 * made when first named by a rule, a restore or a request, so a reload that adds a collection needs no restart.
 */
export class CollectionsStore implements ResourceStore {
  readonly kind: string;
  readonly maxItems: number;
  #factory: CollectionFactory;
  #rules = new Map<string, CollectionRule>();
  #seeds: StoreSeeds;
  #collections = new Map<string, CollectionStore>();
  #close: () => Promise<void>;
  #removesNested: boolean;

  constructor(
    kind: string,
    maxItems: number,
    factory: CollectionFactory,
    parts: {
      rules: ReadonlyMap<string, CollectionRule>;
      seeds: StoreSeeds;
      close?: () => Promise<void>;
      /** The collection stores remove nested items themselves (Redis: in the delete's one script). */
      removesNested?: boolean;
    },
  ) {
    this.kind = kind;
    this.maxItems = maxItems;
    this.#factory = factory;
    this.#seeds = parts.seeds;
    this.#close = parts.close ?? (async () => {});
    this.#removesNested = parts.removesNested ?? false;
    this.define(parts.rules);
  }

  collection(name: string): CollectionStore {
    let collection = this.#collections.get(name);
    if (!collection) {
      collection = this.#factory(name, this.#rules.get(name) ?? DEFAULT_RULE, this.#seeds.get(name) ?? { items: [] });
      this.#collections.set(name, collection);
    }
    return collection;
  }

  define(rules: ReadonlyMap<string, CollectionRule>): void {
    this.#rules = new Map(rules);
    for (const [name, rule] of rules) {
      const existing = this.#collections.get(name);
      if (existing && 'rule' in existing) existing.rule = rule;
      else this.collection(name);
    }
  }

  names(): string[] {
    return [...this.#collections.keys()];
  }

  async removeItem(name: string, id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    const removed = await this.collection(name).remove(id, parent);
    if (removed !== undefined && !this.#removesNested) await this.#removeNested(name, removed);
    return removed;
  }

  /** The items nested under `item` of `name`, collection by collection, each with its own nested items. */
  async #removeNested(name: string, item: Item): Promise<void> {
    const id = item[(this.#rules.get(name) ?? DEFAULT_RULE).idProperty] as ItemId;
    for (const [child, rule] of this.#rules) {
      if (rule.parentCollection !== name) continue;
      for (const nested of await this.collection(child).list({ parent: id })) {
        await this.removeItem(child, nested[rule.idProperty] as ItemId, id);
      }
    }
  }

  async count(): Promise<number> {
    let total = 0;
    for (const collection of this.#collections.values()) total += await collection.count();
    return total;
  }

  async reset(): Promise<void> {
    for (const collection of this.#collections.values()) await collection.reset();
  }

  async reseed(seeds: StoreSeeds): Promise<void> {
    this.#seeds = seeds;
    for (const name of new Set([...this.#collections.keys(), ...seeds.keys()])) {
      const seed = seeds.get(name) ?? { items: [] };
      await this.collection(name).reseed(seed.items, seed.parents);
    }
  }

  async snapshot(): Promise<StoreState> {
    const state: StoreState = {};
    for (const [name, collection] of this.#collections) state[name] = await collection.snapshot();
    return state;
  }

  async restore(state: StoreState): Promise<void> {
    // Every collection is checked against the count limit before any changes: a refusal changes nothing.
    for (const [name, snapshot] of Object.entries(state)) {
      if (snapshot.items.length > this.maxItems) {
        throw apiError(
          'store_full',
          `the snapshot holds ${snapshot.items.length} items in ${name}, more than this mock's maximum of ${this.maxItems} (--max-pets)`,
        );
      }
    }
    const before = await this.snapshot();
    try {
      for (const name of new Set([...this.#collections.keys(), ...Object.keys(state)])) {
        await this.collection(name).restore(state[name] ?? { items: [], nextId: 1 });
      }
    } catch (error) {
      // A byte budget refused one collection after others changed: put them all back.
      for (const [name, snapshot] of Object.entries(before)) await this.collection(name).restore(snapshot);
      throw error;
    }
  }

  async close(): Promise<void> {
    for (const collection of this.#collections.values()) await collection.close();
    await this.#close();
  }

  list(query: ListQuery & Record<string, unknown>): Promise<readonly Item[]> {
    const { limit, filters = [], parent, ...properties } = query;
    const more: ListFilter[] = Object.entries(properties)
      .filter(([, value]) => value !== undefined)
      .map(([property, value]) => ({ property, values: [value] }));
    return this.#first().list({ limit, filters: [...filters, ...more], parent });
  }

  get(id: ItemId): Promise<Item | undefined> {
    return this.#first().get(id);
  }

  create(item: NewItem): Promise<Item> {
    return this.#first().create(item);
  }

  #first(): CollectionStore {
    const name = this.#rules.keys().next().value ?? this.#collections.keys().next().value;
    if (name === undefined) throw apiError('not_found', 'the document has no collection');
    return this.collection(name);
  }
}
