import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';
import { petstoreHandlers } from '../src/msw/index.js';
import { createPetstoreFetch } from '../src/fetch/index.js';

// The mock without a server. A small client, as an app would have, run against MSW's setupServer in Node
// and against the fetch function: stateful pets, the key check with its Error body, and the handle's reset().
const KEY = 'in-process-key-4f8a21';

/** The kind of client a frontend has: plain fetch against a base URL. */
function petClient(base: string, key: string, fetchImpl: typeof fetch = fetch) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  return {
    list: async (query = '') => fetchImpl(`${base}/pets${query}`, { headers }),
    get: async (id: number | bigint) => fetchImpl(`${base}/pets/${id}`, { headers }),
    create: async (pet: object) => fetchImpl(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify(pet) }),
  };
}

describe('petstore-kit/msw with setupServer (Node)', () => {
  const handlers = petstoreHandlers({ apiKeys: [KEY] });
  const server = setupServer(...handlers);
  let other: ReturnType<typeof createServer>;
  let otherUrl = '';
  beforeAll(async () => {
    // 'bypass': what is not the Petstore API goes to the network (the handler itself lets other origins through).
    server.listen({ onUnhandledRequest: 'bypass' });
    // A real server on another origin: requests to it must pass through MSW untouched.
    other = createServer((_, res) => res.end('from the real server'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}/hello`;
  });
  afterEach(() => server.resetHandlers());
  afterAll(async () => {
    server.close();
    other.close();
    await handlers.close();
  });

  it("serves a created pet back in the list and by id, at the server mock's default address", async () => {
    const client = petClient('http://127.0.0.1:4010/v1', KEY);
    const created = await client.create({ name: 'Biscuit', categoryId: 2, status: 'pending' });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number; name: string; status: string };
    expect(pet).toMatchObject({ name: 'Biscuit', categoryId: 2, status: 'pending' });
    expect(pet.id).toBeGreaterThan(57);
    const listed = (await (await client.list('?status=pending&limit=100')).json()) as { id: number }[];
    expect(listed.map((p) => p.id)).toContain(pet.id);
    const got = await client.get(pet.id);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(pet);
    // The journal saw it, as GET /__admin/journal would show.
    expect((await handlers.journal({ method: 'POST' }))[0]).toMatchObject({ method: 'POST', status: 201 });
  });

  it('refuses a wrong key with 401 and the Error body, and stores nothing', async () => {
    const before = (await handlers.snapshot()).pets.length;
    const refused = await petClient('http://127.0.0.1:4010/v1', 'not-the-key').create({
      name: 'Sneaky',
      categoryId: 1,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toMatchObject({
      status: 401,
      code: expect.any(String),
      message: expect.stringMatching(/key/i),
    });
    expect((await handlers.snapshot()).pets.length).toBe(before);
  });

  it('reset() takes the store back to the fixtures', async () => {
    const client = petClient('http://127.0.0.1:4010/v1', KEY);
    const { id } = (await (await client.create({ name: 'Temporary', categoryId: 1 })).json()) as { id: number };
    expect((await client.get(id)).status).toBe(200);
    await handlers.reset();
    const gone = await client.get(id);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ status: 404 });
    expect((await handlers.snapshot()).pets).toHaveLength(57);
  });

  it('control() sets a scenario for every request without a Prefer of its own, and forces a status, until reset', async () => {
    const client = petClient('http://127.0.0.1:4010/v1', KEY);
    await handlers.control({ prefer: 'code=401' });
    try {
      const forced = await client.get(1);
      expect(forced.status).toBe(401);
      expect(await forced.json()).toMatchObject({ status: 401 });
      await handlers.control({ force: { status: 503, count: 1 } });
      const unavailable = await client.list();
      expect(unavailable.status).toBe(503);
      expect(await unavailable.json()).toMatchObject({ code: 'forced', status: 503 });
    } finally {
      expect(await handlers.resetControl()).toEqual({ delay: null, faultRate: 0, prefer: null, force: null });
    }
    expect((await client.get(1)).status).toBe(200);
  });

  it('lets requests to other origins through to the network', async () => {
    const answer = await fetch(otherUrl);
    expect(await answer.text()).toBe('from the real server');
  });
});

describe('petstore-kit/fetch', () => {
  const petstoreFetch = createPetstoreFetch({ apiKeys: [KEY], baseUrl: 'https://api.example.test/petstore/v1' });
  afterAll(() => petstoreFetch.close());

  it('answers under any base URL, a mount path included, with no socket', async () => {
    const client = petClient('https://api.example.test/petstore/v1', KEY, petstoreFetch);
    const list = await client.list('?limit=2');
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(2);
    const { id } = (await (await client.create({ name: 'Fetchy', categoryId: 3 })).json()) as { id: number };
    expect(await (await client.get(id)).json()).toMatchObject({ id, name: 'Fetchy' });
    // The server's own answer to a path without the base path: a 404 that names it.
    const missing = await petstoreFetch('https://api.example.test/petstore/pets', {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toMatch(/\/v1/);
  });

  it('rejects a URL outside its base URL as fetch rejects an unreachable host, naming the base URL', async () => {
    await expect(petstoreFetch('https://elsewhere.test/v1/pets')).rejects.toThrow(
      /is not the mock's: its baseUrl is https:\/\/api\.example\.test\/petstore\/v1/,
    );
    await expect(petstoreFetch('https://api.example.test/other/v1/pets')).rejects.toThrow(TypeError);
  });

  it('honours an AbortSignal while a Prefer delay holds the answer', async () => {
    const controller = new AbortController();
    const pending = petstoreFetch('https://api.example.test/petstore/v1/pets', {
      headers: { Authorization: `Bearer ${KEY}`, Prefer: 'delay=2000' },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a simulated dropped connection is a network error, as over a socket', async () => {
    const flaky = createPetstoreFetch({ apiKeys: [KEY], faultRate: 1 });
    try {
      await expect(
        flaky('http://127.0.0.1:4010/v1/pets', { headers: { Authorization: `Bearer ${KEY}` } }),
      ).rejects.toThrow(/dropped/);
    } finally {
      await flaky.close();
    }
  });

  it("refuses a base URL that does not end with the document's base path", async () => {
    const wrong = createPetstoreFetch({ baseUrl: 'http://127.0.0.1:4010/api' });
    await expect(wrong.ready).rejects.toThrow(
      /baseUrl must end with the document's base path \/v1 \(got http:\/\/127\.0\.0\.1:4010\/api\)/,
    );
    await expect(wrong('http://127.0.0.1:4010/api/pets')).rejects.toThrow(/base path/);
  });
});
