import { apiError } from '../../errors.js';
import { attachedJsonText, freezeWithJsonText } from '../base/json-text.js';
import {
  DEFAULT_MAX_ITEMS,
  DEFAULT_RULE,
  counterAfterNamed,
  idTaken,
  idsUsedUp,
  MAX_NEXT_ID,
  type CollectionRule,
  type CollectionSnapshot,
  type Item,
  type ItemId,
  type ListFilter,
  type ListQuery,
  type NewItem,
  type CollectionStore,
} from './collection-store.js';
import { compareInt64, maxInt64, normaliseInteger, plusOne, toInteger, type Int64 } from '../../json/int64.js';
import {
  checkMaxStoreBytes,
  freezeItem,
  PORTABLE_STORE_BYTES,
  itemBytes,
  storeBytesFull,
} from '../base/store-bytes.js';
import { stringifyJson } from '../../json/stringify-json.js';

export interface MemoryStoreOptions {
  /** The most items the collection holds, seed included; a create beyond it is refused. Default DEFAULT_MAX_ITEMS. */
  maxItems?: number;
  /** @deprecated v1's name of `maxItems`, still read when `maxItems` is not given. */
  maxPets?: number;
  /** The most bytes of item JSON text it holds; a create beyond it is refused. Default: sized to the heap. */
  maxBytes?: number;
  /** How its items are made and kept (from the resource model); default: ids in `id`, int64, every field kept. */
  rule?: CollectionRule;
  /** For a nested collection's seed: each seed item's parent id, index by index. */
  parents?: readonly ItemId[];
}

/** A list page as handed out: frozen with its JSON text (see json-text.ts), so that it is reused as it is. */
interface Page {
  items: readonly Item[];
  /** How many items its source held when the page was cut. */
  sourceLength: number;
}

// List pages are cached per (filter, limit); the parameters' schemas bound those, this bounds the cache anyway,
// in count and in the bytes of text the pages hold.
const MAX_CACHED_PAGES = 1024;
export const MAX_CACHED_PAGE_BYTES = 16 * 1024 * 1024;

/** A map key for an id: one form per value (an int64 normalised; a string as it is). */
type IdKey = Int64 | string;

/**
 * One collection in memory: ordered by id for int64 ids (ids only grow, so that is also creation order), in
 * creation order for string and UUID ids, with an index per filtered property and value so that a filtered list
 * costs O(limit) and a lookup O(1), however many items there are. Items and list pages are frozen: nothing outside
 * the store can change them, so they are handed out without copies, and a page is reused until a write could
 * change it. A replace or a merge finds the item's place by binary search and keeps the indexes (O(log n)). A delete
 * marks the item dead where it lies, for lists to skip, and the dead are swept out together once there are enough of
 * them (see #compactAt): closing each gap at once moved every pointer after it, 100 to 280 µs a delete at 200,000
 * items, which made a DELETE cost five creates.
 */
export class MemoryCollectionStore implements CollectionStore {
  readonly kind = 'memory';
  readonly maxItems: number;
  readonly maxBytes: number;
  #rule: CollectionRule;
  #bytes = 0;
  #pageBytes = 0;
  #seed: readonly Item[];
  #seedParents: readonly ItemId[] | undefined;
  #byId = new Map<IdKey, Item>();
  #all: Item[] = [];
  /** For a nested collection: each item's parent id. */
  #parentOf = new Map<IdKey, ItemId>();
  /** property → value's JSON text → items in list order; built on first use, dropped by a replace or delete. */
  #indexes = new Map<string, Map<string, Item[]>>();
  #pages = new Map<string, Page>();
  #nextId: Int64 = 1;
  /**
   * For string and UUID ids: each item's place in creation order, so that finding an item in a list-ordered array
   * is a binary search, as it is by the id itself for int64 ids (which need no such map: no memory per item).
   */
  #sequence = new Map<IdKey, number>();
  #nextSequence = 0;
  /** Deleted items still in #all and the index buckets (skipped by every read), with their ids, until #compact. */
  #dead = new Set<Item>();
  #deadIds = new Set<IdKey>();
  /** Order by #sequence (string and UUID ids, or after a reload changed the id's kind) rather than by id. */
  #bySequence: boolean;

  constructor(seed: readonly Item[] = [], options: MemoryStoreOptions = {}) {
    this.maxItems = options.maxItems ?? options.maxPets ?? DEFAULT_MAX_ITEMS;
    this.#rule = options.rule ?? DEFAULT_RULE;
    this.#bySequence = this.#rule.idKind !== 'int64';
    if (!Number.isSafeInteger(this.maxItems) || this.maxItems < 1)
      throw new RangeError(`maxPets must be a whole number of at least 1 (got ${this.maxItems})`);
    if (seed.length > this.maxItems)
      throw new RangeError(`the fixtures hold ${seed.length} ${this.#nouns}, more than maxPets (${this.maxItems})`);
    this.maxBytes = checkMaxStoreBytes(options.maxBytes ?? PORTABLE_STORE_BYTES);
    const sorted = this.#sorted(seed, options.parents);
    this.#seed = sorted.items;
    this.#seedParents = sorted.parents;
    const seedBytes = totalBytes(this.#seed);
    if (seedBytes > this.maxBytes)
      throw new RangeError(
        `the fixtures hold ${seedBytes} bytes of ${this.#nouns}, more than maxStoreBytes (${this.maxBytes})`,
      );
    this.#load(this.#seed, this.#seedParents, 1);
  }

  /** The rule new items are made by; a reload of the document may change it (stored items stay as they are). */
  get rule(): CollectionRule {
    return this.#rule;
  }

  set rule(rule: CollectionRule) {
    const idKindChanged = (rule.idKind === 'int64') !== (this.#rule.idKind === 'int64');
    this.#rule = rule;
    // The items stay where they are; from now on their order is kept by number, whatever their ids.
    if (idKindChanged && !this.#bySequence) {
      this.#bySequence = true;
      for (const item of this.#all) this.#sequence.set(keyOf(this.#idOf(item)), this.#nextSequence++);
    }
  }

  get #nouns(): string {
    return `${this.#rule.noun ?? 'item'}s`;
  }

  /** Bytes of items held (their JSON text), counted against `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  // The interface is async (a Redis store answers later); this one answers at once, with already settled promises.

  async count(): Promise<number> {
    return this.#live;
  }

  get #live(): number {
    return this.#all.length - this.#dead.size;
  }

  /** The first `limit` items in list order, those matching every filter (and the parent) only. */
  async list(query: ListQuery): Promise<readonly Item[]> {
    return this.#list(query);
  }

  #list({ limit, filters = [], parent }: ListQuery): readonly Item[] {
    const count = limit ?? Number.MAX_SAFE_INTEGER;
    const first = filters[0];
    // The one case worth an index and a cached page: no parent, at most one filter with one value.
    if (parent === undefined && filters.length <= 1 && (first === undefined || first.values.length === 1)) {
      const source = first === undefined ? this.#all : this.#bucket(first.property, first.values[0]);
      const key = first === undefined ? String(count) : `${count} ${first.property} ${valueKey(first.values[0])}`;
      return this.#page(key, source, count);
    }
    const matches: Item[] = [];
    const source = first && first.values.length === 1 ? this.#bucket(first.property, first.values[0]) : this.#all;
    for (const item of source) {
      if (matches.length >= count) break;
      if (this.#dead.has(item)) continue;
      if (parent !== undefined && !sameId(this.#parentOf.get(keyOf(this.#idOf(item))), parent)) continue;
      if (filters.every((filter) => matchesFilter(item, filter))) matches.push(item);
    }
    return freezePage(matches);
  }

  #page(key: string, source: readonly Item[], count: number): readonly Item[] {
    const cached = this.#pages.get(key);
    // Items are only appended between writes that drop the cache, so a full page never changes, and a short one
    // only when its source grew.
    if (cached && (cached.items.length === count || cached.sourceLength === source.length)) return cached.items;
    const items = freezePage(this.#firstLive(source, count));
    const bytes = attachedJsonText(items)?.length ?? 0;
    if (this.#pages.size >= MAX_CACHED_PAGES || this.#pageBytes + bytes > MAX_CACHED_PAGE_BYTES) {
      this.#pages.clear();
      this.#pageBytes = 0;
    }
    this.#pages.set(key, { items, sourceLength: source.length });
    this.#pageBytes += bytes;
    return items;
  }

  /** The first `count` items of `source` not deleted. */
  #firstLive(source: readonly Item[], count: number): Item[] {
    if (this.#dead.size === 0) return source.slice(0, count);
    const items: Item[] = [];
    for (const item of source) {
      if (items.length >= count) break;
      if (!this.#dead.has(item)) items.push(item);
    }
    return items;
  }

  /** The items whose `property` is `value`, in list order, from the property's index (built on first use). */
  #bucket(property: string, value: unknown): readonly Item[] {
    let index = this.#indexes.get(property);
    if (!index) {
      index = new Map();
      for (const item of this.#all) if (!this.#dead.has(item)) addToIndex(index, property, item);
      this.#indexes.set(property, index);
    }
    return index.get(valueKey(value)) ?? [];
  }

  async get(id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    return this.#find(id, parent);
  }

  #find(id: ItemId, parent: ItemId | undefined): Item | undefined {
    const key = this.#keyFor(id);
    const item = this.#byId.get(key);
    if (item === undefined || parent === undefined) return item;
    return sameId(this.#parentOf.get(key), parent) ? item : undefined;
  }

  /**
   * Stores a new item under the next id. The work is synchronous (the promise is settled when it is returned), so
   * concurrent requests can never share an id. Rejects with a 409 `store_full` ApiError when the collection holds
   * `maxItems` items or its bytes would pass `maxBytes`.
   */
  async create(fields: NewItem, parent?: ItemId, named?: ItemId): Promise<Item> {
    if (this.#live >= this.maxItems) {
      throw apiError(
        'store_full',
        `the store is full: it holds its maximum of ${this.maxItems} ${this.#nouns}; reset the mock, or restart it with a larger --max-pets`,
      );
    }
    if (named !== undefined) return this.#createNamed(named, fields, parent);
    // The id after this one must still be an int64 (interface §2: id is int64), so that nextId stays one.
    if (typeof this.#nextId === 'bigint' && this.#nextId >= MAX_NEXT_ID) throw idsUsedUp();
    const id = this.#newId();
    const { item: stored, bytes } = freezeItem(this.#toStored(id, fields, parent));
    if (this.#bytes + bytes > this.maxBytes) throw storeBytesFull(this.#bytes, bytes, this.maxBytes);
    if (this.#rule.idKind !== 'uuid') this.#nextId = plusOne(this.#nextId);
    this.#insert(stored, bytes, parent);
    return stored;
  }

  /**
   * A create under the id the client named: refused when an item has it; the counter then continues above it, so
   * the store never hands it out (#insert). An int64 id below the highest goes to its place in id order.
   */
  #createNamed(named: ItemId, fields: NewItem, parent: ItemId | undefined): Item {
    const key = this.#keyFor(named);
    if (this.#byId.has(key)) throw idTaken(this.#rule.noun, named);
    const { item: stored, bytes } = freezeItem(this.#toStored(key, fields, parent));
    if (this.#bytes + bytes > this.maxBytes) throw storeBytesFull(this.#bytes, bytes, this.maxBytes);
    this.#insert(stored, bytes, parent);
    return stored;
  }

  #newId(): ItemId {
    if (this.#rule.idKind === 'uuid') {
      let id: string;
      do id = crypto.randomUUID();
      while (this.#byId.has(id));
      return id;
    }
    if (this.#rule.idKind === 'string') {
      // A seed may hold "7" already: the counter skips ids in use, so an id is never handed out twice.
      while (this.#byId.has(String(this.#nextId))) this.#nextId = plusOne(this.#nextId);
      return String(this.#nextId);
    }
    return this.#nextId;
  }

  /** Replaces an item with what `change` makes of it, id and parent kept; synchronous, so no write falls between. */
  async update(id: ItemId, change: (item: Item) => NewItem, parent?: ItemId): Promise<Item | undefined> {
    const current = this.#find(id, parent);
    if (current === undefined) return undefined;
    const key = this.#keyFor(id);
    const { item: stored, bytes } = freezeItem(
      this.#toStored(this.#idOf(current), change(current), this.#parentOf.get(key)),
    );
    const before = itemBytes(current);
    if (this.#bytes - before + bytes > this.maxBytes) throw storeBytesFull(this.#bytes - before, bytes, this.maxBytes);
    this.#bytes += bytes - before;
    this.#byId.set(key, stored);
    this.#all[this.#positionIn(this.#all, current)] = stored;
    for (const [property, index] of this.#indexes) {
      this.#removeFromIndex(index, property, current);
      this.#addToIndexInOrder(index, property, stored);
    }
    this.#dropPages();
    return stored;
  }

  async remove(id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    const current = this.#find(id, parent);
    if (current === undefined) return undefined;
    const key = this.#keyFor(id);
    // Left in place, in #all and the buckets (its #sequence too, which orders it there), until #compact.
    this.#dead.add(current);
    this.#deadIds.add(key);
    this.#byId.delete(key);
    this.#parentOf.delete(key);
    this.#bytes -= itemBytes(current);
    this.#dropPages();
    if (this.#dead.size >= this.#compactAt()) this.#compact();
    return current;
  }

  /**
   * How many dead items are swept out at once: an eighth of the array, so a sweep costs O(1) a delete, at most
   * 1024, so that a list skips at most that many before its page (deleting from the front puts them all there).
   */
  #compactAt(): number {
    return Math.min(1024, Math.max(8, this.#all.length >> 3));
  }

  /** Drops the dead items from #all and the buckets, in one pass each, and forgets their ids. */
  #compact(): void {
    if (this.#dead.size === 0) return;
    const live = (item: Item) => !this.#dead.has(item);
    this.#all = this.#all.filter(live);
    for (const index of this.#indexes.values()) {
      for (const [value, bucket] of index) {
        const kept = bucket.filter(live);
        if (kept.length > 0) index.set(value, kept);
        else index.delete(value);
      }
    }
    for (const key of this.#deadIds) this.#sequence.delete(key);
    this.#dead.clear();
    this.#deadIds.clear();
  }

  /** Back to the seed: every item created since is gone and ids start again after the seed's highest. */
  async reset(): Promise<void> {
    this.#load(this.#seed, this.#seedParents, 1);
  }

  async reseed(seed: readonly Item[], parents?: readonly ItemId[]): Promise<void> {
    const sorted = this.#sorted(seed, parents);
    if (sorted.items.length > this.maxItems) throw this.#tooMany(sorted.items.length);
    this.#checkBytes(sorted.items);
    this.#seed = sorted.items;
    this.#seedParents = sorted.parents;
    this.#load(sorted.items, sorted.parents, 1);
  }

  /** The whole state, for the admin API and persistence. The items are the store's own frozen objects. */
  async snapshot(): Promise<CollectionSnapshot> {
    this.#compact();
    const snapshot: CollectionSnapshot = { items: this.#all.slice(), nextId: this.#nextId };
    if (this.#rule.nested && this.#rule.parentProperty === undefined) {
      snapshot.parents = this.#all.map((item) => this.#parentOf.get(keyOf(this.#idOf(item)))!);
    }
    return snapshot;
  }

  /**
   * Replaces the whole state with a snapshot whose items are already checked against the item schema (ids unique).
   * `nextId` never goes below the highest id + 1, so a created item can never take an existing id.
   * Throws a 409 `store_full` ApiError, changing nothing, when the snapshot holds more than `maxItems` items.
   */
  async restore(snapshot: CollectionSnapshot): Promise<void> {
    if (snapshot.items.length > this.maxItems) throw this.#tooMany(snapshot.items.length);
    const sorted = this.#sorted(snapshot.items, snapshot.parents);
    this.#checkBytes(sorted.items);
    this.#load(sorted.items, sorted.parents, snapshot.nextId);
  }

  /** Nothing to release: no connections, no timers. */
  async close(): Promise<void> {}

  #idOf(item: Item): ItemId {
    return item[this.#rule.idProperty] as ItemId;
  }

  /** A string of digits finds an int64 id (a path parameter declared as a string), and a bigint its number form. */
  #keyFor(id: ItemId): IdKey {
    if (this.#rule.idKind === 'int64' && typeof id === 'string' && /^-?\d+$/.test(id)) return toInteger(id);
    return keyOf(id);
  }

  /** Where `item` is in `items` (list-ordered: the store's array or an index bucket), by binary search; −1 if absent. */
  #positionIn(items: readonly Item[], item: Item): number {
    const at = this.#insertionPoint(items, item);
    return items[at] !== undefined && this.#compareOrder(items[at], item) === 0 ? at : -1;
  }

  /** The first place in `items` whose item does not come before `item` in list order. */
  #insertionPoint(items: readonly Item[], item: Item): number {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#compareOrder(items[middle]!, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** List order: ascending int64 ids; creation order for string and UUID ids. */
  #compareOrder(a: Item, b: Item): number {
    if (!this.#bySequence) return compareInt64(this.#idOf(a) as Int64, this.#idOf(b) as Int64);
    return this.#sequence.get(keyOf(this.#idOf(a)))! - this.#sequence.get(keyOf(this.#idOf(b)))!;
  }

  #removeFromIndex(index: Map<string, Item[]>, property: string, item: Item): void {
    const value = item[property];
    if (value === undefined) return;
    const key = valueKey(value);
    const bucket = index.get(key);
    const at = bucket ? this.#positionIn(bucket, item) : -1;
    if (at < 0) return;
    bucket!.splice(at, 1);
    if (bucket!.length === 0) index.delete(key);
  }

  /** A replaced item goes back to its place in list order (its id, hence its place, is unchanged). */
  #addToIndexInOrder(index: Map<string, Item[]>, property: string, item: Item): void {
    const value = item[property];
    if (value === undefined) return;
    const key = valueKey(value);
    const bucket = index.get(key);
    if (bucket) bucket.splice(this.#insertionPoint(bucket, item), 0, item);
    else index.set(key, [item]);
  }

  /** The item as stored: the id first, the parent's property next, then the rule's fields in order (others dropped). */
  #toStored(id: ItemId, fields: NewItem, parent: ItemId | undefined): Record<string, unknown> {
    const { idProperty, parentProperty } = this.#rule;
    // Assigned, not a computed key in a literal: V8 defines those through the runtime, on every create.
    const stored: Record<string, unknown> = {};
    stored[idProperty] = typeof id === 'bigint' ? normaliseInteger(id) : id;
    if (parentProperty !== undefined && parent !== undefined) stored[parentProperty] = parent;
    for (const name of this.#rule.fields ?? Object.keys(fields)) {
      if (name === idProperty || name === parentProperty) continue;
      const value = fields[name];
      if (value !== undefined) stored[name] = deepFreeze(value);
    }
    return stored;
  }

  /** Items in list order (by id for int64 ids, as given otherwise), each stored by the rule, with their parents. */
  #sorted(items: readonly Item[], parents: readonly ItemId[] | undefined) {
    const pairs = items.map((item, index) => ({ item, parent: parents?.[index] ?? this.#parentIn(item) }));
    if (this.#rule.idKind === 'int64') {
      pairs.sort((a, b) => compareInt64(this.#idOf(a.item) as Int64, this.#idOf(b.item) as Int64));
    }
    return {
      items: pairs.map(({ item, parent }) => freezeItem(this.#toStored(this.#idOf(item), item, parent)).item),
      parents: this.#rule.nested ? pairs.map(({ parent }) => parent!) : undefined,
    };
  }

  #parentIn(item: Item): ItemId | undefined {
    const property = this.#rule.parentProperty;
    return property === undefined ? undefined : (item[property] as ItemId | undefined);
  }

  #dropPages(): void {
    this.#pages.clear();
    this.#pageBytes = 0;
  }

  #load(items: readonly Item[], parents: readonly ItemId[] | undefined, nextId: Int64): void {
    this.#byId.clear();
    this.#parentOf.clear();
    this.#sequence.clear();
    this.#dead.clear();
    this.#deadIds.clear();
    this.#all = [];
    // Cached pages assume items are only ever appended; a new state breaks that, and the indexes are of the old one.
    this.#dropPages();
    this.#indexes.clear();
    this.#bytes = 0;
    this.#nextId = 1;
    items.forEach((item, index) => {
      this.#insert(item, itemBytes(item), parents?.[index]);
      this.#nextId = maxInt64(this.#nextId, this.#counterAfter(this.#idOf(item)));
    });
    this.#nextId = maxInt64(this.#nextId, nextId);
  }

  /** The counter after an id: one above an int64 id or a string of digits; 1 for any other string. */
  #counterAfter(id: ItemId): Int64 {
    if (typeof id !== 'string') return plusOne(id);
    return /^(0|[1-9]\d{0,18})$/.test(id) && BigInt(id) < MAX_NEXT_ID ? plusOne(toInteger(id)) : 1;
  }

  #insert(item: Item, bytes: number, parent: ItemId | undefined): void {
    const id = this.#idOf(item);
    // An id a dead item still holds (a string id given again): swept first, so that no two items share an order.
    if (this.#deadIds.has(keyOf(id))) this.#compact();
    this.#bytes += bytes;
    this.#byId.set(keyOf(id), item);
    if (parent !== undefined) this.#parentOf.set(keyOf(id), parent);
    if (this.#bySequence) this.#sequence.set(keyOf(id), this.#nextSequence++);
    const last = this.#all.at(-1);
    if (last !== undefined && this.#compareOrder(last, item) > 0) {
      // A client-named id below the highest: its place in id order; cached pages assumed appends only.
      this.#all.splice(this.#insertionPoint(this.#all, item), 0, item);
      for (const [property, index] of this.#indexes) this.#addToIndexInOrder(index, property, item);
      this.#dropPages();
    } else {
      this.#all.push(item);
      for (const [property, index] of this.#indexes) addToIndex(index, property, item);
    }
    if (typeof id !== 'string') this.#nextId = maxInt64(this.#nextId, counterAfterNamed(id) ?? 1);
  }

  #tooMany(count: number) {
    return apiError(
      'store_full',
      `the snapshot holds ${count} ${this.#nouns}, more than this mock's maximum of ${this.maxItems} (--max-pets)`,
    );
  }

  /** A snapshot or seed past the byte budget is refused whole (409 `store_full`), changing nothing. */
  #checkBytes(items: readonly Item[]): void {
    const bytes = totalBytes(items);
    if (bytes > this.maxBytes) {
      throw apiError(
        'store_full',
        `the snapshot holds ${bytes} bytes of ${this.#nouns}, more than this mock's budget of ${this.maxBytes} bytes (--max-store-bytes)`,
      );
    }
  }
}

/** The one in-memory form of an id: a bigint in the safe range is the number (int64.ts). */
function keyOf(id: ItemId): IdKey {
  return typeof id === 'bigint' ? normaliseInteger(id) : id;
}

function sameId(a: ItemId | undefined, b: ItemId): boolean {
  return a !== undefined && valueKey(a) === valueKey(b);
}

/**
 * How filters compare: a string as it is, anything else as its JSON text, so a query's `5` finds a stored 5 and a
 * stored "5" alike (a query string carries no type; the parameter's schema has checked it already).
 */
function valueKey(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

function matchesFilter(item: Item, filter: ListFilter): boolean {
  const value = item[filter.property];
  if (value === undefined) return false;
  const key = valueKey(value);
  return filter.values.some((wanted) => valueKey(wanted) === key);
}

function addToIndex(index: Map<string, Item[]>, property: string, item: Item): void {
  const value = item[property];
  if (value === undefined) return;
  const key = valueKey(value);
  const bucket = index.get(key);
  if (bucket) bucket.push(item);
  else index.set(key, [item]);
}

/**
 * A page frozen with its text: its items' texts joined, O(limit) string work once per page, not once per request.
 * A page with a large item (no attached text, see store-bytes.ts) gets none: its reply is serialised when sent.
 */
function freezePage(page: Item[]): readonly Item[] {
  const texts = page.map(attachedJsonText);
  const text = texts.every((one) => one !== undefined) ? `[${texts.join(',')}]` : undefined;
  return text === undefined ? Object.freeze(page) : freezeWithJsonText(page, text);
}

/** Stored values are frozen all the way down: an array or object in an item cannot be changed by a reader. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

function totalBytes(items: readonly Item[]): number {
  let bytes = 0;
  for (const item of items) bytes += itemBytes(item);
  return bytes;
}
