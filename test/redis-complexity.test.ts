import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type RedisClientType } from '@redis/client';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';
import { RedisStore } from '../src/mock/store/redis.js';
import type { Pet } from '../src/mock/store/collection-store.js';

const BIG = 100_000;
const statuses = ['available', 'pending', 'sold', undefined] as const;

function manyPets(count: number): Pet[] {
  return Array.from({ length: count }, (_, i) => {
    const pet: Pet = { id: i + 1, name: `pet-${i + 1}`, categoryId: (i % 12) + 1 };
    const status = statuses[i % statuses.length];
    if (status) pet.status = status;
    return pet;
  });
}

/**
 * What Redis executed, by command, from INFO commandstats (commands run inside a script are counted too), and the
 * elements those commands could touch are bounded by their arguments: counts, never wall time.
 */
async function commandCounts(admin: RedisClientType, run: () => Promise<unknown>): Promise<Record<string, number>> {
  await admin.configResetStat();
  await run();
  const info = await admin.info('commandstats');
  const counts: Record<string, number> = {};
  for (const [, name, calls] of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
    if (name === 'info' || name === 'config|resetstat') continue;
    counts[name!] = Number(calls);
  }
  return counts;
}

describeRedis(
  'the Redis store keeps lists O(limit) and lookups O(1): the same commands for 57 pets and 100,000',
  () => {
    let redis: RedisServer;
    let admin: RedisClientType;
    let small: RedisStore;
    let big: RedisStore;

    beforeAll(async () => {
      redis = await startRedisServer({ durable: false });
      admin = createClient({ url: redis.url });
      await admin.connect();
      small = await RedisStore.connect(redis.url, manyPets(57), { prefix: 'small' });
      big = await RedisStore.connect(redis.url, [], { prefix: 'big' });
      // One atomic restore of 100,000 pets (the admin API's PUT /__admin/state path).
      await big.restore({ pets: manyPets(BIG), nextId: BIG + 1 });
    }, 60_000);
    afterAll(async () => {
      await small?.close();
      await big?.close();
      await admin?.close();
      await redis?.close();
    });

    it('holds the 100,000 pets', async () => {
      expect(await big.count()).toBe(BIG);
      expect(await big.get(BIG)).toEqual(manyPets(BIG).at(-1));
      expect((await big.list({ limit: 3, status: 'sold' })).map((pet) => pet.id)).toEqual([3, 7, 11]);
    });

    it.each([
      // Every call first checks the store is not marked lost (EXISTS) and is the life this replica joined (GET of its
      // epoch): a lost pet is a 503, not a 404. Two O(1) commands inside the one script.
      [
        'a list of 20',
        (store: RedisStore) => store.list({ limit: 20 }),
        { evalsha: 1, zrange: 1, exists: 1, get: 1, hmget: 1 },
      ],
      [
        'a filtered list of 20',
        (store: RedisStore) => store.list({ limit: 20, status: 'pending' }),
        { evalsha: 1, zrange: 1, exists: 1, get: 1, hmget: 1 },
      ],
      ['a lookup', (store: RedisStore) => store.get(50), { evalsha: 1, exists: 1, get: 1, hget: 1 }],
    ] as const)('%s costs the same commands in a store of 57 pets and of 100,000', async (_, run, want) => {
      const times = 25;
      const repeat = (store: RedisStore) => async () => {
        for (let i = 0; i < times; i += 1) await run(store);
      };
      const onSmall = await commandCounts(admin, repeat(small));
      const onBig = await commandCounts(admin, repeat(big));
      const expected = Object.fromEntries(Object.entries(want).map(([name, calls]) => [name, calls * times]));
      expect(onSmall).toEqual(expected);
      expect(onBig).toEqual(expected);
    });

    it('a list reads a sorted set by rank, bounded by the limit (ZRANGE key 0 limit-1), never the whole set', async () => {
      const monitor = createClient({ url: redis.url }) as RedisClientType;
      await monitor.connect();
      const seen: string[] = [];
      try {
        await monitor.monitor((line) => seen.push(line));
        await big.list({ limit: 20, status: 'sold' });
        await big.get(99_999);
        // Until the lookup's HGET (the last command sent) has been seen, not a count that the list alone reaches.
        await expect.poll(() => seen.some((line) => /"HGET"/i.test(line))).toBe(true);
      } finally {
        monitor.destroy();
      }
      const commands = seen.map((line) =>
        /"([a-zA-Z]+)"/.exec(line.replace(/^[\d.]+ \[[^\]]*\] /, ''))?.[1]?.toLowerCase(),
      );
      expect(commands).not.toContain('hgetall');
      expect(commands).not.toContain('scan');
      expect(commands).not.toContain('keys');
      expect(seen.find((line) => /"ZRANGE"/i.test(line))).toMatch(/"ZRANGE" "big:c:4:pets:f:v6:status:sold" "0" "19"/i);
      // Fields are the pets' members (redis-member.ts): the id as fixed-width digits after `p`.
      expect(seen.find((line) => /"HMGET"/i.test(line))?.match(/"p\d{19}"/g)).toHaveLength(20);
      expect(seen.find((line) => /"HGET"/i.test(line))).toMatch(/"HGET" "big:c:4:pets:items" "p0000000000000099999"/i);
    });
  },
);
