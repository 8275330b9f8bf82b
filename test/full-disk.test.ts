import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/fs/write-file-atomic.js';
import { StateFile } from '../src/mock/state/state-file.js';
import { HarRecorder, readHarEntries } from '../src/proxy/har-recorder.js';
import type { ServedRequest } from '../src/mock/front-door/observers.js';
import { MemoryCollectionStore } from '../src/mock/store/memory.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { Spec } from '../src/openapi/load-spec.js';
import { mountSmallDisk, type SmallDisk } from './support/small-disk.js';

// A real full disk: a 1 MiB file system made for these tests, where write(2) writes part of what it is asked, then
// fails with ENOSPC. Skipped, with the reason printed, where no file system can be mounted (CI runs as root).
const mounted = mountSmallDisk(1024 * 1024);
if (typeof mounted === 'string') process.stderr.write(`\n!! skipping "a full disk": ${mounted}\n\n`);
const disk = typeof mounted === 'string' ? undefined : mounted;
const describeFullDisk = disk ? describe : describe.skip;

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});
afterAll(() => disk?.close());

/** A fresh directory on the small disk, emptied of everything else (the filler included). */
function freshDir(name: string): string {
  const { dir } = disk as SmallDisk;
  disk!.release();
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
  const path = join(dir, name);
  rmSync(path, { recursive: true, force: true });
  return path;
}

function ids(pets: readonly { id: number | bigint }[]): number[] {
  return pets.map((pet) => Number(pet.id)).sort((a, b) => a - b);
}

describeFullDisk('a full disk', () => {
  it('fails an atomic write that does not fit, leaving the old file whole and no temporary file', async () => {
    const dir = freshDir('atomic');
    const file = join(dir, 'report.json');
    await writeFileAtomic(file, 'the good report\n');
    disk!.fill(8 * 1024);
    // More than is free, in one piece: write(2) takes what fits and says how much.
    await expect(writeFileAtomic(file, 'x'.repeat(64 * 1024))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(file, 'utf8')).toBe('the good report\n');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('acknowledges no journal line it could not write whole, and loses none it did acknowledge', async () => {
    const dir = freshDir('journal');
    const path = join(dir, 'state.json');
    const store = new MemoryCollectionStore();
    const reports: string[] = [];
    const file = new StateFile(path, async () => ({ pets: await store.snapshot() }), {
      onError: (error) => reports.push(`failed ${(error as NodeJS.ErrnoException).code}`),
      onRecovered: () => reports.push('recovered'),
    });
    const acknowledged: number[] = [];
    const create = async (name: string): Promise<boolean> => {
      const pet = await store.create({ name, categoryId: 1 });
      try {
        await file.commit();
        acknowledged.push(Number(pet.id));
        return true;
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        return false;
      }
    };
    expect(await create('first, written whole')).toBe(true);
    disk!.fill(4096);
    // Lines of about 100 bytes into one free page: some fit, then one is cut short, then none fits.
    let refused = 0;
    for (let i = 0; refused < 5 && i < 500; i++) if (!(await create(`pet ${i} ${'n'.repeat(40)}`))) refused += 1;
    expect(refused).toBe(5);
    expect(acknowledged.length).toBeGreaterThan(5);
    const journal = readFileSync(`${path}.journal`);
    // Cut back exactly to the last whole line: no torn line, no NUL padding for later appends to land behind.
    expect(journal.includes(0)).toBe(false);
    expect(journal.at(-1)).toBe(0x0a);
    // Room again: later creates are appended after the whole lines, and a crash now (no close) loses nothing.
    disk!.release();
    for (let i = 0; i < 5; i++) expect(await create(`after ${i}`)).toBe(true);
    // One line when the disk filled, one when it had room again: not one per refused create.
    expect(reports).toEqual(['failed ENOSPC', 'recovered']);
    const loaded = await StateFile.load(path, spec);
    const kept = ids(loaded!.pets!.items as { id: number }[]);
    for (const id of acknowledged) expect(kept).toContain(id);
    expect(loaded!.pets!.nextId).toBeGreaterThan(Math.max(...acknowledged));
    await file.close();
  });

  it('keeps the good state file and its journal when the rewrite at a clean stop does not fit', async () => {
    const dir = freshDir('close');
    const path = join(dir, 'state.json');
    const seed = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      name: `seeded pet ${i + 1} ${'s'.repeat(60)}`,
      categoryId: 1,
      status: 'available' as const,
    }));
    const store = new MemoryCollectionStore(seed);
    const file = new StateFile(path, async () => ({ pets: await store.snapshot() }), { onError: () => undefined });
    await file.commit();
    const created = await store.create({ name: 'acknowledged', categoryId: 1 });
    await file.commit();
    // Room for the journal, not for a second copy of the ~30 KB file.
    disk!.fill(8 * 1024);
    await expect(file.close()).rejects.toMatchObject({
      code: 'ENOSPC',
      message: expect.stringContaining(`${path}.journal are kept as they were`),
    });
    expect(existsSync(`${path}.journal`)).toBe(true);
    const loaded = await StateFile.load(path, spec);
    expect(ids(loaded!.pets!.items as { id: number }[])).toEqual([...seed.map((pet) => pet.id), created.id]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    disk!.release();
    await file.close();
  });

  it('refuses a replace and a delete whose rewrite does not fit, the file keeping the item as acknowledged before', async () => {
    const dir = freshDir('replace');
    const path = join(dir, 'state.json');
    // Large enough that a second copy of the file (the atomic rewrite a replace or a delete makes) does not fit.
    const seed = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      name: `pet ${i + 1} ${'s'.repeat(60)}`,
      categoryId: 1,
    }));
    const store = new MemoryCollectionStore(seed);
    const file = new StateFile(path, async () => ({ pets: await store.snapshot() }), { onError: () => undefined });
    await file.commit();
    await store.update(7, () => ({ name: 'acknowledged', categoryId: 2 }));
    await file.commit();
    disk!.fill(8 * 1024);
    await store.update(7, () => ({ name: 'never acknowledged', categoryId: 3 }));
    await expect(file.commit()).rejects.toMatchObject({ code: 'ENOSPC' });
    await store.remove(8);
    await expect(file.commit()).rejects.toMatchObject({ code: 'ENOSPC' });
    const onDisk = await StateFile.load(path, spec);
    expect(onDisk!.pets!.items.find((pet) => pet.id === 7)).toEqual({ id: 7, name: 'acknowledged', categoryId: 2 });
    expect(ids(onDisk!.pets!.items as { id: number }[])).toContain(8);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Room again: the next write holds both changes.
    disk!.release();
    await file.commit();
    const later = await StateFile.load(path, spec);
    expect(later!.pets!.items.find((pet) => pet.id === 7)).toEqual({
      id: 7,
      name: 'never acknowledged',
      categoryId: 3,
    });
    expect(ids(later!.pets!.items as { id: number }[])).not.toContain(8);
    await file.close();
  });

  it('stops a recording at the first write that does not fit, and every entry it counted is in the file whole', async () => {
    const dir = freshDir('har');
    mkdirSync(dir);
    const file = join(dir, 'session.har');
    const errors: unknown[] = [];
    const recorder = await HarRecorder.create(file, [], (error) => errors.push(error));
    disk!.fill(8 * 1024);
    const payload = Buffer.from(JSON.stringify({ id: 1, name: 'r'.repeat(700), categoryId: 1 }));
    const served = {
      request: { method: 'GET', url: '/pets/1', headers: { host: 'localhost' }, mountPath: '/v1', body: [] },
      reply: { status: 200, headers: { 'Content-Type': 'application/json' }, payload },
      durationMs: 1,
    } as unknown as ServedRequest;
    for (let i = 0; i < 40; i++) recorder.record(served, undefined, Date.now());
    await recorder.close();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(recorder.count).toBeGreaterThan(0);
    expect(recorder.count).toBeLessThan(40);
    const text = readFileSync(file, 'utf8');
    expect(text.includes('\u0000')).toBe(false);
    expect(readHarEntries(text)).toHaveLength(recorder.count);
  });
});
