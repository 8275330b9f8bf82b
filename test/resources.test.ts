import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startApi, expectError, type Api } from './support/api.js';

/**
 * The mock on a later version of the document (test/fixtures/documents/petstore-v1.1.yaml): every operation with a
 * resource role is answered by its role from the store, every answer checked against that document by startApi.
 */
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

let api: Api;
beforeAll(async () => {
  api = await startApi({ spec: v11 });
});
beforeEach(() => api.server.reset());
afterAll(() => api.close());

const patch = (path: string, body: object, contentType = 'application/merge-patch+json') =>
  api.request('PATCH', path, { body, headers: { 'content-type': contentType } });

async function allPets(): Promise<{ id: number; tag?: string }[]> {
  return (await api.get('/pets?limit=100')).body;
}

describe('a new optional field and its filter', () => {
  it('stores the new field, answers it, lists it and filters by it', async () => {
    const created = await api.post('/pets', { name: 'Tagged', categoryId: 1, tag: 'brown', extra: 'dropped' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Tagged', categoryId: 1, tag: 'brown' });
    expect(created.headers.get('location')).toBe(`/v1/pets/${created.body.id}`);
    expect((await api.get(`/pets/${created.body.id}`)).body).toEqual(created.body);
    await api.post('/pets', { name: 'Other', categoryId: 1, tag: 'black' });
    const filtered = await api.get('/pets?tag=brown&limit=100');
    expect(filtered.body).toEqual([created.body]);
    // A filter combines with the others (AND).
    expect((await api.get('/pets?tag=brown&status=sold')).body).toEqual([]);
  });

  it('refuses a tag past its maxLength with 400 naming it, and stores nothing', async () => {
    const before = await allPets();
    expectError(
      await api.post('/pets', { name: 'Long', categoryId: 1, tag: 'x'.repeat(41) }),
      400,
      'invalid_body',
      'tag',
    );
    expect(await allPets()).toEqual(before);
  });
});

describe('PUT, PATCH and DELETE on a pet', () => {
  it('PUT replaces the whole pet: a field not sent is gone', async () => {
    const { body: pet } = await api.post('/pets', { name: 'Rex', categoryId: 1, status: 'available', tag: 't' });
    const replaced = await api.request('PUT', `/pets/${pet.id}`, { body: { name: 'Rex II', categoryId: 2 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: pet.id, name: 'Rex II', categoryId: 2 });
    expect((await api.get(`/pets/${pet.id}`)).body).toEqual(replaced.body);
    expect((await api.get('/pets?status=available&limit=100')).body.map((p: { id: number }) => p.id)).not.toContain(
      pet.id,
    );
  });

  it('PUT, PATCH and DELETE of an unknown id get the 404 Error and change nothing', async () => {
    const before = await allPets();
    expectError(
      await api.request('PUT', '/pets/9999', { body: { name: 'x', categoryId: 1 } }),
      404,
      'not_found',
      'no pet has id 9999',
    );
    expectError(await patch('/pets/9999', { name: 'x' }), 404, 'not_found', 'no pet has id 9999');
    expectError(await api.request('DELETE', '/pets/9999'), 404, 'not_found', 'no pet has id 9999');
    expect(await allPets()).toEqual(before);
  });

  it('PATCH merges (RFC 7396): omitted fields kept, null removes, the id cannot change', async () => {
    const { body: pet } = await api.post('/pets', { name: 'Rex', categoryId: 1, status: 'available', tag: 't' });
    const patched = await patch(`/pets/${pet.id}`, { status: 'sold', tag: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ id: pet.id, name: 'Rex', categoryId: 1, status: 'sold' });
    expect((await api.get(`/pets/${pet.id}`)).body).toEqual(patched.body);
    expect((await api.get('/pets?status=sold&limit=100')).body).toContainEqual(patched.body);
  });

  it('refuses a PATCH that would leave the pet breaking its schema, naming the field, and changes nothing', async () => {
    const { body: pet } = await api.post('/pets', { name: 'Rex', categoryId: 1 });
    expectError(
      await patch(`/pets/${pet.id}`, { categoryId: null }),
      400,
      'invalid_body',
      'categoryId',
      'nothing was changed',
    );
    expect((await api.get(`/pets/${pet.id}`)).body).toEqual(pet);
  });

  it('DELETE removes the pet: 204, then 404, gone from the list; its id is not handed out again', async () => {
    const { body: pet } = await api.post('/pets', { name: 'Gone', categoryId: 1 });
    const deleted = await api.request('DELETE', `/pets/${pet.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await api.get(`/pets/${pet.id}`), 404, 'not_found', `no pet has id ${pet.id}`);
    expect((await allPets()).map((p) => p.id)).not.toContain(pet.id);
    expect((await api.post('/pets', { name: 'Next', categoryId: 1 })).body.id).toBe(pet.id + 1);
  });
});

describe('a second collection: /store/orders', () => {
  it('has its own ids, ignores a readOnly id sent, fills the readOnly placedAt, and answers Location', async () => {
    const placed = await api.post('/store/orders', {
      id: 777,
      petId: 3,
      quantity: 2,
      status: 'placed',
      placedAt: '2000-01-01T00:00:00Z',
    });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({ id: 1, petId: 3, quantity: 2, status: 'placed', placedAt: expect.any(String) });
    expect(Date.parse(placed.body.placedAt)).toBeGreaterThan(Date.parse('2020-01-01T00:00:00Z'));
    expect(placed.headers.get('location')).toBe('/v1/store/orders/1');
    expect((await api.get('/store/orders/1')).body).toEqual(placed.body);
    const second = await api.post('/store/orders', { petId: 4, quantity: 1, status: 'delivered' });
    expect(second.body.id).toBe(2);
    expect((await api.get('/store/orders?status=delivered')).body).toEqual([second.body]);
    // The pets' ids are their own.
    expect((await api.post('/pets', { name: 'P', categoryId: 1 })).body.id).toBeGreaterThan(50);
    expect(await api.request('DELETE', '/store/orders/1').then((r) => r.status)).toBe(204);
    expectError(await api.get('/store/orders/1'), 404, 'not_found', 'no order has id 1');
  });
});

describe('a collection nested under a pet: /pets/{petId}/photos', () => {
  it("lists only its parent's photos, with the document's limit default, and 404s an unknown parent", async () => {
    const one = await api.post('/pets/1/photos', { url: 'https://example.com/1.jpg' });
    expect(one.status).toBe(201);
    expect(one.body).toEqual({ id: 1, petId: 1, url: 'https://example.com/1.jpg' });
    for (let i = 0; i < 6; i++) await api.post('/pets/2/photos', { url: `https://example.com/2-${i}.jpg` });
    expect((await api.get('/pets/1/photos')).body).toEqual([one.body]);
    // The document's default limit for this list is 5.
    expect((await api.get('/pets/2/photos')).body).toHaveLength(5);
    expect((await api.get('/pets/1/photos/1')).body).toEqual(one.body);
    expectError(await api.get('/pets/2/photos/1'), 404, 'not_found', 'no photo has id 1');
    expectError(await api.get('/pets/9999/photos'), 404, 'not_found', 'no pet has id 9999');
    expectError(
      await api.post('/pets/9999/photos', { url: 'https://example.com/x.jpg' }),
      404,
      'not_found',
      'no pet has id 9999',
    );
  });
});

describe('GET /__admin/resources', () => {
  it('prints the resource model: every collection, and every operation with its role or why it has none', async () => {
    const response = await api.get('//__admin/resources');
    expect(response.status).toBe(200);
    expect(response.body.collections.map((c: { name: string }) => c.name)).toEqual([
      'pets',
      'store/orders',
      'pets/photos',
    ]);
    expect(response.body.operations).toContainEqual({
      operationId: 'deletePet',
      method: 'delete',
      path: '/pets/{petId}',
      role: 'delete',
      collection: 'pets',
      reason: 'DELETE on the item path of pets',
    });
    expect(response.body).toEqual(JSON.parse(JSON.stringify(api.server.mock.spec.resources)));
  });
});

describe('what fits no role', () => {
  it('is answered from the document (prism-http) and named in the model', async () => {
    const inventory = await api.get('/store/inventory');
    expect(inventory.status).toBe(200);
    expect(inventory.body).toEqual({ available: 3, sold: 1 });
    const none = api.server.mock.spec.resources.operations.filter((o) => o.role === 'none');
    expect(none.map((o) => o.operationId)).toEqual(['getInventory']);
  });
});

describe('state', () => {
  it('snapshots and restores every collection in the form with collections', async () => {
    await api.post('/store/orders', { petId: 3, quantity: 2 });
    const snapshot = (await api.server.snapshot()) as unknown as { collections: Record<string, { items: unknown[] }> };
    expect(Object.keys(snapshot.collections)).toEqual(['pets', 'store/orders', 'pets/photos']);
    expect(snapshot.collections['store/orders']!.items).toHaveLength(1);
    await api.server.reset();
    expect((await api.get('/store/orders')).body).toEqual([]);
    await api.server.mock.restore(snapshot);
    expect((await api.get('/store/orders')).body).toHaveLength(1);
  });
});
