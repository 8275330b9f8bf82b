import { describe, expect, it, beforeAll } from 'vitest';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import { checkFixtures, loadFixtures, loadSeeds } from './load-fixtures.js';
import { defaultFixturesFile } from '../../paths.js';

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

describe('fixtures/pets.json', () => {
  it('holds at least 50 valid pets over several categories, every status, some without one', async () => {
    const pets = await loadFixtures(defaultFixturesFile, spec);
    expect(pets.length).toBeGreaterThanOrEqual(50);
    expect(new Set(pets.map((p) => p.categoryId)).size).toBeGreaterThanOrEqual(4);
    for (const status of ['available', 'pending', 'sold']) expect(pets.some((p) => p.status === status)).toBe(true);
    expect(pets.some((p) => p.status === undefined)).toBe(true);
    // More than the default page of 20 for each status filter the contract suite exercises.
    expect(pets.filter((p) => p.status === 'available').length).toBeGreaterThan(20);
  });
});

describe('checkFixtures', () => {
  it.each([
    ['a non-array', { id: 1 }, 'pets.json: must hold a JSON array of Pet records'],
    ['a missing field', [{ id: 1, name: 'a' }], 'pets.json: record 0 (id 1): pet.categoryId is required'],
    [
      'a wrong type',
      [
        { id: 1, name: 'a', categoryId: 1 },
        { id: 2, name: 5, categoryId: 1 },
      ],
      'pets.json: record 1 (id 2): pet.name must be a string',
    ],
    [
      'a bad status',
      [{ id: 4, name: 'a', categoryId: 1, status: 'lost' }],
      'pets.json: record 0 (id 4): pet.status must be one of "available", "pending", "sold"',
    ],
    [
      'a non-integer id',
      [{ id: 1.5, name: 'a', categoryId: 1 }],
      'pets.json: record 0 (id 1.5): pet.id must be an integer',
    ],
    [
      'a duplicate id',
      [
        { id: 1, name: 'a', categoryId: 1 },
        { id: 1, name: 'b', categoryId: 1 },
      ],
      'pets.json: record 1 (id 1): pet.id 1 is already used by record 0',
    ],
  ])('rejects %s naming the file, record and field', (_, records, message) => {
    expect(() => checkFixtures(records, 'pets.json', spec)).toThrow(message);
  });

  it('names a file that is not JSON', async () => {
    await expect(
      loadFixtures(new URL('../../package.json', import.meta.url).pathname.replace('package.json', 'README.md'), spec),
    ).rejects.toThrow(/README\.md: (is not valid JSON|cannot be read)/);
  });
});

describe('checkFixtures and int64', () => {
  it('keeps a categoryId and an id beyond 2^53 - 1 exactly, and refuses an id of 2^63 - 1 (no next id after it)', async () => {
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const { parseJson } = await import('../../json/parse-json.js');
    const spec = await loadSpec();
    const [pet] = checkFixtures(
      parseJson('[{"id":1,"name":"Big","categoryId":9223372036854775807}]'),
      'pets.json',
      spec,
    );
    expect(pet!.categoryId).toBe(9223372036854775807n);
    const [big] = checkFixtures(
      parseJson('[{"id":9223372036854775806,"name":"Big","categoryId":1}]'),
      'pets.json',
      spec,
    );
    expect(big!.id).toBe(9223372036854775806n);
    expect(() =>
      checkFixtures(parseJson('[{"id":9223372036854775807,"name":"Big","categoryId":1}]'), 'pets.json', spec),
    ).toThrow('record 0 (id 9223372036854775807): pet.id must be at most 9223372036854775806');
    expect(() =>
      checkFixtures(parseJson('[{"id":9223372036854775808,"name":"Big","categoryId":1}]'), 'pets.json', spec),
    ).toThrow('pet.id must match format "int64"');
    expect(() =>
      checkFixtures(parseJson('[{"id":1,"name":"Big","categoryId":9223372036854775808}]'), 'pets.json', spec),
    ).toThrow('pet.categoryId must match format "int64"');
  });
});

describe('loadSeeds on a document with several collections (test/fixtures/documents/petstore-v1.1.yaml)', () => {
  const v11File = new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url).pathname;

  async function seedsFrom(files: Record<string, unknown>) {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const os = await import('node:os');
    const [join, dirname] = [path.join.bind(path), path.dirname.bind(path)];
    const [mkdtempSync, mkdirSync, writeFileSync] = [fs.mkdtempSync, fs.mkdirSync, fs.writeFileSync];
    const tmpdir = os.tmpdir.bind(os);
    const dir = mkdtempSync(join(tmpdir(), 'petstore-seeds-'));
    for (const [name, records] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), JSON.stringify(records));
    }
    const v11 = await loadSpec(v11File);
    return { dir, seeds: () => loadSeeds(join(dir, 'pets.json'), v11) };
  }

  it('seeds each collection from the file named like it beside the fixtures, else from nothing', async () => {
    const order = { id: 4, petId: 1, quantity: 2, placedAt: '2026-01-01T00:00:00Z' };
    const { seeds } = await seedsFrom({
      'pets.json': [{ id: 1, name: 'Rex', categoryId: 1, tag: 'brown' }],
      'store/orders.json': [order],
    });
    const loaded = await seeds();
    expect([...loaded.keys()]).toEqual(['pets', 'store/orders']);
    expect(loaded.get('pets')!.items).toEqual([{ id: 1, name: 'Rex', categoryId: 1, tag: 'brown' }]);
    expect(loaded.get('store/orders')!.items).toEqual([order]);
  });

  it('stops at a record that breaks its collection schema, naming the file, the record and the rule', async () => {
    const { dir, seeds } = await seedsFrom({
      'pets.json': [],
      'store/orders.json': [{ id: 4, petId: 1, quantity: 0, placedAt: '2026-01-01T00:00:00Z' }],
    });
    await expect(seeds()).rejects.toThrow(`${dir}/store/orders.json: record 0 (id 4): order.quantity must be >= 1`);
  });
});
