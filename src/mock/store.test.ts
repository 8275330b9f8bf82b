import { describe, expect, it } from 'vitest';
import { PetStore, type Pet } from './store.js';

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

  it('hands out frozen pets, so a caller cannot change what is stored', () => {
    const store = new PetStore(seed);
    const pet = store.get(1)!;
    expect(() => ((pet as { name: string }).name = 'changed')).toThrow(TypeError);
    const listed = store.list({ limit: 10 });
    listed.pop();
    expect(store.size).toBe(4);
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
