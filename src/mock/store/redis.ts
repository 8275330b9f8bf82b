import { createHash, randomBytes } from 'node:crypto';
import { createClient, ErrorReply, type RedisClientType } from '@redis/client';
import { apiError, isApiError, type ApiError } from '../../errors.js';
import { freezeWithJsonText } from '../base/json-text.js';
import { InputError } from '../../input-errors.js';
import { DEFAULT_MAX_PETS, idsUsedUp, MAX_NEXT_ID, type NewPet, type Pet } from './pet-store.js';

/** Key layout 2 keeps one collection of pets with a `status` index: its list query. */
export interface ListQuery {
  limit: number;
  status?: string | undefined;
}

/** Key layout 2's whole state: the pets and the next id. */
export interface StoreSnapshot {
  pets: Pet[];
  nextId: Int64;
}
import { parseStoredPet, storedPetText, toStoredPet } from './stored-pet.js';
import { checkPrefix, checkRedisUrl, redactRedisUrl } from './redis-url.js';
import * as scripts from './redis-scripts.js';
import { memberOf } from './redis-member.js';
import { compareInt64, maxInt64, plusOne, toInteger, type Int64 } from '../../json/int64.js';

/** The Redis store could not be reached or used at start-up: the CLI prints the one line and exits 1. */
export class StoreStartError extends InputError {}

export interface RedisStoreOptions {
  /** Namespace of every key (`--store-prefix`), so several mocks can share one Redis; default `petstore`. */
  prefix?: string;
  /** The most pets the shared store holds, seed included, enforced across replicas; default DEFAULT_MAX_PETS. */
  maxPets?: number;
  /** The most bytes of pets (UTF-8 JSON text) the shared store holds, enforced across replicas; default 256 MiB. */
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
}

/** The default byte budget: the whole store must still fit one JSON text for `snapshot()` (`GET /__admin/state`). */
export const DEFAULT_REDIS_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_STORE_PREFIX = 'petstore';
/** How long a Redis command (and a connection attempt) may take before the request gets 503 store_unavailable. */
export const REDIS_TIMEOUT_MS = 2_000;
/** Reconnecting once running: the first retry after this many milliseconds, doubling up to RECONNECT_MAX_MS. */
export const RECONNECT_MIN_MS = 50;
export const RECONNECT_MAX_MS = 1_000;
/** The key layout's version (redis-scripts.ts): a store written in another layout is refused, not misread. */
// Layout 2 keeps ids as fixed-width members at score 0 (exact to 2^63 − 1); layout 1 scored them by id (a double).
const FORMAT = '2';
/** The deadline of a call on the whole store (a 250,000-pet restore or snapshot is one script). */
const BULK_TIMEOUT_MS = 30_000;
// A stored pet's text starts with its id (stored-pet.ts keeps the schema's order): the script puts the id there.
const ID_ZERO = '{"id":0,';

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const INIT = script(scripts.INIT);
const CREATE = script(scripts.CREATE);
const LIST = script(scripts.LIST);
const RESET = script(scripts.RESET);
const RESEED = script(scripts.RESEED);
const RESTORE = script(scripts.RESTORE);
const SNAPSHOT = script(scripts.SNAPSHOT);
const GET = script(scripts.GET);
const COUNT = script(scripts.COUNT);

/**
 * A store shared by every mock replica that points at the same Redis and prefix. Each operation is one
 * round trip: a Lua script (atomic) or a single command. Ids come from one counter in Redis, so they are unique
 * across replicas; a create resolves only once Redis has executed it. Lists read a sorted set by rank and the pets'
 * texts by id: O(log N + limit), never a scan. While Redis is unreachable every call rejects at once (or after
 * `timeoutMs` when it hangs) with a 503 `store_unavailable`, and the client reconnects by itself.
 * @example const store = await RedisPetStore.connect('redis://127.0.0.1:6379', seed); await store.count();
 */
export class RedisPetStore {
  readonly kind = 'redis';
  readonly maxPets: number;
  readonly maxBytes: number;
  readonly prefix: string;
  /** The URL without credentials, for the banner and log lines. */
  readonly where: string;
  /** True when this replica wrote the seed at start-up (the store was empty); false when it joined a store. */
  seeded = false;
  #client: RedisClientType;
  #newClient: () => RedisClientType;
  #seed: string[];
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

  private constructor(url: string, where: string, seed: string[], options: RedisStoreOptions) {
    this.where = where;
    this.#seed = seed;
    this.prefix = options.prefix ?? DEFAULT_STORE_PREFIX;
    this.maxPets = options.maxPets ?? DEFAULT_MAX_PETS;
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
   * Connects to `url` (`redis://[user:pass@]host:port[/db]`, or `rediss://` for TLS), and writes `seed` when the
   * store under the prefix is empty: one atomic script, so of several replicas starting at once exactly one seeds.
   * Rejects with a StoreStartError (one line, no credentials) when Redis cannot be reached or used.
   */
  static async connect(url: string, seed: readonly Pet[], options: RedisStoreOptions = {}): Promise<RedisPetStore> {
    checkRedisUrl(url);
    const where = redactRedisUrl(url);
    const prefix = options.prefix ?? DEFAULT_STORE_PREFIX;
    checkPrefix(prefix);
    const maxPets = options.maxPets ?? DEFAULT_MAX_PETS;
    if (!Number.isSafeInteger(maxPets) || maxPets < 1)
      throw new RangeError(`maxPets must be a whole number of at least 1 (got ${maxPets})`);
    const triples = seedTriples(seed);
    if (seed.length > maxPets)
      throw new RangeError(`the fixtures hold ${seed.length} pets, more than maxPets (${maxPets})`);
    const seedBytes = textBytes(triples);
    const maxBytes = options.maxBytes ?? DEFAULT_REDIS_MAX_BYTES;
    if (seedBytes > maxBytes)
      throw new RangeError(`the fixtures hold ${seedBytes} bytes of pets, more than maxStoreBytes (${maxBytes})`);
    const store = new RedisPetStore(url, where, triples, options);
    try {
      await store.#client.connect();
      store.#started = true;
      const [state, epoch] = (await store.#eval(INIT, [FORMAT, ...triples], undefined, newEpoch('seed'))) as [
        number,
        string,
      ];
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
      // INIT's refusal reaches here inside the store_unavailable error #eval makes of it.
      const layout = /\bstore_format ([^);\s]{1,20})/.exec(error instanceof Error ? error.message : '')?.[1];
      if (layout !== undefined)
        throw new StoreStartError(
          `cannot use the Redis store at ${where}: its keys under prefix ${prefix} are in layout ${layout}, and this version reads layout ${FORMAT} (ids kept exactly to 2^63 − 1); use another --store-prefix, or delete those keys`,
        );
      throw new StoreStartError(`cannot use the Redis store at ${where}: ${reason(error)}`);
    }
    return store;
  }

  async count(): Promise<number> {
    return Number(await this.#eval(COUNT, [], 'fail'));
  }

  /** The first `limit` pets in id order: one script, a ZRANGE by rank and an HMGET of `limit` texts. */
  async list({ limit, status }: ListQuery): Promise<readonly Pet[]> {
    // ZRANGE key 0 -1 would be every pet: a limit below 1 asks for none.
    if (!(limit >= 1)) return freezeWithJsonText([] as Pet[], '[]');
    const texts = (await this.#eval(LIST, [String(Math.floor(limit)), status ?? ''], 'fail')) as (string | null)[];
    const present = texts.filter((text): text is string => text !== null);
    // The page's text is its pets' texts joined: the reply sends it as it is (json-text.ts).
    return freezeWithJsonText(present.map(parseStoredPet), `[${present.join(',')}]`);
  }

  /** One HGET, in a script that first checks the store still holds its data (a lost pet is a 503, not a 404). */
  async get(id: Int64): Promise<Pet | undefined> {
    const member = memberOf(id);
    if (member === undefined) return undefined;
    const text = (await this.#eval(GET, [member], 'fail')) as string | null | undefined;
    return text === null || text === undefined ? undefined : parseStoredPet(text);
  }

  /**
   * One script: the count and byte checks, the id from the counter and every write, atomically. Resolves once
   * Redis has executed it; a 409 `store_full` takes no id and writes nothing.
   */
  async create(pet: NewPet): Promise<Pet> {
    const text = storedPetText(toStoredPet(0, pet));
    if (!text.startsWith(ID_ZERO)) throw new Error("a stored pet's text must start with its id");
    const tail = text.slice(ID_ZERO.length);
    // The script answers the id's digits: exact whatever its size (toInteger gives a bigint beyond 2^53 − 1).
    const digits = String(
      await this.#eval(CREATE, [String(this.maxPets), String(this.maxBytes), pet.status ?? '', tail], 'fail'),
    );
    return toStoredPet(toInteger(digits), pet, `{"id":${digits},${tail}`);
  }

  /**
   * Back to the seed in Redis (written by the first replica), for every replica at once. The one way out of a store
   * that lost its data: an operator's deliberate reset writes this replica's seed again.
   */
  async reset(): Promise<void> {
    const epoch = newEpoch('reset');
    await this.#eval(RESET, [], 'reseed', epoch);
    this.#epoch = epoch;
  }

  /** Replaces the shared seed (a fixtures reload on one replica) and resets to it. */
  async reseed(seed: readonly Pet[]): Promise<void> {
    if (seed.length > this.maxPets) throw tooMany(seed.length, this.maxPets);
    const triples = seedTriples(seed);
    this.#checkBytes(triples);
    const epoch = newEpoch('reset');
    await this.#eval(RESEED, [FORMAT, ...triples], undefined, epoch);
    this.#epoch = epoch;
    this.#seed = triples;
  }

  /** Every pet and the next id, read in one script (one instant). */
  async snapshot(): Promise<StoreSnapshot> {
    const [next, ...texts] = (await this.#eval(SNAPSHOT, [], 'fail')) as string[];
    return { pets: texts.map(parseStoredPet), nextId: toInteger(next ?? '1') };
  }

  /** Replaces the whole shared state in one script; checked against the limits first, so a refusal changes nothing. */
  async restore(snapshot: StoreSnapshot): Promise<void> {
    if (snapshot.pets.length > this.maxPets) throw tooMany(snapshot.pets.length, this.maxPets);
    const triples = seedTriples(snapshot.pets);
    this.#checkBytes(triples);
    // Never below the highest id + 1, computed here exactly (the script does no arithmetic on ids).
    const next = snapshot.pets.reduce((max, pet) => maxInt64(max, plusOne(pet.id)), snapshot.nextId);
    if (next > MAX_NEXT_ID) throw idsUsedUp();
    const epoch = newEpoch('reset');
    await this.#eval(RESTORE, [String(next), ...triples], 'fail', epoch);
    this.#epoch = epoch;
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

  #checkBytes(triples: string[]): void {
    const bytes = textBytes(triples);
    if (bytes > this.maxBytes) {
      throw apiError(
        'store_full',
        `the snapshot holds ${bytes} bytes of pets, more than this mock's budget of ${this.maxBytes} bytes`,
      );
    }
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
  ): Promise<unknown> {
    try {
      // A request's own calls get the short deadline; whole-store ones (seed, reset, restore, snapshot) a long one.
      const timeoutMs =
        script === CREATE || script === LIST || script === GET || script === COUNT
          ? this.#timeoutMs
          : Math.max(this.#timeoutMs, BULK_TIMEOUT_MS);
      const result = await this.#call(() => this.#evalOnce(script, args, epoch), timeoutMs);
      if (onEmpty) this.#emptied = false;
      return result;
    } catch (error) {
      const refusal = scriptRefusal(error);
      if (refusal?.startsWith('store_epoch ') && !following) {
        this.#epoch = refusal.slice('store_epoch '.length);
        return this.#eval(script, args, onEmpty, epoch, true);
      }
      if (!onEmpty || !refusal?.startsWith('store_empty')) throw this.#refusal(error);
      if (onEmpty === 'fail') {
        if (!this.#emptied) {
          this.#emptied = true;
          this.#log(
            `petstore-kit: the Redis store at ${this.where} (prefix ${this.prefix}) lost its data (Redis restarted empty?); requests get 503 store_unavailable until a reset (POST /__admin/reset on any replica) writes the seed again`,
          );
        }
        throw apiError(
          'store_unavailable',
          `the shared store (Redis) lost its data: the pets created before are gone, and new ids could repeat theirs; an operator must reset the mock (POST /__admin/reset) to start again from the seed`,
          { 'Retry-After': '1' },
        );
      }
      this.#log(
        `petstore-kit: the Redis store at ${this.where} (prefix ${this.prefix}) was empty (Redis lost its data); the reset wrote the seed again`,
      );
      const reopened = newEpoch('reset');
      const [, written] = (await this.#call(
        () => this.#evalOnce(INIT, [FORMAT, ...this.#seed], reopened),
        Math.max(this.#timeoutMs, BULK_TIMEOUT_MS),
      )) as [number, string];
      this.#epoch = written;
      this.#emptied = false;
      return this.#eval(script, args, undefined, epoch);
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
  #refusal(error: unknown): ApiError {
    if (isApiError(error)) return error;
    const [kind, what, ...numbers] = (scriptRefusal(error) ?? '').split(' ');
    if (kind === 'store_full') {
      if (what === 'count')
        return apiError(
          'store_full',
          `the store is full: it holds its maximum of ${this.maxPets} pets; reset the mock, or restart it with a larger --max-pets`,
        );
      if (what === 'ids') return idsUsedUp();
      return apiError(
        'store_full',
        `the store is full: it holds ${numbers[0]} bytes of pets and this one needs ${numbers[1]} more, past its budget of ${this.maxBytes} bytes; reset the mock`,
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

/** Pets as the scripts take them: member (redis-member.ts), status or "", the one serialised text (stored-pet.ts). */
function seedTriples(pets: readonly Pet[]): string[] {
  const triples: string[] = [];
  for (const pet of [...pets].sort((a, b) => compareInt64(a.id, b.id))) {
    const member = memberOf(pet.id);
    if (member === undefined) throw new RangeError(`pet id ${String(pet.id)} is not an int64`);
    triples.push(member, pet.status ?? '', storedPetText(toStoredPet(pet.id, pet)));
  }
  return triples;
}

/** The UTF-8 bytes of the texts in id/status/text triples: what the scripts count against the budget. */
function textBytes(triples: readonly string[]): number {
  let bytes = 0;
  for (let i = 2; i < triples.length; i += 3) bytes += Buffer.byteLength(triples[i]!);
  return bytes;
}

function tooMany(count: number, maxPets: number): ApiError {
  return apiError(
    'store_full',
    `the snapshot holds ${count} pets, more than this mock's maximum of ${maxPets} (--max-pets)`,
  );
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
