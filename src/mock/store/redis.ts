import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createClient, ErrorReply, type RedisClientType } from '@redis/client';
import { apiError, isApiError, type ApiError } from '../../errors.js';
import { freezeWithJsonText } from '../base/json-text.js';
import { InputError } from '../../input-errors.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { parseJson } from '../../json/parse-json.js';
import { toInteger, type Int64 } from '../../json/int64.js';
import {
  DEFAULT_MAX_ITEMS,
  counterAfterNamed,
  idsUsedUp,
  idTaken,
  MAX_NEXT_ID,
  type CollectionRule,
  type CollectionSnapshot,
  type Item,
  type ItemId,
  type ListQuery as CollectionQuery,
  type NewItem,
  type NewPet,
  type Pet,
} from './collection-store.js';
import type { CollectionSeed } from './resource-store.js';
import { checkPrefix, checkRedisUrl, redactRedisUrl } from './redis-url.js';
import * as scripts from './redis-scripts.js';
import {
  collectionKey,
  filterSuffix,
  filterSuffixes,
  memberFor,
  parentSuffix,
  parseItem,
  parsePage,
  recordsOf,
  storedItem,
  type Records,
} from './redis-layout.js';

/** The v1 shortcut's list query: a limit and the `status` filter. */
export interface ListQuery {
  limit: number;
  status?: string | undefined;
}

/** The v1 shortcut's whole state of the first collection: its pets and the next id. */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: Int64;
}

/** One collection the store holds: its name, the rule its items are made by (filters and parent included), its seed. */
export interface RedisCollectionDef {
  name: string;
  rule: CollectionRule;
  seed: CollectionSeed;
}

/** v1's pets, as `connect` with a list of pets holds them. */
export const V1_PETS_RULE: CollectionRule = Object.freeze({
  idProperty: 'id',
  idKind: 'int64',
  fields: Object.freeze(['name', 'categoryId', 'status']),
  filters: Object.freeze(['status']),
  noun: 'pet',
});

/** The Redis store could not be reached or used at start-up: the CLI prints the one line and exits 1. */
export class StoreStartError extends InputError {}

export interface RedisStoreOptions {
  /** Namespace of every key (`--store-prefix`), so several mocks can share one Redis; default `petstore`. */
  prefix?: string;
  /** The most items each collection holds, seed included, enforced across replicas; default DEFAULT_MAX_ITEMS. */
  maxItems?: number;
  /** @deprecated v1's name of `maxItems`, still read when `maxItems` is not given. */
  maxPets?: number;
  /** The most bytes of items (UTF-8 JSON text) each collection holds, enforced across replicas; default 256 MiB. */
  maxBytes?: number;
  /**
   * How long one store call may take before the request is answered 503 `store_unavailable` (ms); default 2,000.
   * Bounds the wait when Redis hangs; a Redis that is down fails at once (no offline queue).
   */
  timeoutMs?: number;
  /** How long connecting may take, at start and on each reconnect (ms); default 2,000. */
  connectTimeoutMs?: number;
  /** Told, in one line, when Redis is lost and when it is back, and when the seed is written; default stderr. */
  log?: (line: string) => void;
  /**
   * A store in key layout 2 (one collection of v1 pets, written by petstore-kit before layout 3) is upgraded in
   * place when this names the collection its pets become (`pets`); otherwise it is refused in one line.
   */
  upgradeLayout2To?: string | undefined;
}

/** The default byte budget: the whole store must still fit one JSON text for `snapshot()` (`GET /__admin/state`). */
export const DEFAULT_REDIS_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_STORE_PREFIX = 'petstore';
/** How long a Redis command (and a connection attempt) may take before the request gets 503 store_unavailable. */
export const REDIS_TIMEOUT_MS = 2_000;
/** Reconnecting once running: the first retry after this many milliseconds, doubling up to RECONNECT_MAX_MS. */
export const RECONNECT_MIN_MS = 50;
export const RECONNECT_MAX_MS = 1_000;
/** The key layout's version (redis-scripts.ts): a store written in another layout is refused or upgraded, not misread. */
// Layout 3 holds every collection of the document; layout 2 held one collection of v1 pets; layout 1 scored ids by
// a double.
const FORMAT = '3';
/** The deadline of a call on the whole store (a 250,000-item restore or snapshot is one script). */
const BULK_TIMEOUT_MS = 30_000;
/** How often an update computed from an item another replica changed meanwhile is computed again. */
const MAX_UPDATE_ATTEMPTS = 100;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const INIT = script(scripts.INIT);
const UPGRADE_2 = script(scripts.UPGRADE_2);
const CREATE = script(scripts.CREATE);
const LIST = script(scripts.LIST);
const GET = script(scripts.GET);
const UPDATE = script(scripts.UPDATE);
const DELETE = script(scripts.DELETE);
const COUNT = script(scripts.COUNT);
const RESET = script(scripts.RESET);
const RESEED = script(scripts.RESEED);
const RESTORE = script(scripts.RESTORE);
const SNAPSHOT = script(scripts.SNAPSHOT);
/** The scripts a request runs: the short deadline. Whole-store ones get BULK_TIMEOUT_MS. */
const REQUEST_SCRIPTS = new Set([CREATE, LIST, GET, UPDATE, DELETE, COUNT]);

/** A collection as this replica knows it: its definition, its key, its seed's records. */
interface Held extends RedisCollectionDef {
  key: string;
  records: Records;
}

/** The item changed between its read and its update (or a UUID was taken): the caller tries again. */
class Conflict extends Error {}

/**
 * The CREATE script's arguments for an id the client named (four "" for none): its JSON text, its member, the
 * counter after it (counterAfterNamed, as digits; "" for a string or negative id) and its own text when negative.
 */
function namedIdArgs(rule: CollectionRule, named: ItemId | undefined): string[] {
  if (named === undefined) return ['', '', '', ''];
  const member = memberFor(rule.idKind, named);
  if (member === undefined) throw new RangeError(`${rule.noun ?? 'item'} id ${String(named)} is not an int64`);
  const after = typeof named === 'string' ? undefined : counterAfterNamed(named);
  return [
    stringifyJson(named),
    member,
    after === undefined ? '' : String(after),
    member.startsWith('n') ? String(named) : '',
  ];
}

/**
 * A store shared by every mock replica that points at the same Redis and prefix, holding every collection of the
 * document (key layout 3, redis-scripts.ts). Each operation is one round trip: a Lua script (atomic) or a single
 * command. Ids come from one counter per collection in Redis, so they are unique across replicas; a write resolves
 * only once Redis has executed it. Lists read a sorted set by rank and the items' texts by member: O(log N + limit)
 * for no filter or one filter value, never a scan. While Redis is unreachable every call rejects at once (or after
 * `timeoutMs` when it hangs) with a 503 `store_unavailable`, and the client reconnects by itself. The methods without
 * a collection (`list`, `get`, `create`, …) are the first collection's, as the v1 store had them.
 * @example const store = await RedisStore.connect('redis://127.0.0.1:6379', seed); await store.count();
 */
export class RedisStore {
  readonly kind = 'redis';
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly prefix: string;
  /** The URL without credentials, for the banner and log lines. */
  readonly where: string;
  /** True when this replica wrote the seed at start-up (the store was empty); false when it joined a store. */
  seeded = false;
  /** True when this replica's start upgraded a store in key layout 2 to layout 3. */
  upgraded = false;
  #client: RedisClientType;
  #newClient: () => RedisClientType;
  #held = new Map<string, Held>();
  #timeoutMs: number;
  #log: (line: string) => void;
  #down: string | undefined;
  /** Set once a call found the store without its data (logged once), cleared when it holds data again. */
  #emptied = false;
  /** The life of the store this replica joined (redis-scripts.ts, P:epoch); '' when it started on a lost store. */
  #epoch = '';
  #closed = false;
  // Until the start-up succeeded a failure is the one StoreStartError line, not a log line too.
  #started = false;

  private constructor(url: string, where: string, options: RedisStoreOptions) {
    this.where = where;
    this.prefix = options.prefix ?? DEFAULT_STORE_PREFIX;
    this.maxItems = options.maxItems ?? options.maxPets ?? DEFAULT_MAX_ITEMS;
    this.maxBytes = options.maxBytes ?? DEFAULT_REDIS_MAX_BYTES;
    if (!Number.isSafeInteger(this.maxBytes) || this.maxBytes < 1)
      throw new RangeError(`maxBytes must be a whole number of at least 1 (got ${this.maxBytes})`);
    this.#timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
    this.#log = options.log ?? ((line) => console.error(line));
    this.#newClient = () =>
      createClient({
        url,
        // Without a queue a command issued while Redis is away fails at once (503) instead of waiting for it.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: options.connectTimeoutMs ?? REDIS_TIMEOUT_MS,
          // At start a failure is final (exit 1, one line); once running, retry quickly and for ever.
          reconnectStrategy: (retries, cause) =>
            this.#started ? Math.min(RECONNECT_MIN_MS * 2 ** Math.min(retries, 5), RECONNECT_MAX_MS) : cause,
        },
        commandOptions: { timeout: this.#timeoutMs },
      });
    this.#client = this.#attach(this.#newClient());
  }

  /** Outage and recovery lines come from the current client only, not from one being replaced. */
  #attach(client: RedisClientType): RedisClientType {
    client.on('error', (error: Error) => client === this.#client && this.#lost(error));
    client.on('ready', () => client === this.#client && this.#back());
    return client;
  }

  /**
   * A connection that says it is ready but answers nothing within the deadline is not trusted again: a fresh client
   * takes its place (and reconnects by itself), the old one is dropped with whatever it still waits for.
   */
  #replaceClient(): void {
    if (this.#closed) return;
    const stale = this.#client;
    this.#client = this.#attach(this.#newClient());
    if (stale.isOpen) stale.destroy();
    this.#client.connect().catch(() => undefined);
  }

  /**
   * Connects to `url` (`redis://[user:pass@]host:port[/db]`, or `rediss://` for TLS) holding v1's pets, and writes
   * `seed` when the store under the prefix is empty (see `connectCollections`).
   */
  static connect(url: string, seed: readonly Pet[], options: RedisStoreOptions = {}): Promise<RedisStore> {
    return RedisStore.connectCollections(url, [{ name: 'pets', rule: V1_PETS_RULE, seed: { items: seed } }], {
      upgradeLayout2To: 'pets',
      ...options,
    });
  }

  /**
   * Connects to `url` holding `collections`, and writes their seeds when the store under the prefix is empty: one
   * atomic script, so of several replicas starting at once exactly one seeds. Rejects with a StoreStartError (one
   * line, no credentials) when Redis cannot be reached or used, or holds another key layout it does not upgrade.
   */
  static async connectCollections(
    url: string,
    collections: readonly RedisCollectionDef[],
    options: RedisStoreOptions = {},
  ): Promise<RedisStore> {
    checkRedisUrl(url);
    const where = redactRedisUrl(url);
    const prefix = options.prefix ?? DEFAULT_STORE_PREFIX;
    checkPrefix(prefix);
    const maxItems = options.maxItems ?? options.maxPets ?? DEFAULT_MAX_ITEMS;
    if (!Number.isSafeInteger(maxItems) || maxItems < 1)
      throw new RangeError(`maxPets must be a whole number of at least 1 (got ${maxItems})`);
    const maxBytes = options.maxBytes ?? DEFAULT_REDIS_MAX_BYTES;
    const store = new RedisStore(url, where, options);
    for (const collection of collections) {
      const { items, parents } = collection.seed;
      const nouns = `${collection.rule.noun ?? 'item'}s`;
      if (items.length > maxItems)
        throw new RangeError(`the fixtures hold ${items.length} ${nouns}, more than maxPets (${maxItems})`);
      const records = recordsOf(collection.rule, items, parents);
      if (records.bytes > maxBytes)
        throw new RangeError(
          `the fixtures hold ${records.bytes} bytes of ${nouns}, more than maxStoreBytes (${maxBytes})`,
        );
      store.#held.set(collection.name, { ...collection, key: collectionKey(prefix, collection.name), records });
    }
    try {
      await store.#client.connect();
      store.#started = true;
      const seeds = store.#seedBlocks();
      const [state, epoch] = (await store
        .#eval(INIT, [FORMAT, ...seeds], undefined, newEpoch('seed'))
        .catch(async (error: unknown) => {
          const upgradeTo = options.upgradeLayout2To;
          if (layoutOf(error) !== '2' || upgradeTo === undefined || !store.#held.has(upgradeTo)) throw error;
          // Layout 2's pets become the collection named: one script, then the start goes on as on layout 3.
          const upgraded = await store.#eval(UPGRADE_2, [store.#held.get(upgradeTo)!.key, filterSuffix('status', '')]);
          store.upgraded = upgraded === 1;
          if (store.upgraded)
            store.#log(
              `petstore-kit: upgraded the Redis store at ${where} (prefix ${prefix}) from key layout 2 to 3: its pets are the ${upgradeTo} collection`,
            );
          return store.#eval(INIT, [FORMAT, ...seeds], undefined, newEpoch('seed'));
        })) as [number, string];
      store.seeded = state === 1;
      store.#epoch = epoch;
      if (state === 2) {
        store.#emptied = true;
        store.#log(
          `petstore-kit: the Redis store at ${where} (prefix ${prefix}) lost its data (a replica found it gone); this replica does not seed it again, and requests get 503 store_unavailable until a reset (POST /__admin/reset on any replica)`,
        );
      }
    } catch (error) {
      store.#closed = true;
      // The client may have closed itself already (a refused handshake); there is nothing more to release then.
      if (store.#client.isOpen) store.#client.destroy();
      const layout = layoutOf(error);
      if (layout !== undefined)
        throw new StoreStartError(
          `cannot use the Redis store at ${where}: its keys under prefix ${prefix} are in layout ${layout}, and this version reads layout ${FORMAT} (${layout === '2' ? "it upgrades layout 2 only for a document whose first collection is v1's pets, shaped as layout 2 kept them" : 'ids kept exactly to 2^63 − 1'}); use another --store-prefix, or delete those keys`,
        );
      throw new StoreStartError(`cannot use the Redis store at ${where}: ${reason(error)}`);
    }
    return store;
  }

  /** The names of the collections held, in the order given. */
  names(): string[] {
    return [...this.#held.keys()];
  }

  /** The rule a collection's new items are made by; a reload may change it (stored items stay as they are). */
  ruleOf(name: string): CollectionRule {
    return this.#collection(name).rule;
  }

  /** A reload's new rule for a collection (or a new collection, empty until created into: no seed is written). */
  define(name: string, rule: CollectionRule): void {
    const held = this.#held.get(name);
    if (held) held.rule = rule;
    else
      this.#held.set(name, {
        name,
        rule,
        seed: { items: [] },
        key: collectionKey(this.prefix, name),
        records: recordsOf(rule, [], undefined),
      });
  }

  /** How many items a collection holds. */
  async countIn(name: string): Promise<number> {
    return Number(await this.#eval(COUNT, [this.#collection(name).key], 'fail'));
  }

  /**
   * The first `limit` items in list order (ascending id) matching every filter (any of its values) and the parent:
   * one script.
   */
  async listIn(name: string, { limit, filters = [], parent }: CollectionQuery): Promise<readonly Item[]> {
    const held = this.#collection(name);
    const count = limit ?? this.maxItems;
    // ZRANGE key 0 -1 would be every item: a limit below 1 asks for none.
    if (!(count >= 1)) return freezeWithJsonText([] as Item[], '[]');
    const groups: string[][] = [];
    for (const filter of filters) {
      if (!(held.rule.filters ?? []).includes(filter.property))
        throw apiError('internal_error', `the Redis store keeps no filter on ${filter.property} in ${name}`);
      groups.push([...new Set(filter.values.map((value) => filterSuffix(filter.property, value)))]);
    }
    if (parent !== undefined) groups.push([parentSuffix(parent)]);
    const args = [held.key, String(Math.floor(count)), String(groups.length)];
    for (const group of groups) args.push(String(group.length), ...group);
    const texts = (await this.#eval(LIST, args, 'fail')) as (string | null)[];
    return parsePage(texts.filter((text): text is string => text !== null));
  }

  /** One HGET (and for a nested item one ZSCORE), in a script that first checks the store still holds its data. */
  async getIn(name: string, id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    const text = await this.#textOf(this.#collection(name), id, parent);
    return text === undefined ? undefined : parseItem(text);
  }

  async #textOf(held: Held, id: ItemId, parent: ItemId | undefined): Promise<string | undefined> {
    const member = memberFor(held.rule.idKind, id);
    if (member === undefined) return undefined;
    const args = [held.key, member, parent === undefined ? '' : parentSuffix(parent)];
    const text = (await this.#eval(GET, args, 'fail')) as string | null | undefined;
    return text ?? undefined;
  }

  /**
   * One script: the count and byte checks, the id from the collection's counter and every write, atomically.
   * Resolves once Redis has executed it; a 409 `store_full` takes no id and writes nothing.
   */
  async createIn(name: string, fields: NewItem, parent?: ItemId, named?: ItemId): Promise<Item> {
    const { key, rule } = this.#collection(name);
    const namedArgs = namedIdArgs(rule, named);
    // The item without its id: the script puts the id first (storedItem's order), so the text is made once, here.
    const body = storedItem(rule, undefined, fields, parent);
    const tail = stringifyJson(body).slice(1);
    const head = `{${stringifyJson(rule.idProperty)}:`;
    const suffixes = filterSuffixes(rule, body);
    if (parent !== undefined) suffixes.push(parentSuffix(parent));
    const parentText = parent === undefined ? '' : stringifyJson(parent);
    for (let attempt = 0; ; attempt += 1) {
      const uuid = rule.idKind === 'uuid' ? randomUUID() : '';
      const args = [key, String(this.maxItems), String(this.maxBytes), rule.idKind, head, tail, parentText, uuid];
      try {
        const created = await this.#eval(CREATE, [...args, ...namedArgs, ...suffixes], 'fail', '', false, rule.noun);
        return parseItem(String(created));
      } catch (error) {
        if (error instanceof Conflict && error.message === 'store_named') throw idTaken(rule.noun, named!);
        // A random UUID already in use: another one (2^122 of them; a second clash means something else is wrong).
        if (!(error instanceof Conflict) || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Replaces an item with what `change` makes of it (id and parent kept). The change is computed here from the
   * item's text and written by a script only if the item still has that text; when another replica changed it
   * meanwhile, it is read and computed again, so no write is lost and none is applied to an item it did not see.
   */
  async updateIn(
    name: string,
    id: ItemId,
    change: (item: Item) => NewItem,
    parent?: ItemId,
  ): Promise<Item | undefined> {
    const held = this.#collection(name);
    const { rule } = held;
    const member = memberFor(rule.idKind, id);
    if (member === undefined) return undefined;
    const parentArg = parent === undefined ? '' : parentSuffix(parent);
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
      const before = await this.#textOf(held, id, parent);
      if (before === undefined) return undefined;
      const current = parseItem(before);
      const owner =
        parent ?? (rule.parentProperty === undefined ? undefined : (current[rule.parentProperty] as ItemId));
      const next = storedItem(rule, current[rule.idProperty] as ItemId, change(current), owner);
      const text = stringifyJson(next);
      const args = [held.key, member, parentArg, before, text, String(this.maxBytes), ...filterSuffixes(rule, next)];
      try {
        const done = await this.#eval(UPDATE, args, 'fail', '', false, rule.noun);
        return done === 1 ? parseItem(text) : undefined;
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
      }
    }
    throw this.#unavailable(`the ${rule.noun ?? 'item'} kept changing under ${MAX_UPDATE_ATTEMPTS} updates`);
  }

  /** Removes an item and every item nested under it (any depth), in one script; the removed item, or undefined. */
  async removeIn(name: string, id: ItemId, parent?: ItemId): Promise<Item | undefined> {
    const held = this.#collection(name);
    const member = memberFor(held.rule.idKind, id);
    if (member === undefined) return undefined;
    const edges: string[] = [];
    for (const child of this.#held.values()) {
      const owner = child.rule.parentCollection === undefined ? undefined : this.#held.get(child.rule.parentCollection);
      if (owner) edges.push(owner.key, child.key);
    }
    const args = [held.key, member, parent === undefined ? '' : parentSuffix(parent), ...edges];
    const text = (await this.#eval(DELETE, args, 'fail')) as string | null | undefined;
    return text === null || text === undefined ? undefined : parseItem(text);
  }

  /**
   * Every collection back to its seed in Redis (written by the first replica), at one instant, for every replica.
   * The one way out of a store that lost its data: an operator's deliberate reset writes this replica's seeds again.
   */
  resetAll(): Promise<void> {
    return this.resetIn(this.names());
  }

  /** The collections named back to their seeds, at one instant. */
  async resetIn(names: readonly string[]): Promise<void> {
    const epoch = newEpoch('reset');
    await this.#eval(
      RESET,
      names.map((name) => this.#collection(name).key),
      'reseed',
      epoch,
    );
    this.#epoch = epoch;
  }

  /** Replaces a collection's shared seed (a fixtures reload on one replica) and resets every collection to its own. */
  async reseedIn(name: string, items: readonly Item[], parents?: readonly ItemId[]): Promise<void> {
    const held = this.#collection(name);
    if (items.length > this.maxItems) throw this.#tooMany(items.length, held.rule);
    const records = recordsOf(held.rule, items, parents);
    this.#checkBytes(records, held.rule);
    const epoch = newEpoch('reset');
    await this.#eval(RESEED, [FORMAT, ...block(held.key, records)], undefined, epoch);
    this.#epoch = epoch;
    held.seed = { items, parents };
    held.records = records;
  }

  /** A collection's items (list order), counter and parents, read in one script (one instant). */
  async snapshotIn(name: string): Promise<CollectionSnapshot> {
    const held = this.#collection(name);
    const [next, , size, ...rest] = (await this.#eval(SNAPSHOT, [held.key], 'fail')) as string[];
    const count = Number(size);
    const snapshot: CollectionSnapshot = {
      items: rest.slice(0, count).map(parseItem),
      nextId: toInteger(next ?? '1'),
    };
    if (held.rule.nested && held.rule.parentProperty === undefined) {
      snapshot.parents = rest.slice(count).map((text) => parseJson(text) as ItemId);
    }
    return snapshot;
  }

  /** Replaces a collection's whole state in one script; checked against the limits first, so a refusal changes nothing. */
  async restoreIn(name: string, snapshot: CollectionSnapshot): Promise<void> {
    const held = this.#collection(name);
    if (snapshot.items.length > this.maxItems) throw this.#tooMany(snapshot.items.length, held.rule);
    // nextId never below the highest id + 1, computed here exactly (the script does no arithmetic on ids).
    const records = recordsOf(held.rule, snapshot.items, snapshot.parents, snapshot.nextId);
    this.#checkBytes(records, held.rule);
    if (BigInt(records.next) > MAX_NEXT_ID) throw idsUsedUp();
    const epoch = newEpoch('reset');
    await this.#eval(RESTORE, block(held.key, records), 'fail', epoch);
    this.#epoch = epoch;
  }

  // v1's shortcuts: the first collection, as the layout-2 store had them.

  count(): Promise<number> {
    return this.countIn(this.#first());
  }

  list({ limit, status }: ListQuery): Promise<readonly Pet[]> {
    const filters = status === undefined || status === '' ? [] : [{ property: 'status', values: [status] }];
    return this.listIn(this.#first(), { limit, filters }) as Promise<readonly Pet[]>;
  }

  async get(id: Int64): Promise<Pet | undefined> {
    return (await this.getIn(this.#first(), id)) as Pet | undefined;
  }

  async create(pet: NewPet): Promise<Pet> {
    return (await this.createIn(this.#first(), pet)) as unknown as Pet;
  }

  reset(): Promise<void> {
    return this.resetAll();
  }

  reseed(seed: readonly Pet[]): Promise<void> {
    return this.reseedIn(this.#first(), seed);
  }

  async snapshot(): Promise<StoreSnapshot> {
    const { items, nextId } = await this.snapshotIn(this.#first());
    return { pets: items as unknown as Pet[], nextId };
  }

  restore(snapshot: StoreSnapshot): Promise<void> {
    return this.restoreIn(this.#first(), { items: snapshot.pets, nextId: snapshot.nextId });
  }

  #first(): string {
    const name = this.#held.keys().next().value;
    if (name === undefined) throw apiError('internal_error', 'the Redis store holds no collection');
    return name;
  }

  #collection(name: string): Held {
    const held = this.#held.get(name);
    if (!held) throw apiError('internal_error', `the Redis store holds no collection named ${name}`);
    return held;
  }

  /** Every collection's seed as INIT and a deliberate reset write it. */
  #seedBlocks(): string[] {
    return [...this.#held.values()].flatMap((held) => block(held.key, held.records));
  }

  #checkBytes(records: Records, rule: CollectionRule): void {
    if (records.bytes > this.maxBytes) {
      throw apiError(
        'store_full',
        `the snapshot holds ${records.bytes} bytes of ${rule.noun ?? 'item'}s, more than this mock's budget of ${this.maxBytes} bytes`,
      );
    }
  }

  #tooMany(count: number, rule: CollectionRule): ApiError {
    return apiError(
      'store_full',
      `the snapshot holds ${count} ${rule.noun ?? 'item'}s, more than this mock's maximum of ${this.maxItems} (--max-pets)`,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // close() lets replies in flight arrive, for at most the call deadline; destroy() when Redis is away (nothing
    // would ever arrive) or slow.
    if (this.#client.isReady) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.#timeoutMs)));
      const outcome = await Promise.race([this.#client.close().catch(() => 'late' as const), late]);
      clearTimeout(timer);
      if (outcome !== 'late') return;
    }
    if (this.#client.isOpen) this.#client.destroy();
  }

  /**
   * Runs a script by its SHA1 (EVALSHA), sending its source only when Redis does not know it (after a restart).
   * A store found without its data (Redis restarted without persistence): `fail` answers 503 and says so once in
   * the log, since writing the seed again would reuse the ids of acknowledged pets and answer them with other pets;
   * `reseed` (a deliberate reset) writes the seed again and runs the script once more. `epoch` is the one a
   * whole-store write writes (an operator's `reset:…`, or a start's `seed:…`). A store another replica's reset
   * wrote is followed: this replica takes its epoch and runs the script again.
   */
  async #eval(
    script: Script,
    args: string[],
    onEmpty?: 'fail' | 'reseed',
    epoch = '',
    following = false,
    noun = 'item',
  ): Promise<unknown> {
    try {
      // A request's own calls get the short deadline; whole-store ones (seed, reset, restore, snapshot) a long one.
      const timeoutMs = REQUEST_SCRIPTS.has(script) ? this.#timeoutMs : Math.max(this.#timeoutMs, BULK_TIMEOUT_MS);
      const result = await this.#call(() => this.#evalOnce(script, args, epoch), timeoutMs);
      if (onEmpty) this.#emptied = false;
      return result;
    } catch (error) {
      const refusal = scriptRefusal(error);
      if (refusal?.startsWith('store_epoch ') && !following) {
        this.#epoch = refusal.slice('store_epoch '.length);
        return this.#eval(script, args, onEmpty, epoch, true, noun);
      }
      if (refusal === 'store_changed' || refusal === 'store_taken' || refusal === 'store_named') {
        throw new Conflict(refusal);
      }
      if (!onEmpty || !refusal?.startsWith('store_empty')) throw this.#refusal(error, noun);
      if (onEmpty === 'fail') {
        if (!this.#emptied) {
          this.#emptied = true;
          this.#log(
            `petstore-kit: the Redis store at ${this.where} (prefix ${this.prefix}) lost its data (Redis restarted empty?); requests get 503 store_unavailable until a reset (POST /__admin/reset on any replica) writes the seed again`,
          );
        }
        throw apiError(
          'store_unavailable',
          `the shared store (Redis) lost its data: the items created before are gone, and new ids could repeat theirs; an operator must reset the mock (POST /__admin/reset) to start again from the seed`,
          { 'Retry-After': '1' },
        );
      }
      this.#log(
        `petstore-kit: the Redis store at ${this.where} (prefix ${this.prefix}) was empty (Redis lost its data); the reset wrote the seed again`,
      );
      const reopened = newEpoch('reset');
      const [, written] = (await this.#call(
        () => this.#evalOnce(INIT, [FORMAT, ...this.#seedBlocks()], reopened),
        Math.max(this.#timeoutMs, BULK_TIMEOUT_MS),
      )) as [number, string];
      this.#epoch = written;
      this.#emptied = false;
      return this.#eval(script, args, undefined, epoch, false, noun);
    }
  }

  async #evalOnce(script: Script, args: string[], epoch: string): Promise<unknown> {
    const all = [this.prefix, this.#epoch, epoch, ...args];
    try {
      return await this.#client.sendCommand(['EVALSHA', script.sha, '0', ...all]);
    } catch (error) {
      if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#client.sendCommand(['EVAL', script.source, '0', ...all]);
    }
  }

  /**
   * One store call with a deadline: node-redis times out a command only until it is written, so a Redis that
   * accepted the command and hangs would hold the request for ever. Past the deadline, or when the client has no
   * connection, the call rejects with 503 `store_unavailable`; a refusal from a script (ErrorReply) passes through.
   */
  async #call<T>(run: () => Promise<T>, timeoutMs = this.#timeoutMs): Promise<T> {
    if (!this.#client.isReady) throw this.#unavailable(this.#down ?? 'not connected');
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([run(), deadline]);
    } catch (error) {
      if (scriptRefusal(error)) throw error;
      // A reply such as LOADING or OOM comes over a working connection: 503 for this call, but no outage.
      if (!(error instanceof ErrorReply)) this.#lost(error);
      if (error instanceof DeadlineError && this.#client.isReady) this.#replaceClient();
      throw this.#unavailable(reason(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** A script's refusal as the API's error: `store_full` (409), else unavailable. */
  #refusal(error: unknown, noun: string): ApiError {
    if (isApiError(error)) return error;
    const [kind, what, ...numbers] = (scriptRefusal(error) ?? '').split(' ');
    if (kind === 'store_full') {
      if (what === 'count')
        return apiError(
          'store_full',
          `the store is full: it holds its maximum of ${this.maxItems} ${noun}s; reset the mock, or restart it with a larger --max-pets`,
        );
      if (what === 'ids') return idsUsedUp();
      return apiError(
        'store_full',
        `the store is full: it holds ${numbers[0]} bytes of ${noun}s and this one needs ${numbers[1]} more, past its budget of ${this.maxBytes} bytes; reset the mock`,
      );
    }
    return this.#unavailable(reason(error));
  }

  #unavailable(why: string): ApiError {
    return apiError('store_unavailable', `the shared store (Redis) is not available (${why}); try again shortly`, {
      'Retry-After': '1',
    });
  }

  /** One log line per outage, not one per failed request. */
  #lost(error: unknown): void {
    if (this.#closed || !this.#started || this.#down !== undefined) return;
    this.#down = reason(error);
    this.#log(
      `petstore-kit: lost the Redis store at ${this.where} (${this.#down}); requests get 503 store_unavailable until it returns`,
    );
  }

  #back(): void {
    if (this.#down === undefined) return;
    this.#down = undefined;
    this.#log(`petstore-kit: the Redis store at ${this.where} is back`);
    // A Redis that restarted may have come back empty: look at once, so that the loss is marked (redis-scripts.ts,
    // P:lost) before a replica restarted meanwhile could take the empty store for a new one and seed it.
    this.count().catch(() => undefined);
  }
}

/** A script's own refusal (\`store_full …\`, \`store_empty\`), without the "ERR " Redis may put before it. */
function scriptRefusal(error: unknown): string | undefined {
  if (!(error instanceof ErrorReply)) return undefined;
  return /^(?:ERR )?(store_.*)$/s.exec(error.message)?.[1];
}

/** A new life of the store: `seed:` for a start's seed, `reset:` for an operator's whole-store write. */
function newEpoch(kind: 'seed' | 'reset'): string {
  return `${kind}:${randomBytes(8).toString('hex')}`;
}

/** A store call that outlived its deadline. */
class DeadlineError extends Error {}

/** A collection's block as INIT, RESEED and RESTORE take it: its key, counters, and records. */
function block(key: string, records: Records): string[] {
  return [key, records.next, records.seq, String(records.values.length), ...records.values];
}

/** The layout a start found (`store_format N`, inside the store_unavailable error #eval makes of INIT's refusal). */
function layoutOf(error: unknown): string | undefined {
  return /\bstore_format ([^);\s]{1,20})/.exec(error instanceof Error ? error.message : '')?.[1];
}

/** An error's message in one bounded line (Redis's replies and socket errors carry no credentials). */
function reason(error: unknown): string {
  const message =
    error instanceof AggregateError && error.errors.length
      ? reason(error.errors[0])
      : error instanceof Error
        ? error.message
        : String(error);
  const line = message.replace(/\s+/g, ' ').trim() || (error as NodeJS.ErrnoException)?.code || 'unknown error';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
