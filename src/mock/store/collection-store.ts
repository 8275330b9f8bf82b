import type { StoredNewPet as NewPet, StoredPet as Pet } from '../../types.js';
import { INT64_MAX, plusOne, type Int64 } from '../../json/int64.js';
import { apiError } from '../../errors.js';
import type { IdKind } from '../../openapi/resource-types.js';

export type { NewPet, Pet };

/** An item's id: an int64 in its in-memory form (src/json/int64.ts), or a string (a string or UUID id). */
export type ItemId = Int64 | string;

/** A stored item of any collection: frozen, its properties in the order the store put them (the id first). */
export type Item = Readonly<Record<string, unknown>>;

/** What a create or an update hands the store: the item's properties without the id (the store assigns it). */
export type NewItem = Readonly<Record<string, unknown>>;

/** Items match when `property` equals one of `values` (compared as JSON text: `5` and `5n` are the same). */
export interface ListFilter {
  property: string;
  values: readonly unknown[];
}

export interface ListQuery {
  /** At most this many items; undefined: every item. */
  limit?: number | undefined;
  /** Every filter must match (AND); within one, any value (OR). */
  filters?: readonly ListFilter[] | undefined;
  /** For a collection under an item: only the items of this parent. */
  parent?: ItemId | undefined;
}

/**
 * How a collection makes and keeps its items, from the resource model: which property holds the id and what kind
 * of id the store assigns; for a nested collection, which property (if any) holds the parent's id; the stored
 * properties in order (undefined: every property given is kept).
 */
export interface CollectionRule {
  idProperty: string;
  idKind: IdKind;
  /** The properties stored, in order, besides the id and the parent's property; others are dropped. */
  fields?: readonly string[] | undefined;
  /** A nested collection: the item property that holds the parent's id (undefined: kept beside the item). */
  parentProperty?: string | undefined;
  nested?: boolean | undefined;
  /** A nested collection: the collection its parent items are in (deleting a parent deletes its nested items). */
  parentCollection?: string | undefined;
  /** The properties a list filters on (the Redis store keeps a set per value of each). */
  filters?: readonly string[] | undefined;
  /** What one item is called in messages: `pet` for `pets` (resource-noun.ts). */
  noun?: string | undefined;
}

/** The rule of a collection the document says nothing else about: ids in `id`, an int64 counter, every field kept. */
export const DEFAULT_RULE: CollectionRule = Object.freeze({ idProperty: 'id', idKind: 'int64', noun: 'item' });

/**
 * One collection's whole state: its items in list order and the counter the next created item's id comes from
 * (int64 and string ids; 1 for UUID ids). `parents`, for a nested collection whose items hold no parent property,
 * gives each item's parent id, index by index.
 */
export interface CollectionSnapshot {
  items: Item[];
  nextId: Int64;
  parents?: ItemId[] | undefined;
}

/**
 * The store's state in its JSON form (`mock.snapshot()`, `GET /__admin/state`, the state file; state/snapshot.ts).
 * A document with one collection, such as v1, gets `{pets, nextId}`: every pet in id order and the id the next
 * created pet gets (ids and `nextId` int64s in their in-memory form, src/json/int64.ts). A document with several
 * gets `{collections: {name: {items, nextId}}}` instead; the type names the first form's fields, which v1 has.
 */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: Int64;
  collections?: Record<string, CollectionSnapshot>;
}

/**
 * One collection's store; handlers never know which implementation they have. All async, so that a store on
 * another process (Redis) fits the same interface. Failures are ApiErrors (`store_full`, …).
 */
export interface CollectionStore {
  /** 'memory' or 'redis': for the banner and the admin summary only. */
  readonly kind: string;
  /** The most items the collection holds, seed included; create beyond it → ApiError 'store_full' (409). */
  readonly maxItems: number;
  /** First `limit` items in list order (ascending id), those matching the filters and parent. O(limit) unfiltered. */
  list(query: ListQuery): Promise<readonly Item[]>;
  /** O(1). undefined when no item has that id (or it belongs to another parent than `parent`). */
  get(id: ItemId, parent?: ItemId): Promise<Item | undefined>;
  /**
   * Next id from an atomic counter, or `id` when the client named it (docs/mock.md, Ids): ApiError `id_taken` when
   * an item has it, nothing stored; the counter then continues above it. The item is durably in the store before the
   * promise resolves.
   */
  create(item: NewItem, parent?: ItemId, id?: ItemId): Promise<Item>;
  /**
   * Replaces an item with what `change` makes of it (its id and parent kept), atomically: no other write falls
   * between reading and writing it. undefined when no item has that id. `change` may throw (an ApiError) to refuse.
   */
  update(id: ItemId, change: (item: Item) => NewItem, parent?: ItemId): Promise<Item | undefined>;
  /** Removes an item; the removed item, or undefined when none had that id. Its id is never handed out again. */
  remove(id: ItemId, parent?: ItemId): Promise<Item | undefined>;
  count(): Promise<number>;
  /** Back to the seed items, ids continue after the seed's highest. Atomic. */
  reset(): Promise<void>;
  /** Makes `seed` the items `reset` goes back to, and resets to them (a hot reload after the fixtures changed). */
  reseed(seed: readonly Item[], parents?: readonly ItemId[]): Promise<void>;
  snapshot(): Promise<CollectionSnapshot>;
  /** Replace the whole state atomically; nextId never below highest id + 1; too many → store_full, nothing changed. */
  restore(snapshot: CollectionSnapshot): Promise<void>;
  /** Release connections/timers. */
  close(): Promise<void>;
}

/**
 * The default bound on the items of one collection (`--max-pets`): room for a large load test (the benchmark's
 * 100,000-pet store and what a long run creates), while a runaway client stops at a known memory cost (about 0.35 KB
 * a v1 pet with a short name, some 90 MB when full; longer items cost more) instead of exhausting the machine.
 */
export const DEFAULT_MAX_ITEMS = 250_000;

/**
 * The largest `nextId` a store holds: 2^63 − 1, the largest int64 (interface §2: `id` is int64). A create takes the
 * id `nextId` and leaves `nextId` one above it, so the last id a create hands out is 2^63 − 2 (MAX_ITEM_ID, also the
 * largest id a fixture or snapshot may hold); at 2^63 − 1 a create gets 409 `store_full` and stores nothing.
 */
export const MAX_NEXT_ID = INT64_MAX;
export const MAX_ITEM_ID = INT64_MAX - 1n;

/** The 409 for a create when `nextId` is MAX_NEXT_ID; every store answers it with this one message. */
export function idsUsedUp() {
  return apiError(
    'store_full',
    `the store has used every id: nextId is ${MAX_NEXT_ID} (2^63 − 1, the largest int64), and a pet created now would leave no next id; reset the mock, or restore a state with a lower nextId`,
  );
}

/** The refusal of a create whose client-named id an item of the collection already has; nothing is stored. */
export function idTaken(noun: string | undefined, id: ItemId) {
  return apiError('id_taken', `a ${noun ?? 'item'} with id ${String(id)} exists already; nothing was stored`);
}

/**
 * The counter after a client-named int64 id: one above it (the counter never hands out an id an item has), at most
 * MAX_NEXT_ID; undefined for a negative id, which the counter never reaches.
 */
export function counterAfterNamed(id: Int64): Int64 | undefined {
  if (id < 0) return undefined;
  return id >= MAX_NEXT_ID ? MAX_NEXT_ID : plusOne(id);
}
