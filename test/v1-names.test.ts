import { expect, it } from 'vitest';
import * as lib from '../src/index.js';

/**
 * Issue 52 item 8 renamed the mock's store to collections and items; v1's exported names and options keep working
 * (v1 code imports them), as aliases of the new ones.
 */
it("keeps v1's store names as aliases: MemoryPetStore, DEFAULT_MAX_PETS, and the maxPets option", async () => {
  expect(lib.MemoryPetStore).toBe(lib.MemoryCollectionStore);
  expect(lib.DEFAULT_MAX_PETS).toBe(lib.DEFAULT_MAX_ITEMS);
  const store = new lib.MemoryPetStore([], { maxPets: 1 });
  expect(store.maxItems).toBe(1);
  await store.create({ name: 'One', categoryId: 1 });
  await expect(store.create({ name: 'Two', categoryId: 1 })).rejects.toMatchObject({ code: 'store_full' });
  const mock = await lib.createMock({ maxPets: 60 });
  try {
    expect(mock.store.maxItems).toBe(60);
  } finally {
    await mock.close();
  }
});
