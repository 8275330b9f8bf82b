import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient } from '@redis/client';
import { describeRedis, startRedisServer, type RedisServer } from '../../../test/support/redis-server.js';
import { isApiError } from '../../errors.js';
import { toJsonText } from '../base/json-text.js';
import type { Pet } from './collection-store.js';
import { RedisStore, StoreStartError, V1_PETS_RULE } from './redis.js';
import { memberOf } from './redis-member.js';
import { checkRedisUrl, redactRedisUrl } from './redis-url.js';
import { UsageError } from '../../input-errors.js';

const seed: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  { id: 5, name: 'Ada', categoryId: 1 },
];

it.each([
  ['redis://app:s3cret@cache:6379/2', 'redis://***@cache:6379/2'],
  ['redis://:s3cret@cache:6379', 'redis://***@cache:6379'],
  ['rediss://cache.example:6380', 'rediss://cache.example:6380'],
  ['not a url s3cret', '(an invalid Redis URL)'],
])('redactRedisUrl(%s) hides credentials', (url, want) => {
  expect(redactRedisUrl(url)).toBe(want);
});

it.each([
  ['redis://u:pw9@host:notaport', 'not a URL'],
  ['redis://u:pw9@', 'not a URL'],
  ['redis://u:pw9@127.0.0.1:6379/notadb', 'the database must be a number (redis://***@127.0.0.1:6379/notadb)'],
])('checkRedisUrl(%s) is a usage error that never shows the password', (url, want) => {
  expect(() => checkRedisUrl(url)).toThrow(UsageError);
  expect(() => checkRedisUrl(url)).toThrow(want);
  expect(() => checkRedisUrl(url)).not.toThrow(/pw9/);
});

/** What a store call rejected with, as the API's error. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describeRedis('RedisStore against a real Redis', () => {
  let redis: RedisServer;
  const open: RedisStore[] = [];
  let prefixes = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
    logs.length = 0;
  });
  afterAll(async () => {
    await redis?.close();
  });

  /** `count` replicas of one store under a fresh prefix. */
  async function replicas(count: number, options: Parameters<typeof RedisStore.connect>[2] = {}) {
    const prefix = `t${++prefixes}`;
    const stores: RedisStore[] = [];
    for (let i = 0; i < count; i += 1) {
      const store = await RedisStore.connect(redis.url, seed, {
        prefix,
        log: (line) => logs.push(line),
        ...options,
      });
      open.push(store);
      stores.push(store);
    }
    return stores;
  }

  it('seeds once: the first replica writes the seed, the next joins it', async () => {
    const [a, b] = await replicas(2);
    expect([a!.seeded, b!.seeded]).toEqual([true, false]);
    expect(await b!.count()).toBe(3);
    await a!.create({ name: 'Kit', categoryId: 3 });
    const [c] = await replicas(0);
    expect(c).toBeUndefined();
    const late = await RedisStore.connect(redis.url, [], { prefix: a!.prefix });
    open.push(late);
    expect(late.seeded).toBe(false);
    expect(await late.count()).toBe(4);
  });

  it('a pet created on one replica is read by another, by id and in lists, with its exact text', async () => {
    const [a, b] = await replicas(2);
    const created = await a!.create({ name: 'Zoë "the" cat', categoryId: 7, status: 'pending' });
    expect(created).toEqual({ id: 6, name: 'Zoë "the" cat', categoryId: 7, status: 'pending' });
    expect(await b!.get(6)).toEqual(created);
    expect(toJsonText(await b!.get(6))).toBe(toJsonText(created));
    expect((await b!.list({ limit: 10 })).map((pet) => pet.id)).toEqual([1, 2, 5, 6]);
    expect(await b!.list({ limit: 10, status: 'pending' })).toEqual([created]);
    expect(await b!.list({ limit: 2 })).toEqual(seed.slice(0, 2));
    expect(toJsonText(await b!.list({ limit: 1 }))).toBe(JSON.stringify([seed[0]]));
    expect(await b!.get(99)).toBeUndefined();
    expect(await b!.list({ limit: 5, status: 'nobody' })).toEqual([]);
    expect(await b!.list({ limit: 0 })).toEqual([]);
  });

  it('concurrent creates on three replicas get unique ids, none lost', async () => {
    const stores = await replicas(3);
    const created = await Promise.all(
      Array.from({ length: 600 }, (_, i) => stores[i % 3]!.create({ name: `p${i}`, categoryId: i })),
    );
    const ids = created.map((pet) => Number(pet.id));
    expect(new Set(ids).size).toBe(600);
    expect(Math.min(...ids)).toBe(6);
    expect(Math.max(...ids)).toBe(605);
    expect(await stores[1]!.count()).toBe(603);
    const { pets, nextId } = await stores[2]!.snapshot();
    expect(pets).toHaveLength(603);
    expect(nextId).toBe(606);
    for (const pet of created) expect(pets[Number(pet.id) - 3]).toEqual(pet);
  });

  it('enforces --max-pets across replicas: exactly the room left is filled, the rest is 409 and stores nothing', async () => {
    const [a, b] = await replicas(2, { maxItems: 6 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).create({ name: `p${i}`, categoryId: 1 })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    const refused = results
      .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
      .map((result) => result.reason);
    expect(refused).toHaveLength(7);
    for (const error of refused)
      expect(error).toMatchObject({ code: 'store_full', status: 409, message: expect.stringContaining('--max-pets') });
    expect(await a!.count()).toBe(6);
    // A refused create takes no id: after a reset ids continue after the seed as before.
    expect((await a!.snapshot()).nextId).toBe(9);
  });

  it('enforces the byte budget across replicas', async () => {
    const seedBytes = seed.reduce((sum, pet) => sum + Buffer.byteLength(JSON.stringify(pet)), 0);
    const [a, b] = await replicas(2, { maxBytes: seedBytes + 100 });
    await a!.create({ name: 'x'.repeat(40), categoryId: 1 });
    const error = await failure(b!.create({ name: 'y'.repeat(40), categoryId: 1 }));
    expect(error.toBody()).toMatchObject({
      code: 'store_full',
      status: 409,
      message: expect.stringContaining('bytes'),
    });
    expect(await a!.count()).toBe(4);
    const restore = await failure(a!.restore({ pets: [{ id: 1, name: 'z'.repeat(500), categoryId: 1 }], nextId: 2 }));
    expect(restore.code).toBe('store_full');
    expect(await b!.count()).toBe(4);
    await expect(RedisStore.connect(redis.url, seed, { prefix: 'too-small', maxBytes: 10 })).rejects.toThrow(
      /the fixtures hold \d+ bytes of pets, more than maxStoreBytes \(10\)/,
    );
  });

  it('a reset through one replica is seen by all; ids continue after the seed', async () => {
    const [a, b] = await replicas(2);
    await a!.create({ name: 'gone', categoryId: 1, status: 'pending' });
    await b!.reset();
    expect(await a!.count()).toBe(3);
    expect(await a!.list({ limit: 5, status: 'pending' })).toEqual([]);
    expect((await a!.create({ name: 'next', categoryId: 1 })).id).toBe(6);
    // The reset dropped the status's order too: the new pet 6, with no status, is not listed under the old one's.
    expect(await b!.list({ limit: 5, status: 'pending' })).toEqual([]);
  });

  it('restore replaces everything atomically; too many pets is 409 and changes nothing', async () => {
    const [a, b] = await replicas(2, { maxItems: 4 });
    await a!.restore({
      pets: [
        { id: 10, name: 'Ten', categoryId: 1, status: 'sold' },
        { id: 3, name: 'Three', categoryId: 2 },
      ],
      nextId: 5,
    });
    expect(await b!.list({ limit: 10 })).toEqual([
      { id: 3, name: 'Three', categoryId: 2 },
      { id: 10, name: 'Ten', categoryId: 1, status: 'sold' },
    ]);
    expect(await b!.list({ limit: 10, status: 'available' })).toEqual([]);
    expect((await b!.create({ name: 'after', categoryId: 1 })).id).toBe(11);
    const tooMany = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `n${i}`, categoryId: 1 }));
    expect((await failure(a!.restore({ pets: tooMany, nextId: 6 }))).code).toBe('store_full');
    expect(await b!.count()).toBe(3);
    // Reset still goes back to the seed, not to the restored state.
    await b!.reset();
    expect(await a!.list({ limit: 10 })).toEqual(seed);
  });

  it('reseed replaces the shared seed for every replica', async () => {
    const [a, b] = await replicas(2);
    await a!.reseed([{ id: 40, name: 'New', categoryId: 1 }]);
    expect(await b!.list({ limit: 10 })).toEqual([{ id: 40, name: 'New', categoryId: 1 }]);
    await b!.create({ name: 'x', categoryId: 1 });
    await b!.reset();
    expect(await a!.count()).toBe(1);
  });

  it('ids past 2^53 are exact across replicas: created, found, listed in id order, snapshotted; 2^63 − 1 refused', async () => {
    const [a, b] = await replicas(2);
    // Ids a double score would tie (2^53 and 2^53 + 1; 10^17 − 1 and 10^17) and negative ones, restored out of order.
    const ids = [10n ** 17n, 10n ** 17n - 1n, 2n ** 53n + 1n, 2n ** 53n, 2 ** 53 - 1, -(2n ** 63n), -1, 0];
    const pets = ids.map((id) => ({ id, name: String(id), categoryId: 1, status: 'sold' as const }));
    await a!.restore({ pets, nextId: 2n ** 53n + 2n });
    const order = [-(2n ** 63n), -1, 0, 2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n, 10n ** 17n - 1n, 10n ** 17n];
    expect((await b!.list({ limit: 100, status: 'sold' })).map((pet) => pet.id)).toEqual(order);
    expect((await b!.list({ limit: 4 })).map((pet) => pet.id)).toEqual(order.slice(0, 4));
    // nextId was below the highest id + 1: the store takes 10^17 + 1, computed exactly.
    const created = await b!.create({ name: 'next', categoryId: 2n ** 63n - 1n });
    expect(created.id).toBe(10n ** 17n + 1n);
    expect(toJsonText(created)).toBe('{"id":100000000000000001,"name":"next","categoryId":9223372036854775807}');
    expect(await a!.get(10n ** 17n + 1n)).toEqual(created);
    expect(await a!.get(2n ** 53n + 1n)).toMatchObject({ name: String(2n ** 53n + 1n) });
    expect((await a!.snapshot()).nextId).toBe(10n ** 17n + 2n);

    await a!.restore({ pets: [], nextId: 2n ** 63n - 2n });
    expect((await b!.create({ name: 'last', categoryId: 1 })).id).toBe(2n ** 63n - 2n);
    const before = await a!.snapshot();
    expect(before.nextId).toBe(2n ** 63n - 1n);
    const refusal = await failure(a!.create({ name: 'over', categoryId: 1 }));
    expect(refusal.toBody()).toMatchObject({ code: 'store_full', status: 409 });
    expect(refusal.message).toMatch(/nextId is 9223372036854775807/);
    expect(await b!.snapshot()).toEqual(before);
    expect((await a!.list({ limit: 20 })).map((pet) => pet.id)).toEqual([2n ** 63n - 2n]);
  });

  it('refuses a store written in the old key layout (ids scored as doubles) with one line, not misreading it', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    await client.set('old:format', '1');
    await client.close();
    const error = await RedisStore.connect(redis.url, seed, { prefix: 'old' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreStartError);
    expect((error as Error).message).toMatch(/prefix old are in layout 1, and this version reads layout 3 /);
  });

  /** A store as layout 2 wrote it (its scripts' keys): `pets` stored, `seedPets` its seed, `next` its counter. */
  async function writeLayout2(prefix: string, pets: Pet[], seedPets: Pet[], next: number) {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      let bytes = 0;
      for (const pet of pets) {
        const member = memberOf(pet.id)!;
        const text = JSON.stringify(pet);
        bytes += Buffer.byteLength(text);
        await client.hSet(`${prefix}:pets`, member, text);
        await client.zAdd(`${prefix}:ids`, { score: 0, value: member });
        if (pet.status !== undefined) {
          await client.zAdd(`${prefix}:status:${pet.status}`, { score: 0, value: member });
          await client.sAdd(`${prefix}:statuses`, pet.status);
        }
      }
      for (const pet of seedPets) {
        await client.rPush(`${prefix}:seed`, [memberOf(pet.id)!, pet.status ?? '', JSON.stringify(pet)]);
      }
      await client.mSet({
        [`${prefix}:next`]: String(next),
        [`${prefix}:bytes`]: String(bytes),
        [`${prefix}:format`]: '2',
        [`${prefix}:epoch`]: 'seed:0123456789abcdef',
      });
    } finally {
      await client.close();
    }
  }

  it('upgrades a store in key layout 2 in place: its pets, counter, status sets and seed become the pets collection', async () => {
    const prefix = 'layout2';
    const old: Pet = { id: 7, name: 'Old', categoryId: 3, status: 'available' };
    await writeLayout2(prefix, [...seed, old], seed, 8);
    const log = (line: string) => logs.push(line);
    const a = await RedisStore.connect(redis.url, [], { prefix, log });
    open.push(a);
    expect([a.upgraded, a.seeded]).toEqual([true, false]);
    expect(logs).toEqual([
      `petstore-kit: upgraded the Redis store at ${redis.url} (prefix layout2) from key layout 2 to 3: its pets are the pets collection`,
    ]);
    expect(await a.list({ limit: 10 })).toEqual([...seed, old]);
    expect(await a.list({ limit: 10, status: 'available' })).toEqual([seed[0], old]);
    expect(await a.get(7)).toEqual(old);
    // A second replica joins the upgraded store; the counter goes on from layout 2's.
    const b = await RedisStore.connect(redis.url, [], { prefix, log });
    open.push(b);
    expect(b.upgraded).toBe(false);
    expect((await b.create({ name: 'New', categoryId: 1, status: 'available' })).id).toBe(8);
    expect((await a.list({ limit: 10, status: 'available' })).map((pet) => pet.id)).toEqual([1, 7, 8]);
    // A layout-2 replica still running finds its lost mark: 503, never keys no one reads.
    const client = createClient({ url: redis.url });
    await client.connect();
    expect(await client.get(`${prefix}:lost`)).toBe('upgraded to key layout 3');
    expect(await client.exists([`${prefix}:pets`, `${prefix}:ids`, `${prefix}:status:available`])).toBe(0);
    await client.close();
    // A reset goes back to layout 2's seed, ids after its highest.
    await b.reset();
    expect(await a.list({ limit: 10 })).toEqual(seed);
    expect((await a.create({ name: 'After', categoryId: 1 })).id).toBe(6);
  });

  it('refuses a store in key layout 2 that the collections given do not fit, in one line', async () => {
    const prefix = 'layout2-refused';
    await writeLayout2(prefix, seed, seed, 6);
    const rule = { ...V1_PETS_RULE, filters: ['status', 'name'] };
    const error = await RedisStore.connectCollections(redis.url, [{ name: 'pets', rule, seed: { items: [] } }], {
      prefix,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreStartError);
    expect((error as Error).message).toBe(
      `cannot use the Redis store at ${redis.url}: its keys under prefix ${prefix} are in layout 2, and this version reads layout 3 (it upgrades layout 2 only for a document whose first collection is v1's pets, shaped as layout 2 kept them); use another --store-prefix, or delete those keys`,
    );
  });

  it('keeps stores under different prefixes apart', async () => {
    const [a] = await replicas(1);
    const [other] = await replicas(1);
    await a!.create({ name: 'mine', categoryId: 1 });
    expect(await other!.count()).toBe(3);
    expect(await other!.get(6)).toBeUndefined();
  });

  it('an unreachable Redis at start is one line naming the redacted URL, without the password', async () => {
    const error = await RedisStore.connect('redis://app:s3cret@127.0.0.1:1', seed, { connectTimeoutMs: 500 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreStartError);
    const message = (error as Error).message;
    expect(message).toMatch(/^cannot use the Redis store at redis:\/\/\*\*\*@127\.0\.0\.1:1: /);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('\n');
  });

  it('a wrong password at start is refused the same way', async () => {
    const error = await RedisStore.connect(`redis://someone:wrong@127.0.0.1:${redis.port}`, seed).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreStartError);
    expect((error as Error).message).not.toContain('wrong');
  });

  it('Redis stopped: 503 store_unavailable at once and one log line; restarted: recovery with every acknowledged pet', async () => {
    const [a, b] = await replicas(2);
    const acknowledged = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a!.create({ name: `kept${i}`, categoryId: i })),
    );
    await redis.stop({ hard: true });
    const down = await failure(b!.get(6));
    expect(down.toBody()).toMatchObject({ code: 'store_unavailable', status: 503 });
    expect(down.headers['Retry-After']).toBe('1');
    expect((await failure(a!.create({ name: 'never', categoryId: 1 }))).code).toBe('store_unavailable');
    expect((await failure(a!.list({ limit: 5 }))).code).toBe('store_unavailable');
    // At least one line per replica (a reconnect attempt during the outage may add one), never one per request.
    const lost = () => logs.filter((line) => line.includes('lost the Redis store')).length;
    expect(lost()).toBeGreaterThanOrEqual(2);
    expect(lost()).toBeLessThanOrEqual(4);
    await redis.start();
    await expect.poll(async () => b!.count().catch(() => -1), { timeout: 10_000 }).toBe(23);
    await expect.poll(async () => a!.count().catch(() => -1), { timeout: 10_000 }).toBe(23);
    for (const pet of acknowledged) expect(await b!.get(pet.id)).toEqual(pet);
    expect((await a!.create({ name: 'after', categoryId: 1 })).id).toBe(26);
    // Every outage that was reported is reported over.
    const back = () => logs.filter((line) => line.endsWith(' is back')).length;
    await expect.poll(() => back() - lost()).toBe(0);
    expect(back()).toBeLessThanOrEqual(4);
  });

  it('a Redis that hangs: 503 store_unavailable once the call deadline passes, never a hang; then recovery', async () => {
    const [a] = await replicas(1, { timeoutMs: 300 });
    redis.pause();
    try {
      const hung = await failure(a!.create({ name: 'maybe', categoryId: 1 }));
      expect(hung.toBody()).toMatchObject({
        code: 'store_unavailable',
        status: 503,
        message: expect.stringContaining('no answer within 300 ms'),
      });
      expect((await failure(a!.get(1))).code).toBe('store_unavailable');
    } finally {
      redis.resume();
    }
    await expect.poll(async () => (await a!.get(1).catch(() => undefined))?.name, { timeout: 10_000 }).toBe('Rex');
  });

  // Reseeding silently handed acknowledged ids out again and answered them with other pets.
  it('a Redis that lost its data: 503 for every replica and call, logged once, never a reused id or a 404; a reset starts again', async () => {
    const [a, b] = await replicas(2);
    const kept = await a!.create({ name: 'acknowledged', categoryId: 1 });
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      await admin.flushAll();
    } finally {
      await admin.close();
    }
    for (const store of [a!, b!]) {
      for (const call of [
        () => store.create({ name: 'new', categoryId: 1 }),
        () => store.get(kept.id),
        () => store.get(1),
        () => store.list({ limit: 10 }),
        () => store.count(),
      ]) {
        const error = await failure(call());
        expect(error.toBody()).toMatchObject({
          code: 'store_unavailable',
          status: 503,
          message: expect.stringContaining('lost its data'),
        });
      }
    }
    expect(logs.filter((line) => line.includes('lost its data')).length).toBe(2);
    // Nothing was written meanwhile but the mark that the data is lost: no seed, no counter to start again from.
    const check = createClient({ url: redis.url });
    await check.connect();
    try {
      expect(await check.keys('*')).toEqual([`${a!.prefix}:gone`]);
    } finally {
      await check.close();
    }
    // The operator's deliberate reset, on either replica, brings both back.
    await b!.reset();
    expect(await a!.list({ limit: 10 })).toEqual(seed);
    expect(await a!.get(kept.id)).toBeUndefined();
  });

  /** Redis loses everything (a restart without persistence looks the same to the store). */
  async function flushAll() {
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      await admin.flushAll();
    } finally {
      await admin.close();
    }
  }

  it('a replica restarted on an emptied Redis does not seed it: every replica stays 503 until a reset, no id handed out twice', async () => {
    const [a, b] = await replicas(2);
    const acknowledged = [
      await a!.create({ name: 'one', categoryId: 1 }),
      await b!.create({ name: 'two', categoryId: 1 }),
    ];
    await flushAll();
    // A running replica finds its data gone first; then b restarts on the empty store.
    expect((await failure(a!.count())).toBody()).toMatchObject({ code: 'store_unavailable', status: 503 });
    await b!.close();
    const restarted = await RedisStore.connect(redis.url, seed, {
      prefix: a!.prefix,
      log: (line) => logs.push(line),
    });
    open.push(restarted);
    expect(restarted.seeded).toBe(false);
    expect(logs.some((line) => line.includes('does not seed it again'))).toBe(true);
    for (const store of [a!, restarted]) {
      expect((await failure(store.create({ name: 'new', categoryId: 1 }))).toBody()).toMatchObject({
        code: 'store_unavailable',
      });
      expect((await failure(store.get(acknowledged[0]!.id))).toBody()).toMatchObject({ code: 'store_unavailable' });
    }
    // An explicit reset on the restarted replica brings both back, from the seed.
    await restarted.reset();
    expect(await a!.list({ limit: 10 })).toEqual(seed);
    expect(await restarted.count()).toBe(seed.length);
  });

  it('a replica that restarted and seeded an emptied Redis before anyone noticed is found out by the running ones: 503 for all', async () => {
    const [a, b] = await replicas(2);
    const kept = await a!.create({ name: 'acknowledged', categoryId: 1 });
    await flushAll();
    await b!.close();
    const restarted = await RedisStore.connect(redis.url, seed, {
      prefix: a!.prefix,
      log: (line) => logs.push(line),
    });
    open.push(restarted);
    // It could not know (an empty Redis looks new), so it seeded; the running replica never joined that store.
    expect(restarted.seeded).toBe(true);
    expect((await failure(a!.create({ name: 'would reuse an id', categoryId: 1 }))).toBody()).toMatchObject({
      code: 'store_unavailable',
    });
    expect((await failure(a!.get(kept.id))).toBody()).toMatchObject({ code: 'store_unavailable' });
    // From then on the restarted replica is refused too, until an operator resets.
    expect((await failure(restarted.create({ name: 'would reuse an id', categoryId: 1 }))).toBody()).toMatchObject({
      code: 'store_unavailable',
    });
    await a!.reset();
    expect((await restarted.create({ name: 'after the reset', categoryId: 1 })).id).toBe(6);
    expect(await a!.get(6)).toMatchObject({ name: 'after the reset' });
  });

  it('a replica that gets Redis back empty marks the loss at once, before any request: a replica restarted then does not seed', async () => {
    const volatile = await startRedisServer({ durable: false });
    try {
      const prefix = `t${++prefixes}`;
      const seen: string[] = [];
      let noticed!: () => void;
      const lossNoticed = new Promise<void>((resolve) => (noticed = resolve));
      const log = (line: string) => {
        seen.push(line);
        if (line.includes('lost its data')) noticed();
      };
      const a = await RedisStore.connect(volatile.url, seed, { prefix, log });
      open.push(a);
      await a.create({ name: 'acknowledged', categoryId: 1 });
      await volatile.stop();
      await volatile.start();
      // No call is made on a: its reconnection alone finds the data gone.
      await lossNoticed;
      const restarted = await RedisStore.connect(volatile.url, seed, { prefix, log });
      open.push(restarted);
      expect(restarted.seeded).toBe(false);
      expect((await failure(restarted.count())).toBody()).toMatchObject({ code: 'store_unavailable' });
    } finally {
      await Promise.all(open.splice(0).map((store) => store.close()));
      await volatile.close();
    }
  });
});
