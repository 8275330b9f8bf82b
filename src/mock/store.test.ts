import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { DEFAULT_MAX_PETS, PetStore, type Pet } from './store.js';
import { attachedJsonText, toJsonText } from './json-text.js';

const seed: Pet[] = [
  { id: 3, name: 'C', categoryId: 1, status: 'sold' },
  { id: 1, name: 'A', categoryId: 1, status: 'available' },
  { id: 2, name: 'B', categoryId: 2 },
  { id: 7, name: 'D', categoryId: 2, status: 'available' },
];

describe('PetStore', () => {
  it('lists in id order whatever the seed order, at most limit', () => {
    const store = new PetStore(seed);
    expect(store.list({ limit: 10 }).map((p) => p.id)).toEqual([1, 2, 3, 7]);
    expect(store.list({ limit: 2 }).map((p) => p.id)).toEqual([1, 2]);
  });

  it('filters by status through its index, pets without status in no bucket', () => {
    const store = new PetStore(seed);
    expect(store.list({ limit: 10, status: 'available' }).map((p) => p.id)).toEqual([1, 7]);
    expect(store.list({ limit: 1, status: 'available' }).map((p) => p.id)).toEqual([1]);
    expect(store.list({ limit: 10, status: 'pending' })).toEqual([]);
  });

  it('assigns increasing ids after the highest seed id and keeps only the schema fields', () => {
    const store = new PetStore(seed);
    const a = store.create({ name: 'X', categoryId: 5, extra: 'dropped' } as never);
    const b = store.create({ name: 'Y', categoryId: 5, status: 'pending' });
    expect(a).toEqual({ id: 8, name: 'X', categoryId: 5 });
    expect(b).toEqual({ id: 9, name: 'Y', categoryId: 5, status: 'pending' });
    expect(store.get(9)).toBe(b);
    expect(store.list({ limit: 10, status: 'pending' })).toEqual([b]);
    expect(store.size).toBe(6);
  });

  it('hands out frozen pets and pages, so a caller cannot change what is stored', () => {
    const store = new PetStore(seed);
    const pet = store.get(1)!;
    expect(() => ((pet as { name: string }).name = 'changed')).toThrow(TypeError);
    const listed = store.list({ limit: 10 }) as Pet[];
    expect(() => listed.pop()).toThrow(TypeError);
    expect(store.size).toBe(4);
    expect(store.list({ limit: 10 })).toHaveLength(4);
  });

  it('reuses a page until a create could change it', () => {
    const store = new PetStore(seed);
    const full = store.list({ limit: 2 });
    const short = store.list({ limit: 10 });
    const pending = store.list({ limit: 10, status: 'pending' });
    expect(store.list({ limit: 2 })).toBe(full);
    store.create({ name: 'N', categoryId: 1, status: 'sold' });
    // A full page cannot change by appending; a short one grows, and other buckets stay as they were.
    expect(store.list({ limit: 2 })).toBe(full);
    expect(store.list({ limit: 10 }).map((p) => p.id)).toEqual([1, 2, 3, 7, 8]);
    expect(short.map((p) => p.id)).toEqual([1, 2, 3, 7]);
    expect(store.list({ limit: 10, status: 'pending' })).toBe(pending);
    expect(store.list({ limit: 10, status: 'sold' }).map((p) => p.id)).toEqual([3, 8]);
    store.reset();
    expect(store.list({ limit: 10 }).map((p) => p.id)).toEqual([1, 2, 3, 7]);
  });

  it('refuses a create beyond maxPets with 409 store_full, and stores nothing', () => {
    const store = new PetStore(seed, { maxPets: 5 });
    store.create({ name: 'fifth', categoryId: 1 });
    let error: unknown;
    try {
      store.create({ name: 'sixth', categoryId: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toEqual({ code: 'store_full', status: 409, message: expect.stringContaining('maximum of 5 pets') });
    expect(store.size).toBe(5);
    expect(store.get(9)).toBeUndefined();
    store.reset();
    expect(store.create({ name: 'again', categoryId: 1 }).id).toBe(8);
  });

  it.each([
    ['fewer than the seed', 3, /fixtures hold 4 pets, more than maxPets \(3\)/],
    ['zero', 0, /at least 1/],
    ['not whole', 1.5, /at least 1/],
  ])('rejects maxPets %s', (_, maxPets, message) => {
    expect(() => new PetStore(seed, { maxPets })).toThrow(message);
  });

  it('defaults maxPets to DEFAULT_MAX_PETS', () => {
    expect(new PetStore(seed).maxPets).toBe(DEFAULT_MAX_PETS);
  });

  it('resets to the seed, ids included', () => {
    const store = new PetStore(seed);
    store.create({ name: 'X', categoryId: 5 });
    store.reset();
    expect(store.size).toBe(4);
    expect(store.get(8)).toBeUndefined();
    expect(store.create({ name: 'Z', categoryId: 1 }).id).toBe(8);
  });

  it('starts ids at 1 with an empty seed', () => {
    expect(new PetStore([]).create({ name: 'first', categoryId: 1 }).id).toBe(1);
  });
});

describe('PetStore.restore', () => {
  it('serves the restored pets, not a list page cached before', () => {
    const store = new PetStore(seed);
    expect(store.list({ limit: 2 }).map((p) => p.id)).toEqual([1, 2]);
    store.restore({ pets: [{ id: 10, name: 'R', categoryId: 1 }, { id: 11, name: 'S', categoryId: 1, status: 'sold' }], nextId: 12 });
    expect(store.list({ limit: 2 }).map((p) => p.id)).toEqual([10, 11]);
    expect(store.list({ limit: 2, status: 'sold' }).map((p) => p.id)).toEqual([11]);
    expect(store.create({ name: 'T', categoryId: 1 }).id).toBe(12);
  });

  it('refuses a snapshot larger than maxPets and changes nothing', () => {
    const store = new PetStore(seed, { maxPets: 5 });
    const pets = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 }));
    expect(() => store.restore({ pets, nextId: 7 })).toThrow(/more than this mock's maximum of 5/);
    expect(store.snapshot().pets.map((p) => p.id)).toEqual([1, 2, 3, 7]);
  });
});

describe('PetStore ids', () => {
  it('refuses a create once ids would pass 2^53 - 1, instead of giving two pets one id', () => {
    const store = new PetStore([{ id: Number.MAX_SAFE_INTEGER - 1, name: 'last', categoryId: 1 }]);
    expect(store.create({ name: 'edge', categoryId: 1 }).id).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => store.create({ name: 'over', categoryId: 1 })).toThrow(/every id up to 9007199254740991/);
    expect(store.size).toBe(2);
    expect(store.nextId).toBe(Number.MAX_SAFE_INTEGER + 1);
  });
});

describe('PetStore byte budget', () => {
  it('refuses a create past maxBytes with 409 store_full, storing nothing', () => {
    const store = new PetStore([], { maxBytes: 300 });
    store.create({ name: 'a'.repeat(100), categoryId: 1 });
    store.create({ name: 'b'.repeat(100), categoryId: 1 });
    expect(() => store.create({ name: 'c'.repeat(100), categoryId: 1 })).toThrow(expect.objectContaining({ code: 'store_full', status: 409 }));
    expect(store.size).toBe(2);
    expect(store.bytes).toBeLessThanOrEqual(300);
    store.reset();
    expect(store.bytes).toBe(0);
  });

  it('holds a large pet\'s name once: no JSON text attached beside it, and its reply text is still exact', () => {
    const store = new PetStore([]);
    const large = store.create({ name: 'x'.repeat(100_000), categoryId: 2n ** 62n });
    const small = store.create({ name: 'Rex', categoryId: 1 });
    expect(attachedJsonText(large)).toBeUndefined();
    expect(attachedJsonText(small)).toBe('{"id":2,"name":"Rex","categoryId":1}');
    expect(toJsonText(large)).toBe(`{"id":1,"name":"${'x'.repeat(100_000)}","categoryId":4611686018427387904}`);
    expect(toJsonText(store.list({ limit: 10 }))).toBe(`[${toJsonText(large)},${toJsonText(small)}]`);
  });

  it('refuses seed larger than the budget at start', () => {
    expect(() => new PetStore([{ id: 1, name: 'x'.repeat(1000), categoryId: 1 }], { maxBytes: 100 })).toThrow(/more than maxStoreBytes/);
  });
});
