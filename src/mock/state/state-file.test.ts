import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { StateFile } from './state-file.js';
import { MemoryCollectionStore } from '../store/memory.js';
import { normaliseInteger } from '../../json/int64.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'petstore-state-'));

/** A store of one collection, `pets`, as the mock's ResourceStore snapshots it. */
const stateOf = async (store: MemoryCollectionStore) => ({ pets: await store.snapshot() });

describe('StateFile', () => {
  it('coalesces a burst of 1,000 changes into one write, then writes nothing while nothing changes', async () => {
    const dir = tmp();
    const store = new MemoryCollectionStore();
    let reads = 0;
    const file = new StateFile(join(dir, 'state.json'), () => (reads++, stateOf(store)));
    for (let i = 0; i < 1000; i++) {
      await store.create({ name: `pet ${i}`, categoryId: 1 });
      file.schedule();
    }
    await file.flush();
    expect(file.writes).toBe(1);
    expect(reads).toBe(1);
    const saved = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    expect(saved.pets).toHaveLength(1000);
    expect(saved.nextId).toBe(1001);
    file.schedule();
    await file.flush();
    expect(file.writes).toBe(1);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('writes a change made during a write afterwards', async () => {
    const dir = tmp();
    const store = new MemoryCollectionStore();
    const file = new StateFile(join(dir, 'state.json'), () => stateOf(store), { coalesceMs: 0 });
    await store.create({ name: 'a', categoryId: 1 });
    file.schedule();
    await new Promise((resolve) => setTimeout(resolve, 1));
    await store.create({ name: 'b', categoryId: 1 });
    file.schedule();
    await file.flush();
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).pets.map((p: { name: string }) => p.name)).toEqual(
      ['a', 'b'],
    );
  });

  it('never runs two writers at once when changes keep coming during a flush', async () => {
    const dir = tmp();
    const store = new MemoryCollectionStore();
    const errors: unknown[] = [];
    const file = new StateFile(join(dir, 'state.json'), () => stateOf(store), {
      coalesceMs: 0,
      onError: (error) => errors.push(error),
    });
    await store.create({ name: 'first', categoryId: 1 });
    const flushing = file.flush();
    // Changes scheduled while the flush writes: their timers fire mid-write.
    for (let i = 0; i < 20; i++) {
      await store.create({ name: `during ${i}`, categoryId: 1 });
      file.schedule();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flushing;
    await file.flush();
    expect(errors).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).pets).toHaveLength(21);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('reports a failed write, keeps running, and writes once the place is writable again', async () => {
    // A regular file where the directory should be: open() fails with ENOTDIR, even for root.
    const parent = join(tmp(), 'not-a-directory');
    writeFileSync(parent, '');
    const store = new MemoryCollectionStore();
    const errors: unknown[] = [];
    let reported!: () => void;
    const firstReport = new Promise<void>((resolve) => (reported = resolve));
    const file = new StateFile(join(parent, 'state.json'), () => stateOf(store), {
      coalesceMs: 0,
      onError: (error) => {
        errors.push(error);
        reported();
      },
    });
    await store.create({ name: 'a', categoryId: 1 });
    await expect(file.flush()).rejects.toThrow(/ENOTDIR/);
    // A scheduled write that fails is reported, not thrown: wait for the report itself, not for a time.
    file.schedule();
    await firstReport;
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/ENOTDIR/);
    rmSync(parent);
    mkdirSync(parent);
    await file.flush();
    expect(JSON.parse(readFileSync(join(parent, 'state.json'), 'utf8')).pets).toHaveLength(1);
  });
});

describe('StateFile journal (a 201 is on disk)', () => {
  it('appends creates to a journal that load replays, dropping a torn last line; a later full write empties it', async () => {
    const { appendFileSync, existsSync } = await import('node:fs');
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const spec = await loadSpec();
    const dir = tmp();
    const path = join(dir, 'state.json');
    const store = new MemoryCollectionStore();
    const file = new StateFile(path, () => stateOf(store));
    await file.flush();
    for (const name of ['a', 'b', 'c']) {
      await store.create({ name, categoryId: 1 });
      await file.commit();
    }
    // The file was written once; the creates went to the journal, one line per commit.
    expect(JSON.parse(readFileSync(path, 'utf8')).pets).toEqual([]);
    expect(readFileSync(file.journalFile, 'utf8').trim().split('\n')).toHaveLength(3);
    // A crash in the middle of an append leaves a torn line: it was never acknowledged.
    appendFileSync(file.journalFile, '{"nextId":9,"pets":[{"id":8,"na');
    const loaded = await StateFile.load(path, spec);
    expect(loaded!.pets!.items.map((pet) => pet.name)).toEqual(['a', 'b', 'c']);
    expect(loaded!.pets!.nextId).toBe(4);

    // A reset is not an addition: written whole, and the journal emptied, so its pets never come back.
    const again = new StateFile(path, () => stateOf(store));
    await store.restore(loaded!.pets!);
    await again.flush();
    expect(readFileSync(again.journalFile, 'utf8')).toBe('');
    await store.reset();
    await again.commit();
    expect((await StateFile.load(path, spec))!.pets!.items).toEqual([]);
    await again.close();
    expect(existsSync(again.journalFile)).toBe(false);
  });
});

describe('StateFile at the edges of int64', () => {
  // [nextId restored, the ids the next creates get]: across 2^53 (the last safe integer and past it) and at 2^63 − 2.
  const edges: [string, bigint, bigint[]][] = [
    ['the last safe id and 2^53', 2n ** 53n - 1n, [2n ** 53n - 1n, 2n ** 53n]],
    ['2^53 and 2^53 + 1', 2n ** 53n, [2n ** 53n, 2n ** 53n + 1n]],
    ['2^63 − 2, leaving nextId 2^63 − 1', 2n ** 63n - 3n, [2n ** 63n - 3n, 2n ** 63n - 2n]],
  ];

  it.each(edges)(
    'round-trips %s (ids, nextId, a categoryId of 2^63−1) through the journal (a crash) and the file (a clean stop)',
    async (_, nextId, ids) => {
      const { loadSpec } = await import('../../openapi/load-spec.js');
      const spec = await loadSpec();
      const path = join(tmp(), 'state.json');
      const store = new MemoryCollectionStore();
      const file = new StateFile(path, () => stateOf(store));
      await store.restore({ items: [], nextId: normaliseInteger(nextId) });
      await file.flush();
      const created = [];
      for (const id of ids) {
        created.push(await store.create({ name: `id ${id}`, categoryId: 2n ** 63n - 1n }));
        await file.commit();
      }
      expect(created.map((pet) => BigInt(pet.id as bigint))).toEqual(ids);
      const after = normaliseInteger(ids.at(-1)! + 1n);
      // A crash now (no close): the journal lines hold the ids and nextId as digits, read back exactly.
      const afterCrash = (await StateFile.load(path, spec))!.pets!;
      expect(afterCrash.nextId).toBe(after);
      expect(afterCrash.items).toEqual(created);
      expect(afterCrash.items[0]!.categoryId).toBe(2n ** 63n - 1n);
      // A clean stop writes the file whole; it loads, with the same pets and nextId.
      await file.close();
      expect(readFileSync(path, 'utf8')).toContain(`"nextId": ${after}`);
      const afterStop = (await StateFile.load(path, spec))!.pets!;
      expect(afterStop.nextId).toBe(after);
      expect(afterStop.items).toEqual(created);
    },
  );

  it('keeps nextId 2^63 − 1 through the file: the restored store refuses the next create, so no id is reused', async () => {
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const spec = await loadSpec();
    const path = join(tmp(), 'state.json');
    writeFileSync(
      path,
      '{"nextId": 9223372036854775807, "pets": [{"id":9223372036854775806,"name":"x","categoryId":1}]}\n',
    );
    const loaded = (await StateFile.load(path, spec))!.pets!;
    expect(loaded.nextId).toBe(2n ** 63n - 1n);
    const store = new MemoryCollectionStore();
    await store.restore(loaded);
    await expect(store.create({ name: 'one too many', categoryId: 1 })).rejects.toMatchObject({ code: 'store_full' });
    expect(await store.count()).toBe(1);
  });

  it.each([
    [
      'a nextId past 2^63 − 1',
      '{"nextId": 9223372036854775808, "pets": []}',
      /state\.nextId must be at most 9223372036854775807 .*got 9223372036854775808/,
    ],
    [
      'a pet id 2^63 − 1 (no next id after it)',
      '{"pets": [{"id":9223372036854775807,"name":"x","categoryId":1}]}',
      /record 0 \(id 9223372036854775807\): pet\.id must be at most 9223372036854775806/,
    ],
  ])('refuses %s with a message that names it', async (_, text, message) => {
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const spec = await loadSpec();
    const path = join(tmp(), 'state.json');
    writeFileSync(path, `${text}\n`);
    await expect(StateFile.load(path, spec)).rejects.toThrow(message);
  });
});

describe('StateFile across releases and collections', () => {
  const v11File = new URL('../../../test/fixtures/documents/petstore-v1.1.yaml', import.meta.url).pathname;

  it("loads a state file and journal written by today's release, under v1 and under a document with more collections", async () => {
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const path = join(tmp(), 'state.json');
    // Byte for byte what the release before collections wrote: the file, then one journal line per commit.
    writeFileSync(
      path,
      '{\n  "nextId": 3,\n  "pets": [\n    {"id":1,"name":"A","categoryId":1},\n    {"id":2,"name":"B","categoryId":2,"status":"sold"}\n  ]\n}\n',
    );
    writeFileSync(`${path}.journal`, '{"nextId":4,"pets":[{"id":3,"name":"C","categoryId":3}]}\n');
    for (const spec of [await loadSpec(), await loadSpec(v11File)]) {
      const loaded = (await StateFile.load(path, spec))!;
      expect(Object.keys(loaded)).toEqual(['pets']);
      expect(loaded.pets!.items.map((pet) => pet.name)).toEqual(['A', 'B', 'C']);
      expect(loaded.pets!.nextId).toBe(4);
    }
  });

  it('writes several collections in the form with collections, journals additions to any of them, and loads them', async () => {
    const { loadSpec } = await import('../../openapi/load-spec.js');
    const spec = await loadSpec(v11File);
    const path = join(tmp(), 'state.json');
    const pets = new MemoryCollectionStore([{ id: 1, name: 'A', categoryId: 1 }]);
    const orders = new MemoryCollectionStore();
    const source = async () => ({ pets: await pets.snapshot(), 'store/orders': await orders.snapshot() });
    const file = new StateFile(path, source);
    await file.flush();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).collections)).toEqual(['pets', 'store/orders']);
    const order = await orders.create({ petId: 1, quantity: 2, placedAt: '2026-01-01T00:00:00Z' });
    await file.commit();
    expect(readFileSync(file.journalFile, 'utf8')).toBe(
      '{"nextId":2,"store/orders":[{"id":1,"petId":1,"quantity":2,"placedAt":"2026-01-01T00:00:00Z"}]}\n',
    );
    // A delete is no addition: the file is written whole and the journal emptied.
    await pets.remove(1);
    await file.commit();
    expect(readFileSync(file.journalFile, 'utf8')).toBe('');
    const loaded = (await StateFile.load(path, spec))!;
    expect(loaded.pets).toEqual({ items: [], nextId: 2 });
    expect(loaded['store/orders']).toEqual({ items: [order], nextId: 2 });
    await file.close();
  });
});
