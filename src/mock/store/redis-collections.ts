import type { Spec } from '../../openapi/spec.js';
import type { ResourceModel } from '../../openapi/resource-types.js';
import { UsageError } from '../../input-errors.js';
import { apiError } from '../../errors.js';
import type { Int64 } from '../../json/int64.js';
import { RedisPetStore, type RedisStoreOptions } from './redis.js';
import { CollectionsStore, type ResourceStore, type StoreSeeds } from './resource-store.js';
import { collectionRules } from './collection-rules.js';
import type { CollectionSnapshot, CollectionStore, Item, ItemId, ListQuery, NewItem, Pet } from './pet-store.js';

/** The one collection key layout 2 holds: its fields, roles and filter (redis.ts, redis-scripts.ts). */
const LAYOUT_2_FIELDS = ['name', 'categoryId', 'status'];
const LAYOUT_2_ROLES = ['list', 'create', 'read'];

/**
 * The Redis store: key layout 2 holds one collection shaped as v1's pets (fields `name`, `categoryId`, `status`,
 * an int64 `id`, the `status` filter; list, create and read). A document asking for more is refused at start with
 * what it asks for, never served by a store that would drop it (docs/mock.md: Your document, your resources).
 */
export async function openRedisStore(
  url: string,
  spec: Spec,
  seeds: StoreSeeds,
  options: RedisStoreOptions,
): Promise<ResourceStore> {
  const [collection] = checkLayout(spec.resources);
  const seed = seeds.get(collection) ?? { items: [] };
  const redis = await RedisPetStore.connect(url, seed.items as Pet[], options);
  const store = new CollectionsStore(
    'redis',
    redis.maxPets,
    (name) => {
      if (name !== collection) throw apiError('internal_error', `the Redis store holds ${collection} only`);
      return new RedisCollection(redis);
    },
    { rules: collectionRules(spec.resources), seeds },
  );
  return Object.assign(store, { redis });
}

function checkLayout(model: ResourceModel): [string] {
  const refuse = (what: string) =>
    new UsageError(
      `the Redis store (key layout 2) holds one collection of v1's shape (list, create and read; fields ${LAYOUT_2_FIELDS.join(', ')}; an int64 id; the status filter), and this document has ${what}; use the memory store (--state keeps it in a file)`,
    );
  if (model.collections.length !== 1) {
    throw refuse(`${model.collections.length} collections (${model.collections.map((c) => c.name).join(', ')})`);
  }
  const [collection] = model.collections as [ResourceModel['collections'][number]];
  const roles = Object.keys(collection.operations).filter((role) => !LAYOUT_2_ROLES.includes(role));
  if (roles.length > 0) throw refuse(`the roles ${roles.join(', ')} on ${collection.name}`);
  if (collection.id.property !== 'id' || collection.id.kind !== 'int64') {
    throw refuse(`a ${collection.id.kind} id in ${collection.id.property}`);
  }
  const fields = (collection.itemProperties ?? []).filter((name) => name !== 'id');
  const extra = fields.filter((name) => !LAYOUT_2_FIELDS.includes(name));
  if (collection.itemProperties === undefined || extra.length > 0) {
    throw refuse(`the fields ${extra.join(', ') || '(unknown: oneOf/anyOf)'} on ${collection.name}`);
  }
  const filters = collection.filters.filter((filter) => filter.property !== 'status');
  if (filters.length > 0) throw refuse(`the filters ${filters.map((f) => f.parameter).join(', ')}`);
  return [collection.name];
}

/** Layout 2's pets as a collection store: its list, lookup and create; no replace or delete (refused at start). */
class RedisCollection implements CollectionStore {
  readonly kind = 'redis';
  readonly maxPets: number;
  readonly #redis: RedisPetStore;

  constructor(redis: RedisPetStore) {
    this.#redis = redis;
    this.maxPets = redis.maxPets;
  }

  list(query: ListQuery): Promise<readonly Item[]> {
    const status = query.filters?.find((filter) => filter.property === 'status')?.values[0];
    return this.#redis.list({ limit: query.limit ?? this.maxPets, status: status as string | undefined });
  }

  get(id: ItemId): Promise<Item | undefined> {
    return this.#redis.get(id as Int64);
  }

  create(item: NewItem): Promise<Item> {
    return this.#redis.create(item as unknown as Pet);
  }

  update(): Promise<Item | undefined> {
    return Promise.reject(apiError('internal_error', 'the Redis store (key layout 2) cannot replace items'));
  }

  remove(): Promise<Item | undefined> {
    return Promise.reject(apiError('internal_error', 'the Redis store (key layout 2) cannot delete items'));
  }

  count(): Promise<number> {
    return this.#redis.count();
  }

  reset(): Promise<void> {
    return this.#redis.reset();
  }

  reseed(seed: readonly Item[]): Promise<void> {
    return this.#redis.reseed(seed as Pet[]);
  }

  async snapshot(): Promise<CollectionSnapshot> {
    const { pets, nextId } = await this.#redis.snapshot();
    return { items: pets, nextId };
  }

  restore(snapshot: CollectionSnapshot): Promise<void> {
    return this.#redis.restore({ pets: snapshot.items as Pet[], nextId: snapshot.nextId });
  }

  close(): Promise<void> {
    return this.#redis.close();
  }
}
