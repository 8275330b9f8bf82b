import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import { MemoryCollectionStore, type MemoryStoreOptions } from './memory.js';
import { attachedJsonText, toJsonText } from '../base/json-text.js';
import { DEFAULT_MAX_ITEMS, type CollectionRule, type Item, type Pet } from './collection-store.js';

/** The rule the v1 document gives its pets (collection-rules.ts from openapi.yaml's resource model). */
const PET_RULE: CollectionRule = {
  idProperty: 'id',
  idKind: 'int64',
  fields: ['name', 'categoryId', 'status'],
  noun: 'pet',
};

/** A collection of v1's pets. */
class PetsCollection extends MemoryCollectionStore {
  constructor(seed: readonly Item[] = [], options: MemoryStoreOptions = {}) {
    super(seed, { rule: PET_RULE, ...options });
  }
}

const seed: Pet[] = [
  { id: 3, name: 'C', categoryId: 1, status: 'sold' },
  { id: 1, name: 'A', categoryId: 1, status: 'available' },
  { id: 2, name: 'B', categoryId: 2 },
  { id: 7, name: 'D', categoryId: 2, status: 'available' },
];

describe('PetsCollection', async () => {
  it('lists in id order whatever the seed order, at most limit', async () => {
    const store = new PetsCollection(seed);
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3, 7]);
    expect((await store.list({ limit: 2 })).map((p) => p.id)).toEqual([1, 2]);
  });

  it('stores a client-named id in its place, indexes and cached pages kept right; a taken one changes nothing', async () => {
    const store = new PetsCollection(seed);
    const available = [{ property: 'status', values: ['available'] }];
    // An index and cached pages built before the insert, which must not be served stale after it.
    expect((await store.list({ limit: 10, filters: available })).map((p) => p.id)).toEqual([1, 7]);
    expect((await store.list({ limit: 4 })).map((p) => p.id)).toEqual([1, 2, 3, 7]);
    const named = await store.create({ name: 'N', categoryId: 1, status: 'available' }, undefined, 5);
    expect(named).toEqual({ id: 5, name: 'N', categoryId: 1, status: 'available' });
    expect((await store.list({ limit: 10, filters: available })).map((p) => p.id)).toEqual([1, 5, 7]);
    expect((await store.list({ limit: 4 })).map((p) => p.id)).toEqual([1, 2, 3, 5]);
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3, 5, 7]);
    await expect(store.create({ name: 'Dup', categoryId: 1 }, undefined, 3)).rejects.toMatchObject({
      code: 'id_taken',
      status: 409,
      message: 'a pet with id 3 exists already; nothing was stored',
    });
    expect(await store.count()).toBe(5);
    expect(await store.get(3)).toEqual(seed[0]);
    // The counter goes above a named id, never back below it, and stops at 2^63 − 1.
    await store.create({ name: 'High', categoryId: 1 }, undefined, 100);
    expect((await store.create({ name: 'Next', categoryId: 1 })).id).toBe(101);
    await store.create({ name: 'Top', categoryId: 1 }, undefined, 9223372036854775806n);
    expect((await store.snapshot()).nextId).toBe(9223372036854775807n);
    await expect(store.create({ name: 'None left', categoryId: 1 })).rejects.toMatchObject({ code: 'store_full' });
  });

  it('filters by status through its index, pets without status in no bucket', async () => {
    const store = new PetsCollection(seed);
    expect(
      (await store.list({ limit: 10, filters: [{ property: 'status', values: ['available'] }] })).map((p) => p.id),
    ).toEqual([1, 7]);
    expect(
      (await store.list({ limit: 1, filters: [{ property: 'status', values: ['available'] }] })).map((p) => p.id),
    ).toEqual([1]);
    expect(await store.list({ limit: 10, filters: [{ property: 'status', values: ['pending'] }] })).toEqual([]);
  });

  it('assigns increasing ids after the highest seed id and keeps only the schema fields', async () => {
    const store = new PetsCollection(seed);
    const a = await store.create({ name: 'X', categoryId: 5, extra: 'dropped' });
    const b = await store.create({ name: 'Y', categoryId: 5, status: 'pending' });
    expect(a).toEqual({ id: 8, name: 'X', categoryId: 5 });
    expect(b).toEqual({ id: 9, name: 'Y', categoryId: 5, status: 'pending' });
    expect(await store.get(9)).toBe(b);
    expect(await store.list({ limit: 10, filters: [{ property: 'status', values: ['pending'] }] })).toEqual([b]);
    expect(await store.count()).toBe(6);
  });

  it('hands out frozen pets and pages, so a caller cannot change what is stored', async () => {
    const store = new PetsCollection(seed);
    const pet = (await store.get(1))!;
    expect(() => ((pet as { name: string }).name = 'changed')).toThrow(TypeError);
    const listed = (await store.list({ limit: 10 })) as Pet[];
    expect(() => listed.pop()).toThrow(TypeError);
    expect(await store.count()).toBe(4);
    expect(await store.list({ limit: 10 })).toHaveLength(4);
  });

  it('reuses a page until a create could change it', async () => {
    const store = new PetsCollection(seed);
    const full = await store.list({ limit: 2 });
    const short = await store.list({ limit: 10 });
    const pending = await store.list({ limit: 10, filters: [{ property: 'status', values: ['pending'] }] });
    expect(await store.list({ limit: 2 })).toBe(full);
    await store.create({ name: 'N', categoryId: 1, status: 'sold' });
    // A full page cannot change by appending; a short one grows, and other buckets stay as they were.
    expect(await store.list({ limit: 2 })).toBe(full);
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3, 7, 8]);
    expect(short.map((p) => p.id)).toEqual([1, 2, 3, 7]);
    expect(await store.list({ limit: 10, filters: [{ property: 'status', values: ['pending'] }] })).toBe(pending);
    expect(
      (await store.list({ limit: 10, filters: [{ property: 'status', values: ['sold'] }] })).map((p) => p.id),
    ).toEqual([3, 8]);
    await store.reset();
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3, 7]);
  });

  it('refuses a create beyond maxPets with 409 store_full, and stores nothing', async () => {
    const store = new PetsCollection(seed, { maxItems: 5 });
    await store.create({ name: 'fifth', categoryId: 1 });
    const error = await store.create({ name: 'sixth', categoryId: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toEqual({
      code: 'store_full',
      status: 409,
      message: expect.stringContaining('maximum of 5 pets'),
    });
    expect(await store.count()).toBe(5);
    expect(await store.get(9)).toBeUndefined();
    await store.reset();
    expect((await store.create({ name: 'again', categoryId: 1 })).id).toBe(8);
  });

  it.each([
    ['fewer than the seed', 3, /fixtures hold 4 pets, more than maxPets \(3\)/],
    ['zero', 0, /at least 1/],
    ['not whole', 1.5, /at least 1/],
  ])('rejects maxPets %s', (_, maxPets, message) => {
    expect(() => new PetsCollection(seed, { maxPets })).toThrow(message);
  });

  it('defaults maxItems to DEFAULT_MAX_ITEMS', async () => {
    expect(new PetsCollection(seed).maxItems).toBe(DEFAULT_MAX_ITEMS);
  });

  it('resets to the seed, ids included', async () => {
    const store = new PetsCollection(seed);
    await store.create({ name: 'X', categoryId: 5 });
    await store.reset();
    expect(await store.count()).toBe(4);
    expect(await store.get(8)).toBeUndefined();
    expect((await store.create({ name: 'Z', categoryId: 1 })).id).toBe(8);
  });

  it('reseeds: reset goes back to the new seed from then on', async () => {
    const store = new PetsCollection(seed);
    await store.create({ name: 'X', categoryId: 5 });
    await store.reseed([{ id: 20, name: 'New', categoryId: 1, status: 'pending' }]);
    expect((await store.snapshot()).items.map((p) => p.id)).toEqual([20]);
    await store.create({ name: 'Y', categoryId: 1 });
    await store.reset();
    expect(await store.snapshot()).toEqual({
      items: [{ id: 20, name: 'New', categoryId: 1, status: 'pending' }],
      nextId: 21,
    });
  });

  it('starts ids at 1 with an empty seed', async () => {
    expect((await new PetsCollection([]).create({ name: 'first', categoryId: 1 })).id).toBe(1);
  });
});

describe('PetsCollection.restore', async () => {
  it('serves the restored pets, not a list page cached before', async () => {
    const store = new PetsCollection(seed);
    expect((await store.list({ limit: 2 })).map((p) => p.id)).toEqual([1, 2]);
    await store.restore({
      items: [
        { id: 10, name: 'R', categoryId: 1 },
        { id: 11, name: 'S', categoryId: 1, status: 'sold' },
      ],
      nextId: 12,
    });
    expect((await store.list({ limit: 2 })).map((p) => p.id)).toEqual([10, 11]);
    expect(
      (await store.list({ limit: 2, filters: [{ property: 'status', values: ['sold'] }] })).map((p) => p.id),
    ).toEqual([11]);
    expect((await store.create({ name: 'T', categoryId: 1 })).id).toBe(12);
  });

  it('refuses a snapshot larger than maxPets and changes nothing', async () => {
    const store = new PetsCollection(seed, { maxItems: 5 });
    const pets = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 }));
    await expect(store.restore({ items: pets, nextId: 7 })).rejects.toThrow(/more than this mock's maximum of 5/);
    expect((await store.snapshot()).items.map((p) => p.id)).toEqual([1, 2, 3, 7]);
  });
});

describe('PetsCollection ids', async () => {
  it('hands out ids past 2^53 exactly (a bigint beyond the safe range), finds and lists them in order', async () => {
    const store = new PetsCollection([{ id: 2 ** 53 - 2, name: 'seed', categoryId: 1 }]);
    const created = [];
    for (const name of ['a', 'b', 'c']) created.push(await store.create({ name, categoryId: 1, status: 'sold' }));
    expect(created.map((pet) => pet.id)).toEqual([2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n]);
    for (const pet of created) expect(await store.get(pet.id as number)).toBe(pet);
    // 2^53 + 1 is no double: a number past the safe range could stand for several ids, and finds none.
    expect(await store.get(Number(2n ** 53n + 1n))).toBeUndefined();
    expect(await store.get(2n ** 53n - 1n)).toBe(created[0]);
    expect(
      (await store.list({ limit: 2, filters: [{ property: 'status', values: ['sold'] }] })).map((pet) => pet.id),
    ).toEqual([2 ** 53 - 1, 2n ** 53n]);
    expect((await store.snapshot()).nextId).toBe(2n ** 53n + 2n);
  });

  it('orders ids either side of 2^53 and of 10^17 by value, wherever a double would tie them', async () => {
    const ids = [10n ** 17n, 10n ** 17n - 1n, 2n ** 53n + 1n, 2n ** 53n, 2 ** 53 - 1, -(2n ** 63n), -1, 0];
    const store = new PetsCollection();
    await store.restore({ items: ids.map((id) => ({ id, name: String(id), categoryId: 1 })), nextId: 10n ** 18n });
    const listed = (await store.list({ limit: 100 })).map((pet) => pet.id);
    expect(listed).toEqual([-(2n ** 63n), -1, 0, 2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n, 10n ** 17n - 1n, 10n ** 17n]);
  });

  it('hands out 2^63 − 2, then refuses a create with 409 store_full naming nextId, storing nothing', async () => {
    const store = new PetsCollection([{ id: 1, name: 'seed', categoryId: 1 }]);
    await store.restore({ items: [], nextId: 2n ** 63n - 2n });
    expect((await store.create({ name: 'last', categoryId: 1 })).id).toBe(2n ** 63n - 2n);
    const before = await store.snapshot();
    expect(before.nextId).toBe(2n ** 63n - 1n);
    const refusal = await store.create({ name: 'over', categoryId: 1 }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'store_full', status: 409 });
    expect((refusal as Error).message).toMatch(/nextId is 9223372036854775807 \(2\^63 − 1/);
    expect(await store.snapshot()).toEqual(before);
  });
});

describe('MemoryCollectionStore byte budget', () => {
  it('refuses a create past maxBytes with 409 store_full, storing nothing', async () => {
    const store = new MemoryCollectionStore([], { maxBytes: 300 });
    await store.create({ name: 'a'.repeat(100), categoryId: 1 });
    await store.create({ name: 'b'.repeat(100), categoryId: 1 });
    await expect(store.create({ name: 'c'.repeat(100), categoryId: 1 })).rejects.toMatchObject({
      code: 'store_full',
      status: 409,
    });
    expect(await store.count()).toBe(2);
    expect(store.bytes).toBeLessThanOrEqual(300);
    await store.reset();
    expect(store.bytes).toBe(0);
  });

  it("holds a large pet's name once: no JSON text attached beside it, and its reply text is still exact", async () => {
    const store = new MemoryCollectionStore([]);
    const large = await store.create({ name: 'x'.repeat(100_000), categoryId: 2n ** 62n });
    const small = await store.create({ name: 'Rex', categoryId: 1 });
    expect(attachedJsonText(large)).toBeUndefined();
    expect(attachedJsonText(small)).toBe('{"id":2,"name":"Rex","categoryId":1}');
    expect(toJsonText(large)).toBe(`{"id":1,"name":"${'x'.repeat(100_000)}","categoryId":4611686018427387904}`);
    expect(toJsonText(await store.list({ limit: 10 }))).toBe(`[${toJsonText(large)},${toJsonText(small)}]`);
  });

  it('refuses a restore past the budget whole, changing nothing', async () => {
    const store = new MemoryCollectionStore([{ id: 1, name: 'A', categoryId: 1 }], { maxBytes: 200 });
    await expect(
      store.restore({ items: [{ id: 5, name: 'x'.repeat(500), categoryId: 1 }], nextId: 6 }),
    ).rejects.toMatchObject({ code: 'store_full', status: 409 });
    expect((await store.snapshot()).items.map((pet) => pet.id)).toEqual([1]);
  });

  it('refuses a seed larger than the budget at start', () => {
    expect(
      () => new MemoryCollectionStore([{ id: 1, name: 'x'.repeat(1000), categoryId: 1 }], { maxBytes: 100 }),
    ).toThrow(/more than maxStoreBytes/);
  });
});

describe('MemoryCollectionStore as any collection', () => {
  const byStatus = (status: string) => ({ limit: 10, filters: [{ property: 'status', values: [status] }] });

  it('replaces an item whole under its id, keeping its place, and its lists and filters follow', async () => {
    const store = new PetsCollection(seed);
    expect(await store.list(byStatus('sold'))).toHaveLength(1);
    const replaced = await store.update(1, () => ({ name: 'A2', categoryId: 9, status: 'sold' }));
    expect(replaced).toEqual({ id: 1, name: 'A2', categoryId: 9, status: 'sold' });
    expect(attachedJsonText(replaced)).toBe('{"id":1,"name":"A2","categoryId":9,"status":"sold"}');
    expect(await store.get(1)).toBe(replaced);
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3, 7]);
    expect((await store.list(byStatus('sold'))).map((p) => p.id)).toEqual([1, 3]);
    expect((await store.list(byStatus('available'))).map((p) => p.id)).toEqual([7]);
    expect(await store.update(99, () => ({ name: 'none', categoryId: 1 }))).toBeUndefined();
    expect(await store.count()).toBe(4);
  });

  it('removes an item: gone from lookups, lists and filters; its id is never handed out again', async () => {
    const store = new PetsCollection(seed);
    await store.list(byStatus('available'));
    const removed = await store.remove(7);
    expect(removed).toEqual({ id: 7, name: 'D', categoryId: 2, status: 'available' });
    expect(await store.get(7)).toBeUndefined();
    expect((await store.list({ limit: 10 })).map((p) => p.id)).toEqual([1, 2, 3]);
    expect((await store.list(byStatus('available'))).map((p) => p.id)).toEqual([1]);
    expect(await store.remove(7)).toBeUndefined();
    expect((await store.create({ name: 'new', categoryId: 1 })).id).toBe(8);
    expect((await store.snapshot()).nextId).toBe(9);
  });

  it('filters on any property, with several values (any) and several filters (all)', async () => {
    const store = new PetsCollection(seed);
    const ids = async (filters: { property: string; values: unknown[] }[]) =>
      (await store.list({ limit: 10, filters })).map((p) => p.id);
    expect(await ids([{ property: 'categoryId', values: [2] }])).toEqual([2, 7]);
    expect(await ids([{ property: 'status', values: ['sold', 'available'] }])).toEqual([1, 3, 7]);
    expect(
      await ids([
        { property: 'categoryId', values: [1] },
        { property: 'status', values: ['available'] },
      ]),
    ).toEqual([1]);
  });

  it('makes UUID ids and string ids, each never given twice, and keeps creation order', async () => {
    const uuids = new MemoryCollectionStore([], { rule: { idProperty: 'id', idKind: 'uuid' } });
    const a = await uuids.create({ label: 'a' });
    const b = await uuids.create({ label: 'b' });
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.id).not.toBe(b.id);
    expect((await uuids.list({})).map((item) => item.label)).toEqual(['a', 'b']);
    const strings = new MemoryCollectionStore([{ code: '2', label: 'seed' }], {
      rule: { idProperty: 'code', idKind: 'string' },
    });
    expect((await strings.create({ label: 'next' })).code).toBe('3');
    expect(await strings.get('2')).toEqual({ code: '2', label: 'seed' });
  });

  it('keeps a nested item under its parent: found, listed and removed only through it', async () => {
    const photos = new MemoryCollectionStore([], {
      rule: { idProperty: 'id', idKind: 'int64', parentProperty: 'petId', nested: true, fields: ['url'] },
    });
    const one = await photos.create({ url: 'a', petId: 99 }, 1);
    await photos.create({ url: 'b' }, 2);
    expect(one).toEqual({ id: 1, petId: 1, url: 'a' });
    expect(await photos.get(1, 1)).toBe(one);
    expect(await photos.get(1, 2)).toBeUndefined();
    expect((await photos.list({ parent: 2 })).map((item) => item.url)).toEqual(['b']);
    expect(await photos.remove(1, 2)).toBeUndefined();
    expect(await photos.remove(1, 1)).toBe(one);
  });
});
