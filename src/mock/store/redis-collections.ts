import type { Spec } from '../../openapi/spec.js';
import { RedisStore, type RedisStoreOptions } from './redis.js';
import { CollectionsStore, type ResourceStore, type StoreSeeds } from './resource-store.js';
import { collectionRules } from './collection-rules.js';
import type {
  CollectionRule,
  CollectionSnapshot,
  CollectionStore,
  Item,
  ItemId,
  ListQuery,
  NewItem,
} from './collection-store.js';

/**
 * The Redis store (key layout 3, redis-scripts.ts): every collection of the document, with its rule and seed. A
 * store in key layout 2 (one collection of v1 pets) is upgraded in place when the document has a `pets`
 * collection that layout 2's pets fit (int64 ids in `id`, a `status` filter or none, no filter on a field layout 2
 * kept unindexed); otherwise the start is refused in one line (docs/reliability.md).
 */
export async function openRedisStore(
  url: string,
  spec: Spec,
  seeds: StoreSeeds,
  options: RedisStoreOptions,
): Promise<ResourceStore> {
  const rules = collectionRules(spec.resources);
  const redis = await RedisStore.connectCollections(
    url,
    [...rules].map(([name, rule]) => ({ name, rule, seed: seeds.get(name) ?? { items: [] } })),
    { ...options, upgradeLayout2To: layout2Fits(rules.get('pets')) ? 'pets' : undefined },
  );
  const store = new RedisCollectionsStore(redis, (name, rule) => new RedisCollection(redis, name, rule), {
    rules,
    seeds,
    removesNested: true,
  });
  return Object.assign(store, { redis });
}

/** Layout 2's pets (ids, names, categoryIds, statuses, the status sets) are this collection's, nothing missing. */
function layout2Fits(rule: CollectionRule | undefined): boolean {
  if (rule === undefined || rule.idProperty !== 'id' || rule.idKind !== 'int64' || rule.nested) return false;
  // Layout 2 kept sets for status only: a filter on another field it stored would miss the old pets.
  return (rule.filters ?? []).every((property) => !['name', 'categoryId'].includes(property));
}

/** Every collection on one Redis store: a reset is one script for all of them, at one instant. */
class RedisCollectionsStore extends CollectionsStore {
  readonly #redis: RedisStore;

  constructor(
    redis: RedisStore,
    factory: (name: string, rule: CollectionRule) => CollectionStore,
    parts: ConstructorParameters<typeof CollectionsStore>[3],
  ) {
    super('redis', redis.maxItems, factory, { ...parts, close: () => redis.close() });
    this.#redis = redis;
  }

  override async reset(): Promise<void> {
    await this.#redis.resetAll();
  }
}

/** One collection of the Redis store, as the handlers see every store. */
class RedisCollection implements CollectionStore {
  readonly kind = 'redis';
  readonly maxItems: number;
  readonly #redis: RedisStore;
  readonly #name: string;

  constructor(redis: RedisStore, name: string, rule: CollectionRule) {
    this.#redis = redis;
    this.#name = name;
    this.maxItems = redis.maxItems;
    redis.define(name, rule);
  }

  /** The rule new items are made by; a reload of the document may change it (stored items stay as they are). */
  get rule(): CollectionRule {
    return this.#redis.ruleOf(this.#name);
  }

  set rule(rule: CollectionRule) {
    this.#redis.define(this.#name, rule);
  }

  list(query: ListQuery): Promise<readonly Item[]> {
    return this.#redis.listIn(this.#name, query);
  }

  get(id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    return this.#redis.getIn(this.#name, id, parent);
  }

  create(item: NewItem, parent?: ItemId, id?: ItemId): Promise<Item> {
    return this.#redis.createIn(this.#name, item, parent, id);
  }

  update(id: ItemId, change: (item: Item) => NewItem, parent?: ItemId): Promise<Item | undefined> {
    return this.#redis.updateIn(this.#name, id, change, parent);
  }

  remove(id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    return this.#redis.removeIn(this.#name, id, parent);
  }

  count(): Promise<number> {
    return this.#redis.countIn(this.#name);
  }

  reset(): Promise<void> {
    return this.#redis.resetIn([this.#name]);
  }

  reseed(seed: readonly Item[], parents?: readonly ItemId[]): Promise<void> {
    return this.#redis.reseedIn(this.#name, seed, parents);
  }

  snapshot(): Promise<CollectionSnapshot> {
    return this.#redis.snapshotIn(this.#name);
  }

  restore(snapshot: CollectionSnapshot): Promise<void> {
    return this.#redis.restoreIn(this.#name, snapshot);
  }

  /** The store closes the one connection once (RedisCollectionsStore). */
  async close(): Promise<void> {}
}
