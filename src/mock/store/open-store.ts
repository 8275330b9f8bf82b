import { UsageError } from '../../input-errors.js';
import { defaultMaxStoreBytes } from './heap-budget.js';
import type { Spec } from '../../openapi/spec.js';
import type { RedisStore } from './redis.js';
import type { ResourceStore, StoreSeeds } from './resource-store.js';
import { memoryStore } from './memory-store.js';
import { checkPrefix, isRedisUrl } from './redis-url.js';

export interface StoreChoice {
  /**
   * Where the pets live: `memory` (the default; one process) or `redis://[user:pass@]host:port[/db]` (`rediss://`
   * for TLS): one store shared by every mock pointed at the same Redis and prefix. Default: `PETSTORE_STORE`, else
   * `memory`.
   */
  store?: string;
  /** Namespace of the Redis keys, so several mocks can share one Redis; default `petstore`. Redis only. */
  storePrefix?: string;
  /** The most pets the store holds, seed included. */
  maxPets?: number;
  /**
   * The most bytes of pets (their JSON text) the store holds (`--max-store-bytes`); a create beyond it gets 409
   * `store_full`. Default: memory, a quarter of V8's heap limit, at most 256 MiB; Redis, 256 MiB across replicas.
   */
  maxStoreBytes?: number;
  /** A `--state` file: for the memory store only. */
  state?: string;
}

/**
 * The store the options ask for (`store`, else `PETSTORE_STORE`, else memory), holding every collection of the
 * document, each with its seed when new.
 */
export async function openStore(options: StoreChoice, spec: Spec, seeds: StoreSeeds): Promise<ResourceStore> {
  const choice = (options.store ?? process.env.PETSTORE_STORE ?? '').trim() || 'memory';
  if (choice === 'memory') {
    if (options.storePrefix !== undefined)
      throw new UsageError(
        '--store-prefix is for a Redis store (--store redis://…); the memory store has no keys to prefix',
      );
    return memoryStore(spec, seeds, {
      maxItems: options.maxPets,
      maxBytes: options.maxStoreBytes ?? defaultMaxStoreBytes(),
    });
  }
  if (!isRedisUrl(choice)) {
    // The value may hold a password: name the rule, not the value.
    throw new UsageError('--store must be "memory" or a Redis URL (redis://[user:pass@]host:port[/db] or rediss://…)');
  }
  if (options.state !== undefined) {
    throw new UsageError(
      '--state keeps a memory store in a file; a Redis store keeps its pets in Redis (use Redis persistence), so give --state or --store redis://…, not both',
    );
  }
  if (options.storePrefix !== undefined) checkPrefix(options.storePrefix);
  // Loaded only when asked for: a memory mock never loads the Redis client.
  const { openRedisStore } = await import('./redis-collections.js');
  return openRedisStore(choice, spec, seeds, {
    prefix: options.storePrefix,
    maxItems: options.maxPets,
    maxBytes: options.maxStoreBytes,
  });
}

/** One line about the store for the start-up banner; a Redis URL without its credentials. */
export function describeStore(store: ResourceStore): string {
  if (store.kind !== 'redis') return 'memory (this process only)';
  const redis = (store as unknown as { redis: RedisStore }).redis;
  const how = redis.seeded ? 'seeded by this replica' : 'joined the existing store';
  return `redis ${redis.where}, prefix "${redis.prefix}" (shared by every replica with the same URL and prefix; ${how})`;
}
