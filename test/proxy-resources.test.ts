import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createProxyServer, type ProxyServer } from '../src/proxy/create-proxy-server.js';
import { startScriptedUpstream } from './support/upstreams.js';
import { portRefuses } from './support/port-refuses.js';

/**
 * The proxy's fallback on a document with more roles than v1's (the v1.1 document): while the upstream is not
 * listening (it provably never received the request), the embedded mock answers PUT, PATCH, DELETE and the orders
 * by role, and its store follows each answer exactly as the mock's does.
 */
const spec = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const KEY = 'proxy-resources-key-3b8e';
const started: ProxyServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((proxy) => proxy.close()));
});

type Json = Record<string, unknown>;

async function call(proxy: ProxyServer, method: string, path: string, body?: unknown, type = 'application/json') {
  const response = await fetch(proxy.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': type },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.headers.get('petstore-kit-source')).toBe('mock');
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

it('the fallback answers PUT, PATCH, DELETE and orders by role, and its store follows them', async () => {
  const gone = await startScriptedUpstream(() => undefined);
  await gone.close();
  expect(await portRefuses(gone.port)).toBe(true);
  const proxy = await createProxyServer({ upstream: gone.url, spec, apiKeys: [KEY], onLog: () => undefined });
  started.push(proxy);
  const pets = proxy.mock.store.collection('pets');
  const orders = proxy.mock.store.collection('store/orders');

  const created = await call(proxy, 'POST', '/pets', { name: 'Offline', categoryId: 4, tag: 'away' });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  expect(await pets.get(id)).toEqual(created.body);

  const replaced = await call(proxy, 'PUT', `/pets/${id}`, { name: 'Replaced', categoryId: 5 });
  expect(replaced).toEqual({ status: 200, body: { id, name: 'Replaced', categoryId: 5 } });
  expect(await pets.get(id)).toEqual({ id, name: 'Replaced', categoryId: 5 });

  const merged = await call(proxy, 'PATCH', `/pets/${id}`, { tag: 'back', name: null }, 'application/merge-patch+json');
  // null would remove the required name: refused, nothing changed.
  expect(merged.status).toBe(400);
  expect(merged.body).toMatchObject({ code: 'invalid_body', status: 400 });
  expect(await pets.get(id)).toEqual({ id, name: 'Replaced', categoryId: 5 });
  const patched = await call(proxy, 'PATCH', `/pets/${id}`, { tag: 'back' }, 'application/merge-patch+json');
  expect(patched).toEqual({ status: 200, body: { id, name: 'Replaced', categoryId: 5, tag: 'back' } });
  expect(await pets.list({ filters: [{ property: 'tag', values: ['back'] }] })).toEqual([patched.body]);

  const order = await call(proxy, 'POST', '/store/orders', { petId: id, quantity: 2 });
  expect(order.status).toBe(201);
  expect(order.body).toMatchObject({ petId: id, quantity: 2 });
  expect(await orders.get(order.body.id as number)).toEqual(order.body);
  expect((await call(proxy, 'GET', `/store/orders/${order.body.id as number}`)).body).toEqual(order.body);
  expect((await call(proxy, 'DELETE', `/store/orders/${order.body.id as number}`)).status).toBe(204);
  expect(await orders.get(order.body.id as number)).toBeUndefined();

  expect((await call(proxy, 'DELETE', `/pets/${id}`)).status).toBe(204);
  expect(await pets.get(id)).toBeUndefined();
  const unknown = await call(proxy, 'PUT', `/pets/${id}`, { name: 'x', categoryId: 1 });
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
  expect(await pets.get(id)).toBeUndefined();
});
