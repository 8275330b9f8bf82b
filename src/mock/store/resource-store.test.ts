import { beforeAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../openapi/load-spec.js';
import type { Spec } from '../../openapi/spec.js';
import { memoryStore } from './memory-store.js';

const v11 = fileURLToPath(new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url));
let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec(v11);
});

it('deleting a pet deletes its photos, and only its own; an unknown pet deletes nothing', async () => {
  const store = memoryStore(spec, new Map(), {});
  const kept = await store.collection('pets').create({ name: 'Kept', categoryId: 1 });
  const gone = await store.collection('pets').create({ name: 'Gone', categoryId: 1 });
  const photos = store.collection('pets/photos');
  await photos.create({ url: 'https://example.com/1.png' }, gone.id as number);
  await photos.create({ url: 'https://example.com/2.png' }, gone.id as number);
  const other = await photos.create({ url: 'https://example.com/3.png' }, kept.id as number);
  const order = await store.collection('store/orders').create({ petId: gone.id, quantity: 1 });

  expect(await store.removeItem('pets', 12345)).toBeUndefined();
  expect(await photos.count()).toBe(3);
  expect(await store.removeItem('pets', gone.id as number)).toEqual(gone);
  expect(await store.collection('pets').get(gone.id as number)).toBeUndefined();
  expect(await photos.list({ parent: gone.id as number })).toEqual([]);
  expect((await store.snapshot())['pets/photos']!.items).toEqual([other]);
  // An order names a pet in a field, not by nesting: it stays (the document does not put orders under a pet).
  expect(await store.collection('store/orders').get(order.id as number)).toEqual(order);
  // A nested item deleted by itself leaves its parent.
  expect(await store.removeItem('pets/photos', other.id as number, kept.id as number)).toEqual(other);
  expect(await store.collection('pets').get(kept.id as number)).toEqual(kept);
});
