import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { petstoreHandlers } from '../src/msw/index.js';
import { createPetstoreFetch } from '../src/fetch/index.js';

/**
 * `petstore-kit/msw` and `petstore-kit/fetch` in Node on another document (`spec`): the same resources by role as the
 * server's, here a v1.1 document's DELETE and its second collection.
 */
const spec = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const KEY = 'in-process-resources-key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const BASE = 'https://petstore.example.com/v1';

async function deleteAndOrder(fetchImpl: typeof fetch): Promise<void> {
  const created = await fetchImpl(`${BASE}/pets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Gone', categoryId: 1, tag: 'x' }),
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number; tag: string };
  expect(pet.tag).toBe('x');
  expect((await fetchImpl(`${BASE}/pets/${pet.id}`, { method: 'DELETE', headers })).status).toBe(204);
  expect((await fetchImpl(`${BASE}/pets/${pet.id}`, { headers })).status).toBe(404);
  const order = await fetchImpl(`${BASE}/store/orders`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ petId: 1, quantity: 3 }),
  });
  expect(order.status).toBe(201);
  expect(order.headers.get('location')).toBe('/v1/store/orders/1');
}

describe('another document in Node', () => {
  it('petstore-kit/fetch serves its resources by role', async () => {
    const petstoreFetch = createPetstoreFetch({ spec, apiKeys: [KEY], baseUrl: BASE });
    try {
      await deleteAndOrder(petstoreFetch);
    } finally {
      await petstoreFetch.close();
    }
  });

  describe('petstore-kit/msw', () => {
    const handlers = petstoreHandlers({ spec, apiKeys: [KEY], baseUrl: BASE });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    afterAll(async () => {
      server.close();
      await handlers.close();
    });

    it('serves its resources by role through setupServer', async () => {
      await deleteAndOrder(fetch);
    });
  });
});
