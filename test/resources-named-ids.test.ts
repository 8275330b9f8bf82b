import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockServer, type MockServer, type ReloadEvent } from '../src/mock/http/server.js';
import { createPetstoreFetch } from '../src/fetch/index.js';
import { loadSpec, type Spec } from '../src/openapi/load-spec.js';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';
import { startCli } from './support/cli.js';
import { judgedClient, type JudgedAnswer, type JudgedSend } from './support/judged-client.js';
import { once } from 'node:events';

/**
 * Resources as a document nobody here wrote shapes them (issue 52 item 5; test/fixtures/resource-documents/zoo.yaml),
 * in every store — memory, `--state`, Redis and the portable core (`petstore-kit/fetch`): an id the client names is
 * the id, a taken one gets the status the document declares and stores nothing, the counter continues above it; a
 * list never holds more than its schema's `maxItems`, whatever the `limit` (one past 2^53 included); a GET on
 * `/x/{param}` answering an array is no item read; the document's own fixtures folder and examples seed it, never
 * the bundled pets. Every answer is judged against the document.
 */
const zoo = fileURLToPath(new URL('./fixtures/resource-documents/zoo.yaml', import.meta.url));
const KEY = 'named-ids-key';
const BASE = 'https://zoo.example.com/zoo';

type Json = Record<string, unknown>;

/** A client for `fetchImpl` at `base` whose every answer must validate against the document being served. */
function client(fetchImpl: typeof fetch, base: string, spec: () => Spec): JudgedSend {
  return judgedClient(fetchImpl, base, KEY, spec);
}

function ids(answer: JudgedAnswer): unknown[] {
  return (answer.body as Json[]).map((item) => item.id);
}

/** The rules on a fresh store; each store's own test adds what it promises beyond (a restart, a second replica). */
async function exercise(send: JudgedSend): Promise<void> {
  // Seeded from fixtures/animals.json beside the document and from the keepers' list example: no bundled pet.
  expect(ids(await send('GET', '/animals'))).toEqual([1, 2]);
  expect(ids(await send('GET', '/keepers'))).toEqual(['k1', 'k2']);

  // A taken id: the declared 409, the stored item unchanged, nothing added.
  const taken = await send('POST', '/animals', { id: 1, name: 'Dup' });
  expect(taken.status).toBe(409);
  expect(taken.body).toMatchObject({
    code: 'id_taken',
    message: 'a animal with id 1 exists already; nothing was stored',
  });
  expect((await send('GET', '/animals/1')).body).toEqual({ id: 1, name: 'Leo' });
  expect(ids(await send('GET', '/animals'))).toEqual([1, 2]);

  // An id the client names is the id; one below the highest goes to its place in id order.
  const mine = await send('POST', '/animals', { id: 40, name: 'Mine' });
  expect(mine).toMatchObject({ status: 201, body: { id: 40, name: 'Mine' } });
  expect(mine.location).toMatch(/\/zoo\/animals\/40$/);
  expect((await send('GET', '/animals/40')).body).toEqual({ id: 40, name: 'Mine' });
  expect((await send('POST', '/animals', { id: 20, name: 'Mid' })).status).toBe(201);
  expect(ids(await send('GET', '/animals?limit=4'))).toEqual([1, 2, 20, 40]);

  // No id sent: the mock assigns one above every id, the named ones included.
  expect((await send('POST', '/animals', { name: 'Auto' })).body).toEqual({ id: 41, name: 'Auto' });

  // An int64 id with no room for the counter above it: 400, nothing stored.
  const top = await send('POST', '/animals', { id: 9223372036854775807n, name: 'Top' });
  expect(top.status).toBe(400);
  expect(top.body.message).toBe(
    'body.id must be an int64 of at most 9223372036854775806 (2^63 − 2); nothing was stored',
  );
  expect((await send('GET', '/animals/9223372036854775807')).status).toBe(404);

  // Six animals now; the list answer holds at most 5 (maxItems), with or without a limit, however large.
  expect((await send('POST', '/animals', { name: 'Sixth' })).status).toBe(201);
  expect(ids(await send('GET', '/animals'))).toEqual([1, 2, 20, 40, 41]);
  expect(ids(await send('GET', '/animals?limit=100'))).toEqual([1, 2, 20, 40, 41]);
  expect(ids(await send('GET', '/animals?limit=9007199254740993'))).toEqual([1, 2, 20, 40, 41]);
  expect(ids(await send('GET', '/animals?limit=2'))).toEqual([1, 2]);

  // A string id: the create declares 400 and no 409, so a taken id gets that 400.
  const keeper = await send('POST', '/keepers', { id: 'k1', name: 'Other' });
  expect(keeper.status).toBe(400);
  expect(keeper.body).toMatchObject({
    code: 'invalid_body',
    message: 'a keeper with id k1 exists already; nothing was stored',
  });
  expect((await send('GET', '/keepers/k1')).body).toEqual({ id: 'k1', name: 'Ada' });
  expect((await send('POST', '/keepers', { id: 'k9', name: 'Cy' })).body).toEqual({ id: 'k9', name: 'Cy' });
  expect(ids(await send('GET', '/keepers'))).toEqual(['k1', 'k2', 'k9']);

  // A GET on /x/{param} whose 200 is an array reads no item: no 404 for a zone nobody stored.
  const zone = await send('GET', '/enclosures/south');
  expect(zone.status).toBe(200);
  expect(zone.body).toEqual([{ id: 1, zone: 'north' }]);
}

// Each store's test sends a few hundred requests (a list past maxItems, one past 2^53); on a busy machine the first,
// which also loads the mock, took over 20 s: a hang detector, not a measure.
describe('the zoo document: ids, maxItems, array GETs and seeds', { timeout: 120_000 }, () => {
  it('in memory', async () => {
    const server = await createMockServer({ spec: zoo, apiKeys: [KEY], port: 0 });
    try {
      await exercise(client(fetch, server.url, () => server.mock.spec));
    } finally {
      await server.close();
    }
  });

  it('with --watch: an edit of the fixtures folder beside the document reseeds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-own-fixtures-'));
    mkdirSync(join(dir, 'fixtures'));
    copyFileSync(zoo, join(dir, 'zoo.yaml'));
    copyFileSync(
      new URL('./fixtures/resource-documents/fixtures/animals.json', import.meta.url),
      join(dir, 'fixtures/animals.json'),
    );
    let reloaded: (event: ReloadEvent) => void = () => {};
    const server = await createMockServer({
      spec: join(dir, 'zoo.yaml'),
      apiKeys: [KEY],
      port: 0,
      watch: true,
      onReload: (event) => reloaded(event),
    });
    try {
      const send = client(fetch, server.url, () => server.mock.spec);
      expect(ids(await send('GET', '/animals'))).toEqual([1, 2]);
      const event = new Promise<ReloadEvent>((resolve) => (reloaded = resolve));
      writeFileSync(join(dir, 'fixtures/animals.json'), JSON.stringify([{ id: 7, name: 'New' }]));
      expect((await event).ok).toBe(true);
      expect(ids(await send('GET', '/animals'))).toEqual([7]);
    } finally {
      await server.close();
    }
  });

  it('in the portable core (petstore-kit/fetch)', async () => {
    const petstoreFetch = createPetstoreFetch({ spec: zoo, apiKeys: [KEY], baseUrl: BASE });
    const spec = await loadSpec(zoo);
    try {
      await exercise(client(petstoreFetch, BASE, () => spec));
    } finally {
      await petstoreFetch.close();
    }
  });

  it('with --state: named ids and the counter above them survive a restart', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'petstore-named-ids-')), 'state.json');
    const first = await createMockServer({ spec: zoo, apiKeys: [KEY], port: 0, state });
    try {
      await exercise(client(fetch, first.url, () => first.mock.spec));
    } finally {
      await first.close();
    }
    const second = await createMockServer({ spec: zoo, apiKeys: [KEY], port: 0, state });
    try {
      const send = client(fetch, second.url, () => second.mock.spec);
      expect((await send('GET', '/animals/20')).body).toEqual({ id: 20, name: 'Mid' });
      expect((await send('POST', '/animals', { id: 20, name: 'Again' })).status).toBe(409);
      expect((await send('POST', '/animals', { name: 'After' })).body).toEqual({ id: 43, name: 'After' });
      expect(ids(await send('GET', '/keepers'))).toEqual(['k1', 'k2', 'k9']);
    } finally {
      await second.close();
    }
  });
});

describe('the zoo document with --state under SIGKILL', () => {
  it(
    'keeps every acknowledged named id, those inserted below the highest included, and the counter above them',
    { timeout: 90_000 },
    async () => {
      const state = join(mkdtempSync(join(tmpdir(), 'petstore-named-kill-')), 'state.json');
      const args = ['mock', '--port', '0', '--spec', zoo, '--state', state, '--api-key', KEY, '--quiet', '--no-config'];
      const first = await startCli(args, /listening on (\S+)/);
      const spec = await loadSpec(zoo);
      const send = client(fetch, first.match[1]!, () => spec);
      const acknowledged = new Map<unknown, Json>();
      let killed = false;
      // Each client names ids downwards from its own block (every create but a block's first lands below the
      // highest: an insert, which rewrites the state file), and every fifth create names none.
      const worker = async (n: number) => {
        for (let i = 0; !killed; i++) {
          try {
            const body = i % 5 === 4 ? { name: `auto-${n}-${i}` } : { id: 100_000 * (n + 1) - i, name: `n-${n}-${i}` };
            const created = await send('POST', '/animals', body);
            if (created.status !== 201) throw new Error(`POST answered ${created.status}`);
            acknowledged.set(created.body.id, created.body);
          } catch (error) {
            if (killed) return; // the process is gone: the create in flight was never acknowledged
            throw error;
          }
        }
      };
      const workers = Array.from({ length: 4 }, (_, n) => worker(n));
      // Killed once enough creates are acknowledged: by count, not by a clock.
      while (acknowledged.size < 150) await new Promise((resolve) => setImmediate(resolve));
      first.child.kill('SIGKILL');
      killed = true;
      await once(first.child, 'close');
      await Promise.all(workers);

      const second = await startCli(args, /listening on (\S+)/);
      try {
        const again = client(fetch, second.match[1]!, () => spec);
        const lost: unknown[] = [];
        for (const [id, item] of acknowledged) {
          const got = await again('GET', `/animals/${String(id)}`);
          if (got.status !== 200 || got.body.name !== item.name) lost.push(id);
        }
        expect(lost).toEqual([]);
        const highest = Math.max(...[...acknowledged.keys()].map(Number));
        const next = await again('POST', '/animals', { name: 'after' });
        expect(next.body.id as number).toBeGreaterThan(highest);
      } finally {
        second.child.kill('SIGTERM');
        await once(second.child, 'close');
      }
    },
  );
});

describeRedis('the zoo document on Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer({ durable: false });
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('two replicas: the rules hold, and an id named on one is taken on the other', async () => {
    const options = { spec: zoo, apiKeys: [KEY], port: 0, store: redis.url, storePrefix: 'zoo-1' };
    const a: MockServer = await createMockServer(options);
    const b: MockServer = await createMockServer(options);
    try {
      await exercise(client(fetch, a.url, () => a.mock.spec));
      const send = client(fetch, b.url, () => b.mock.spec);
      expect((await send('GET', '/animals/40')).body).toEqual({ id: 40, name: 'Mine' });
      const taken = await send('POST', '/animals', { id: 40, name: 'Twice' });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('id_taken');
      expect((await send('POST', '/animals', { id: -5, name: 'Below' })).body).toEqual({ id: -5, name: 'Below' });
      expect((await send('POST', '/animals', { name: 'Next' })).body).toEqual({ id: 43, name: 'Next' });
      expect(ids(await send('GET', '/animals'))).toEqual([-5, 1, 2, 20, 40]);
      expect((await send('POST', '/keepers', { id: 'k9', name: 'Twice' })).status).toBe(400);
      // One id named on both replicas at once: stored once, the other told it is taken.
      const sendA = client(fetch, a.url, () => a.mock.spec);
      const both = await Promise.all([
        sendA('POST', '/animals', { id: 77, name: 'From a' }),
        send('POST', '/animals', { id: 77, name: 'From b' }),
      ]);
      expect(both.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect((await send('GET', '/animals/77')).body).toEqual(both.find((answer) => answer.status === 201)!.body);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
