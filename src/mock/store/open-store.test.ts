import { afterEach, beforeAll, expect, it } from 'vitest';
import { UsageError } from '../../input-errors.js';
import { MemoryCollectionStore } from './memory.js';
import { describeStore, openStore as openWith } from './open-store.js';
import { loadSpec } from '../../openapi/load-spec.js';
import type { Spec } from '../../openapi/spec.js';
import type { StoreChoice } from './open-store.js';

const seed = [{ id: 1, name: 'Rex', categoryId: 1 }];
let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});
/** The store for openapi.yaml, its pets seeded with `pets`. */
const openStore = (options: StoreChoice, pets: typeof seed) =>
  openWith(options, spec, new Map([['pets', { items: pets }]]));
const saved = process.env.PETSTORE_STORE;
afterEach(() => {
  if (saved === undefined) delete process.env.PETSTORE_STORE;
  else process.env.PETSTORE_STORE = saved;
});

it('opens the memory store by default and for "memory", without a store line of its own', async () => {
  delete process.env.PETSTORE_STORE;
  for (const store of [await openStore({}, seed), await openStore({ store: 'memory' }, seed)]) {
    expect(store.collection('pets')).toBeInstanceOf(MemoryCollectionStore);
    expect(await store.count()).toBe(1);
    expect(describeStore(store)).toBe('memory (this process only)');
  }
});

it.each([
  ['an unknown kind of store', { store: 'mongodb://u:secret@host/db' }, '--store must be "memory" or a Redis URL'],
  [
    '--state with a Redis store',
    { store: 'redis://127.0.0.1:1', state: 'state.json' },
    'give --state or --store redis://…, not both',
  ],
  ['--store-prefix with the memory store', { storePrefix: 'x' }, '--store-prefix is for a Redis store'],
  [
    'a prefix with a space',
    { store: 'redis://127.0.0.1:1', storePrefix: 'a b' },
    '--store-prefix must be 1 to 100 printable characters',
  ],
] as const)('refuses %s with a usage error, connecting to nothing', async (_, options, message) => {
  const error = await openStore(options, seed).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as Error).message).toContain(message);
  expect((error as Error).message).not.toContain('secret');
});

it('takes the store from PETSTORE_STORE when none is given, and the option over it', async () => {
  process.env.PETSTORE_STORE = 'nonsense';
  await expect(openStore({}, seed)).rejects.toThrow('--store must be "memory" or a Redis URL');
  expect((await openStore({ store: 'memory' }, seed)).collection('pets')).toBeInstanceOf(MemoryCollectionStore);
});
