import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createClient } from '@redis/client';
import { startCli } from './support/cli.js';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';

/**
 * Two mock processes on one Redis (key layout 3) serving the v1.1 document: every role of every collection answered
 * on one replica is seen by the other, ids are never handed out twice, deleting a pet deletes its photos, and a Redis
 * that restarts keeps (appendfsync always) or loses (no persistence: 503 for every call until a reset) what
 * docs/reliability.md says.
 */
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const KEY = 'redis-resources-key-7c2a';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

interface Replica {
  url: string;
  origin: string;
  child: ChildProcess;
}

async function startReplica(redisUrl: string, prefix: string): Promise<Replica> {
  const args = ['mock', '--port', '0', '--quiet', '--no-config', '--spec', v11, '--api-key', KEY];
  const { child, match } = await startCli(
    [...args, '--store', redisUrl, '--store-prefix', prefix],
    /listening on (http:\/\/\S+)\n[\s\S]*admin API: .*\n/,
  );
  const url = match[1]!;
  return { url, origin: new URL(url).origin, child };
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  const exited = once(replica.child, 'exit');
  replica.child.kill('SIGTERM');
  await exited;
}

type Json = Record<string, unknown>;
type State = { collections: Record<string, { items: Json[] }> };

async function send(url: string, method = 'GET', body?: unknown, contentType = 'application/json') {
  const response = await fetch(url, {
    method,
    headers: { ...headers, 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: (text ? JSON.parse(text) : undefined) as Json & Json[],
  };
}

function expectError(answer: { status: number; body: Json }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ code, status });
  expect(typeof answer.body.message).toBe('string');
}

describeRedis('two mock replicas on one Redis, serving the v1.1 document', () => {
  let redis: RedisServer;
  let a: Replica;
  let b: Replica;
  let prefixes = 0;
  const started: Replica[] = [];

  async function pair(server: RedisServer = redis) {
    const prefix = `v11-${(prefixes += 1)}`;
    const first = await startReplica(server.url, prefix);
    started.push(first);
    const second = await startReplica(server.url, prefix);
    started.push(second);
    return { first, second, prefix };
  }

  beforeAll(async () => {
    redis = await startRedisServer({ durable: true });
  }, 60_000);
  afterEach(async () => {
    await Promise.all(started.splice(0).map(stopReplica));
  });
  afterAll(async () => {
    await redis?.close();
  });

  it(
    'answers every role of every collection on one replica and shows it on the other',
    { timeout: 60_000 },
    async () => {
      ({ first: a, second: b } = await pair());
      // create (a) → read, filter by the new field, filter by status (b)
      const created = await send(`${a.url}/pets`, 'POST', {
        name: 'Kiki',
        categoryId: 3,
        status: 'pending',
        tag: 'new',
        x: 1,
      });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(created.body).toEqual({ id, name: 'Kiki', categoryId: 3, status: 'pending', tag: 'new' });
      expect(created.location).toMatch(new RegExp(`/pets/${id}$`));
      expect((await send(`${b.url}/pets/${id}`)).body).toEqual(created.body);
      expect((await send(`${b.url}/pets?tag=new`)).body).toEqual([created.body]);
      const pending = (await send(`${b.url}/pets?status=pending&limit=100`)).body;
      expect(pending.some((pet) => pet.id === id)).toBe(true);
      expect(pending.every((pet) => pet.status === 'pending')).toBe(true);
      expect((await send(`${b.url}/pets?status=sold&tag=new`)).body).toEqual([]);
      expect((await send(`${b.url}/pets?status=pending&tag=new`)).body).toEqual([created.body]);

      // replace (b): the whole pet, the tag and status it did not send gone → read on a
      const replaced = await send(`${b.url}/pets/${id}`, 'PUT', { name: 'Kiki II', categoryId: 4 });
      expect(replaced).toMatchObject({ status: 200, body: { id, name: 'Kiki II', categoryId: 4 } });
      expect(replaced.body).toEqual({ id, name: 'Kiki II', categoryId: 4 });
      expect((await send(`${a.url}/pets/${id}`)).body).toEqual({ id, name: 'Kiki II', categoryId: 4 });
      expect((await send(`${a.url}/pets?tag=new`)).body).toEqual([]);

      // merge (a): a field set, one kept → read and filtered on b; null removes
      const patched = await send(
        `${a.url}/pets/${id}`,
        'PATCH',
        { tag: 'fluffy', status: 'sold' },
        'application/merge-patch+json',
      );
      expect(patched.body).toEqual({ id, name: 'Kiki II', categoryId: 4, status: 'sold', tag: 'fluffy' });
      expect((await send(`${b.url}/pets?tag=fluffy`)).body).toEqual([patched.body]);
      const unset = await send(`${b.url}/pets/${id}`, 'PATCH', { status: null }, 'application/merge-patch+json');
      expect(unset.body).toEqual({ id, name: 'Kiki II', categoryId: 4, tag: 'fluffy' });
      expect((await send(`${a.url}/pets?status=sold&tag=fluffy`)).body).toEqual([]);
      // A patch the schema refuses changes nothing, on either replica.
      expectError(
        await send(`${a.url}/pets/${id}`, 'PATCH', { categoryId: null }, 'application/merge-patch+json'),
        400,
        'invalid_body',
      );
      expect((await send(`${b.url}/pets/${id}`)).body).toEqual(unset.body);

      // the nested collection (a) → listed under its pet only, read (b)
      const photo = await send(`${a.url}/pets/${id}/photos`, 'POST', {
        url: 'https://example.com/k.png',
        caption: 'k',
      });
      expect(photo.status).toBe(201);
      expect(photo.body).toMatchObject({ petId: id, url: 'https://example.com/k.png', caption: 'k' });
      const other = await send(`${a.url}/pets/1/photos`, 'POST', { url: 'https://example.com/1.png' });
      expect((await send(`${b.url}/pets/${id}/photos`)).body).toEqual([photo.body]);
      expect((await send(`${b.url}/pets/1/photos`)).body).toEqual([other.body]);
      expect((await send(`${b.url}/pets/${id}/photos/${photo.body.id as number}`)).body).toEqual(photo.body);
      expectError(await send(`${b.url}/pets/1/photos/${photo.body.id as number}`), 404, 'not_found');

      // orders: their own ids, placedAt filled, the status filter, delete
      const order = await send(`${b.url}/store/orders`, 'POST', { petId: id, quantity: 2, status: 'placed' });
      expect(order.status).toBe(201);
      expect(order.body).toMatchObject({ petId: id, quantity: 2, status: 'placed' });
      expect(Date.parse(order.body.placedAt as string)).not.toBeNaN();
      expect((await send(`${a.url}/store/orders/${order.body.id as number}`)).body).toEqual(order.body);
      expect((await send(`${a.url}/store/orders?status=placed`)).body).toContainEqual(order.body);
      expect((await send(`${a.url}/store/orders?status=delivered`)).body).not.toContainEqual(order.body);
      expect((await send(`${a.url}/store/orders/${order.body.id as number}`, 'DELETE')).status).toBe(204);
      expectError(await send(`${b.url}/store/orders/${order.body.id as number}`), 404, 'not_found');

      // delete (b): gone on a, from lists too, and its photos with it; unknown ids are the document's 404
      expect((await send(`${b.url}/pets/${id}`, 'DELETE')).status).toBe(204);
      expectError(await send(`${a.url}/pets/${id}`), 404, 'not_found');
      expect((await send(`${a.url}/pets?tag=fluffy`)).body).toEqual([]);
      expectError(await send(`${a.url}/pets/${id}/photos`), 404, 'not_found');
      expectError(await send(`${a.url}/pets/${id}`, 'DELETE'), 404, 'not_found');
      expectError(await send(`${a.url}/pets/${id}`, 'PUT', { name: 'x', categoryId: 1 }), 404, 'not_found');
      expectError(
        await send(`${a.url}/pets/${id}`, 'PATCH', { name: 'x' }, 'application/merge-patch+json'),
        404,
        'not_found',
      );
      const state = (await send(`${a.origin}/__admin/state`)).body as unknown as State;
      expect(state.collections['pets/photos']!.items).toEqual([other.body]);
      expect(state.collections['pets']!.items.some((pet) => pet.id === id)).toBe(false);
      // a new pet never takes the deleted one's id
      expect((await send(`${b.url}/pets`, 'POST', { name: 'Next', categoryId: 1 })).body.id).toBe(id + 1);
    },
  );

  it(
    'never hands out an id twice under parallel creates on both replicas, in every collection',
    { timeout: 60_000 },
    async () => {
      ({ first: a, second: b } = await pair());
      const perReplica = 40;
      const creates = [a, b].flatMap((replica, r) =>
        Array.from({ length: perReplica }, (_, i) =>
          Promise.all([
            send(`${replica.url}/pets`, 'POST', { name: `p${r}-${i}`, categoryId: 1, tag: `t${r}` }),
            send(`${replica.url}/store/orders`, 'POST', { petId: 1, quantity: i + 1 }),
            send(`${replica.url}/pets/1/photos`, 'POST', { url: `https://example.com/${r}/${i}.png` }),
          ]),
        ),
      );
      const answers = await Promise.all(creates);
      for (const column of [0, 1, 2]) {
        const ids = answers.map((row) => {
          expect(row[column]!.status).toBe(201);
          return row[column]!.body.id as number;
        });
        expect(new Set(ids).size).toBe(2 * perReplica);
      }
      const pets = (await send(`${a.url}/pets?limit=100`)).body;
      const ids = pets.map((pet) => pet.id as number);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect((await send(`${a.url}/pets?tag=t0&limit=100`)).body).toHaveLength(perReplica);
      expect((await send(`${b.url}/pets?tag=t1&limit=100`)).body).toHaveLength(perReplica);
      expect((await send(`${b.url}/pets/1/photos?limit=10`)).body).toHaveLength(10);
      const state = (await send(`${b.origin}/__admin/state`)).body as unknown as State;
      expect(state.collections['pets/photos']!.items.filter((photo) => photo.petId === 1)).toHaveLength(2 * perReplica);
      expect(state.collections['store/orders']!.items).toHaveLength(2 * perReplica);
    },
  );

  it('admin reset, export and import cover every collection, for both replicas', { timeout: 60_000 }, async () => {
    ({ first: a, second: b } = await pair());
    const seeded = (await send(`${a.origin}/__admin/state`)).body;
    await send(`${a.url}/store/orders`, 'POST', { petId: 1, quantity: 1 });
    await send(`${a.url}/pets/1/photos`, 'POST', { url: 'https://example.com/r.png' });
    const exported = (await send(`${b.origin}/__admin/state`)).body as unknown as State;
    expect(exported.collections['store/orders']!.items).toHaveLength(1);
    expect(exported.collections['pets/photos']!.items).toHaveLength(1);
    expect((await send(`${b.origin}/__admin/reset`, 'POST')).status).toBe(200);
    expect((await send(`${a.origin}/__admin/state`)).body).toEqual(seeded);
    expect((await send(`${a.url}/store/orders`)).body).toEqual([]);
    expect((await send(`${a.origin}/__admin/state`, 'PUT', exported)).status).toBe(200);
    expect((await send(`${b.origin}/__admin/state`)).body).toEqual(exported);
    expect((await send(`${b.url}/pets/1/photos`)).body).toEqual(exported.collections['pets/photos']!.items);
  });

  describe('Redis restarts', () => {
    async function writeEverything(replica: Replica) {
      const pet = (await send(`${replica.url}/pets`, 'POST', { name: 'Keep', categoryId: 1, tag: 'k' })).body;
      const gone = (await send(`${replica.url}/pets`, 'POST', { name: 'Gone', categoryId: 1 })).body;
      expect(
        (await send(`${replica.url}/pets/${pet.id as number}`, 'PUT', { name: 'Kept', categoryId: 2 })).status,
      ).toBe(200);
      const merged = await send(
        `${replica.url}/pets/${pet.id as number}`,
        'PATCH',
        { tag: 'm' },
        'application/merge-patch+json',
      );
      expect(merged.status).toBe(200);
      expect((await send(`${replica.url}/pets/${gone.id as number}`, 'DELETE')).status).toBe(204);
      const order = (await send(`${replica.url}/store/orders`, 'POST', { petId: pet.id, quantity: 3 })).body;
      return { pet: merged.body, gone, order };
    }

    it(
      'with appendfsync always: every acknowledged PUT, PATCH, DELETE and order is there after a SIGKILL of Redis',
      { timeout: 60_000 },
      async () => {
        const { first, second } = await pair();
        const { pet, gone, order } = await writeEverything(first);
        await redis.stop({ hard: true });
        await redis.start();
        // Each replica answers 503 until its own connection to the restarted Redis is back: wait for both.
        for (const replica of [second, first])
          await expect
            .poll(async () => (await send(`${replica.url}/pets/${pet.id as number}`)).status, { timeout: 20_000 })
            .toBe(200);
        expect((await send(`${second.url}/pets/${pet.id as number}`)).body).toEqual({
          id: pet.id,
          name: 'Kept',
          categoryId: 2,
          tag: 'm',
        });
        expectError(await send(`${second.url}/pets/${gone.id as number}`), 404, 'not_found');
        expect((await send(`${first.url}/store/orders/${order.id as number}`)).body).toEqual(order);
        expect((await send(`${second.url}/pets`, 'POST', { name: 'After', categoryId: 1 })).body.id).toBe(
          (gone.id as number) + 1,
        );
      },
    );

    it(
      'that restarts empty: 503 for every role on both replicas, never an id again or a 404, until a reset',
      { timeout: 60_000 },
      async () => {
        const volatile = await startRedisServer({ durable: false });
        try {
          const { first, second } = await pair(volatile);
          const { pet, order } = await writeEverything(first);
          await volatile.stop({ hard: true });
          await volatile.start();
          const calls: [string, string, unknown?, string?][] = [
            ['GET', `/pets/${pet.id as number}`],
            ['GET', '/pets'],
            ['POST', '/pets', { name: 'New', categoryId: 1 }],
            ['PUT', `/pets/${pet.id as number}`, { name: 'x', categoryId: 1 }],
            ['PATCH', `/pets/${pet.id as number}`, { tag: 'x' }, 'application/merge-patch+json'],
            ['DELETE', `/pets/${pet.id as number}`],
            ['GET', `/store/orders/${order.id as number}`],
            ['POST', '/store/orders', { petId: 1, quantity: 1 }],
            ['DELETE', `/store/orders/${order.id as number}`],
            ['GET', '/pets/1/photos'],
          ];
          for (const replica of [first, second]) {
            await expect.poll(async () => (await send(`${replica.url}/pets/1`)).status, { timeout: 20_000 }).toBe(503);
            for (const [method, path, body, type] of calls) {
              expectError(await send(`${replica.url}${path}`, method, body, type), 503, 'store_unavailable');
            }
          }
          // Nothing was written while refused: the store holds only the lost mark.
          const check = createClient({ url: volatile.url });
          await check.connect();
          try {
            expect((await check.keys('*')).filter((key) => !key.endsWith(':gone'))).toEqual([]);
          } finally {
            await check.close();
          }
          expect((await send(`${second.origin}/__admin/reset`, 'POST')).status).toBe(200);
          expect((await send(`${first.url}/pets/1`)).status).toBe(200);
          expect((await send(`${first.url}/store/orders`)).body).toEqual([]);
        } finally {
          await Promise.all(started.splice(0).map(stopReplica));
          await volatile.close();
        }
      },
    );
  });
});
