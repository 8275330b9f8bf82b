import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli } from './support/cli.js';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'team-mock-key-4d1e';
const auth = { Authorization: `Bearer ${KEY}` };
const SEED_COUNT = 57; // the bundled fixtures

interface Replica {
  url: string;
  origin: string;
  child: ChildProcess;
  output: () => string;
}

/** A mock process (the built CLI) on the shared store. */
async function startReplica(redisUrl: string, prefix: string): Promise<Replica> {
  const { child, match, output } = await startCli(
    ['mock', '--port', '0', '--quiet', '--no-config', '--api-key', KEY, '--store', redisUrl, '--store-prefix', prefix],
    /listening on (http:\/\/\S+)\n[\s\S]*admin API: .*\n/,
  );
  const url = match[1]!;
  return { url, origin: new URL(url).origin, child, output };
}

async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  const exited = once(replica.child, 'exit');
  replica.child.kill('SIGTERM');
  await exited;
}

async function createPet(replica: Replica, name: string, categoryId = 1) {
  const response = await fetch(`${replica.url}/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId, status: 'pending' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function getJson(url: string) {
  const response = await fetch(url, { headers: auth });
  return { status: response.status, body: await response.json() };
}

/** Runs `tasks` with at most `width` at a time (a shared machine: no unbounded bursts). */
async function pooled<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

describeRedis('a team mock: three mock processes sharing one Redis', () => {
  let redis: RedisServer;
  const replicas: Replica[] = [];
  const prefix = 'team';

  beforeAll(async () => {
    redis = await startRedisServer({ durable: true });
    for (let i = 0; i < 3; i += 1) replicas.push(await startReplica(redis.url, prefix));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map(stopReplica));
    await redis?.close();
  });

  it('the first replica seeds the store, the others join it', () => {
    expect(replicas[0]!.output()).toContain('seeded by this replica');
    expect(replicas[1]!.output()).toContain('joined the existing store');
    expect(replicas[2]!.output()).toContain(`${SEED_COUNT} pets in the shared store`);
  });

  it('a pet created on one replica is returned by the others, by id and in lists', async () => {
    const created = await createPet(replicas[0]!, 'Shared');
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    for (const replica of replicas.slice(1)) {
      expect(await getJson(`${replica.url}/pets/${id}`)).toEqual({ status: 200, body: created.body });
      const listed = await getJson(`${replica.url}/pets?status=pending&limit=100`);
      expect(listed.body).toContainEqual(created.body);
    }
  });

  it('1,000 creates spread over the replicas in parallel get 1,000 unique ids, none lost', async () => {
    const results = await pooled(1000, 24, (i) => createPet(replicas[i % 3]!, `bulk-${i}`, i));
    expect(results.every((result) => result.status === 201)).toBe(true);
    const ids = results.map((result) => result.body.id as number);
    expect(new Set(ids).size).toBe(1000);
    // Every one is there, read through a replica that did not create it.
    const missing = await pooled(1000, 24, async (i) => {
      const { body } = await getJson(`${replicas[(i + 1) % 3]!.url}/pets/${ids[i]}`);
      return (body as { name?: string }).name === `bulk-${i}` ? 0 : 1;
    });
    expect(missing.filter(Boolean)).toHaveLength(0);
  }, 60_000);

  it('a reset through one replica is seen by all at once', async () => {
    const reset = await fetch(`${replicas[1]!.origin}/__admin/reset`, { method: 'POST', headers: auth });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({ petCount: SEED_COUNT });
    for (const replica of replicas) {
      const { body } = await getJson(`${replica.url}/pets?status=pending&limit=100`);
      expect((body as { name: string }[]).some((pet) => pet.name.startsWith('bulk-'))).toBe(false);
      expect((await getJson(`${replica.url}/pets/${SEED_COUNT + 5}`)).status).toBe(404);
    }
    expect((await createPet(replicas[2]!, 'after-reset')).body.id).toBe(SEED_COUNT + 1);
  });

  it('PUT /__admin/state on one replica replaces the state for all', async () => {
    const put = await fetch(`${replicas[0]!.origin}/__admin/state`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pets: [{ id: 7, name: 'Only', categoryId: 1, status: 'sold' }], nextId: 100 }),
    });
    expect(put.status).toBe(200);
    expect(await getJson(`${replicas[2]!.url}/pets?limit=100`)).toEqual({
      status: 200,
      body: [{ id: 7, name: 'Only', categoryId: 1, status: 'sold' }],
    });
    expect((await createPet(replicas[1]!, 'hundred')).body.id).toBe(100);
    await fetch(`${replicas[0]!.origin}/__admin/reset`, { method: 'POST', headers: auth });
  });

  it('Redis stopped and started mid-run: 503 store_unavailable, a log line, then recovery with every acknowledged pet', async () => {
    const acknowledged = new Map<number, string>();
    const outages: unknown[] = [];
    let running = true;
    let sent = 0;
    // Creates keep flowing over all three replicas while Redis goes away and comes back.
    const traffic = pooled(6, 6, async (worker) => {
      while (running) {
        const name = `live-${worker}-${sent++}`;
        const result = await createPet(replicas[worker % 3]!, name).catch(() => undefined);
        if (result?.status === 201) acknowledged.set(result.body.id as number, name);
        else if (result) outages.push(result);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    await expect.poll(() => acknowledged.size, { timeout: 10_000 }).toBeGreaterThan(30);
    await redis.stop({ hard: true }); // SIGKILL: only what Redis fsynced survives (appendfsync always)
    await expect.poll(() => outages.length, { timeout: 10_000 }).toBeGreaterThan(10);
    const before = acknowledged.size;
    await redis.start();
    await expect.poll(() => acknowledged.size, { timeout: 20_000 }).toBeGreaterThan(before + 30);
    running = false;
    await traffic;
    for (const outage of outages) {
      expect(outage).toEqual({
        status: 503,
        body: { code: 'store_unavailable', status: 503, message: expect.stringContaining('not available') },
      });
    }
    // Every replica is back (each reconnects on its own schedule, backing off up to 1 s; the creates above may all
    // have gone through the two that came back first) ...
    const someId = [...acknowledged.keys()][0]!;
    for (const replica of replicas) {
      await expect
        .poll(async () => (await getJson(`${replica.url}/pets/${someId}`)).status, { timeout: 10_000 })
        .toBe(200);
    }
    // ... and every pet a 201 was sent for is there, through every replica.
    const ids = [...acknowledged.keys()];
    const wrong = await pooled(ids.length, 16, async (i) => {
      const { status, body } = await getJson(`${replicas[i % 3]!.url}/pets/${ids[i]}`);
      // What came back instead, to tell a lost pet (404) from a replica not yet back (503).
      return (body as { name?: string }).name === acknowledged.get(ids[i]!)
        ? undefined
        : `id ${ids[i]} via replica ${i % 3}: ${status} ${JSON.stringify(body)}`;
    });
    expect(wrong.filter(Boolean)).toEqual([]);
    for (const replica of replicas) {
      expect(replica.output()).toMatch(
        /lost the Redis store at redis:\/\/127\.0\.0\.1:\d+ .*requests get 503 store_unavailable/,
      );
      expect(replica.output()).toMatch(/the Redis store at redis:\/\/127\.0\.0\.1:\d+ is back/);
      expect(replica.output()).not.toContain('internal error');
    }
  }, 90_000);

  it(
    'the whole contract suite passes against a replica',
    async () => {
      const result = await runCli(['contract', '--base-url', replicas[1]!.url, '--api-key', KEY]);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('the contract holds');
      expect(result.code).toBe(0);
    },
    limitForRuns(1),
  );
});

describeRedis('a Redis store with credentials and its start-up faults', () => {
  let redis: RedisServer;
  let dir: string;
  const password = 'p4ss-w0rd-x9';

  beforeAll(async () => {
    redis = await startRedisServer({ durable: false, args: ['--requirepass', password] });
    dir = mkdtempSync(join(tmpdir(), 'petstore-redis-config-'));
  });
  afterAll(async () => {
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the store from PETSTORE_STORE and never prints the password', async () => {
    const { child, output } = await startCli(['mock', '--port', '0', '--no-config'], /admin API/, {
      PETSTORE_STORE: `redis://default:${password}@127.0.0.1:${redis.port}/3`,
    });
    try {
      expect(output()).toContain(`store: redis redis://***@127.0.0.1:${redis.port}/3, prefix "petstore"`);
      expect(output()).not.toContain(password);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('takes the store and the prefix from the config file', async () => {
    const config = join(dir, 'petstore-kit.config.json');
    writeFileSync(
      config,
      JSON.stringify({ store: `redis://:${password}@127.0.0.1:${redis.port}`, 'store-prefix': 'from-config' }),
    );
    const { child, output } = await startCli(['mock', '--port', '0', '--config', config], /admin API/);
    try {
      expect(output()).toContain('prefix "from-config"');
      expect(output()).not.toContain(password);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('exits 1 with one line when Redis refuses the password or is not there', async () => {
    for (const url of [`redis://default:wrong-${password}@127.0.0.1:${redis.port}`, 'redis://u:secret@127.0.0.1:1']) {
      const result = await runCli(['mock', '--port', '0', '--no-config', '--store', url]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^petstore-kit: cannot use the Redis store at redis:\/\/\*\*\*@127\.0\.0\.1:\d+: .+\n$/,
      );
      expect(result.stderr).not.toContain(password);
      expect(result.stderr).not.toContain('secret');
    }
  });

  it('refuses --state together with a Redis store, and an unknown store, with exit 2', async () => {
    const both = await runCli([
      'mock',
      '--no-config',
      '--store',
      `redis://127.0.0.1:${redis.port}`,
      '--state',
      join(dir, 'state.json'),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --state or --store redis://…, not both');
    const unknown = await runCli(['mock', '--no-config', '--store', 'mongodb://x:secret@host']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--store must be "memory" or a Redis URL');
    expect(unknown.stderr).not.toContain('secret');
    const prefixOnMemory = await runCli(['mock', '--no-config', '--store-prefix', 'x']);
    expect(prefixOnMemory.code).toBe(2);
    expect(prefixOnMemory.stderr).toContain('--store-prefix is for a Redis store');
  });
});
