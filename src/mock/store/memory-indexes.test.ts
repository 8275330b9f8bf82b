import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryCollectionStore } from './memory.js';
import type { CollectionRule, Item, ItemId } from './collection-store.js';

/**
 * The store keeps its filter indexes and its list order through replaces and deletes (no rebuild per write; deleted
 * items swept out in batches, at least every 8 deletes here, so the runs cross many sweeps): a
 * model-based test against a plain array filtered by brute force, for int64 ids (ordered by id) and string and UUID
 * ids (ordered by creation), with each index built before the writes that must keep it.
 */
// Few values, so that buckets hold several items and a replace often lands in a bucket before or after others.
const STATUSES = ['available', 'sold'] as const;
const TAGS = ['a', 'b'] as const;

type Step =
  | { kind: 'create'; status?: string; tag?: string }
  | { kind: 'replace'; pick: number; status?: string; tag?: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'list'; property: 'status' | 'tag'; value: string; limit: number };

const optionalOf = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
const fieldsArbitrary = fc.record({ status: optionalOf(STATUSES), tag: optionalOf(TAGS) });
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fieldsArbitrary.map((fields) => ({ kind: 'create' as const, ...fields })),
  fc.tuple(fc.nat(), fieldsArbitrary).map(([pick, fields]) => ({ kind: 'replace' as const, pick, ...fields })),
  fc.nat().map((pick) => ({ kind: 'delete' as const, pick })),
  fc
    .tuple(
      fc.constantFrom('status' as const, 'tag' as const),
      fc.constantFrom(...STATUSES, ...TAGS),
      fc.integer({ min: 1, max: 6 }),
    )
    .map(([property, value, limit]) => ({ kind: 'list' as const, property, value, limit })),
);

function withoutUndefined(fields: Record<string, unknown>): Item {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

async function runSteps(rule: CollectionRule, steps: Step[]): Promise<void> {
  const store = new MemoryCollectionStore([], { rule });
  const model: Item[] = [];
  const idOf = (item: Item) => item[rule.idProperty] as ItemId;
  for (const step of steps) {
    if (step.kind === 'create') {
      model.push(await store.create(withoutUndefined({ name: 'n', status: step.status, tag: step.tag })));
    } else if (step.kind === 'replace' && model.length > 0) {
      const at = step.pick % model.length;
      const fields = withoutUndefined({ name: 'r', status: step.status, tag: step.tag });
      model[at] = (await store.update(idOf(model[at]!), () => fields))!;
    } else if (step.kind === 'delete' && model.length > 0) {
      const [gone] = model.splice(step.pick % model.length, 1);
      expect(await store.remove(idOf(gone!))).toEqual(gone);
      // Marked dead and swept later (memory.ts): gone from reads at once, and not removed twice.
      expect(await store.get(idOf(gone!))).toBeUndefined();
      expect(await store.remove(idOf(gone!))).toBeUndefined();
    } else if (step.kind === 'list') {
      const filters = [{ property: step.property, values: [step.value] }];
      const expected = model.filter((item) => item[step.property] === step.value).slice(0, step.limit);
      expect(await store.list({ limit: step.limit, filters })).toEqual(expected);
    }
    expect(await store.list({})).toEqual(model);
    expect(await store.count()).toBe(model.length);
  }
  expect((await store.snapshot()).items).toEqual(model);
  // After the sweep a snapshot makes, reads and writes go on as before.
  const last = model.at(-1);
  if (last) expect(await store.update(idOf(last), () => ({ name: 'after' }))).toMatchObject({ name: 'after' });
}

const rules: Record<string, CollectionRule> = {
  'int64 ids': { idProperty: 'id', idKind: 'int64' },
  'string ids': { idProperty: 'code', idKind: 'string' },
  'UUID ids': { idProperty: 'id', idKind: 'uuid' },
};

describe('MemoryCollectionStore indexes across replaces and deletes', () => {
  for (const [label, rule] of Object.entries(rules)) {
    it(`${label}: every filtered list equals the brute-force filter of the list, in list order`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArbitrary, { minLength: 10, maxLength: 80 }), (steps) => runSteps(rule, steps)),
        { numRuns: 150 },
      );
    });
  }

  it('a filtered list after a replace moves the item between buckets, keeping list order (an index built first)', async () => {
    const store = new MemoryCollectionStore(
      [
        { id: 1, status: 'sold' },
        { id: 2, status: 'available' },
        { id: 3, status: 'sold' },
      ],
      { rule: rules['int64 ids']! },
    );
    const sold = [{ property: 'status', values: ['sold'] }];
    const available = [{ property: 'status', values: ['available'] }];
    expect((await store.list({ filters: sold })).map((item) => item.id)).toEqual([1, 3]);
    expect((await store.list({ filters: available })).map((item) => item.id)).toEqual([2]);
    await store.update(3, () => ({ status: 'available' }));
    expect((await store.list({ filters: sold })).map((item) => item.id)).toEqual([1]);
    expect((await store.list({ filters: available })).map((item) => item.id)).toEqual([2, 3]);
    await store.remove(2);
    expect((await store.list({ filters: available })).map((item) => item.id)).toEqual([3]);
  });
});
