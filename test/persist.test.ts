import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { startApi, TEST_KEY } from './support/api.js';
import { runCli, startCli } from './support/cli.js';
import { createMock, InputFileError } from '../src/index.js';
import { defaultFixturesFile } from '../src/paths.js';

const PET = { name: 'Biscuit', categoryId: 6, status: 'available' } as const;
const tmp = () => mkdtempSync(join(tmpdir(), 'petstore-persist-'));
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const readState = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as { pets: { id: number; name: string }[]; nextId: number };

describe('--state FILE', () => {
  it('writes the fixtures at start, every change after, and loads them again on restart; the fixtures stay untouched', async () => {
    const dir = tmp();
    const state = join(dir, 'state.json');
    const fixtures = join(dir, 'pets.json');
    copyFileSync(defaultFixturesFile, fixtures);
    const fixturesHash = hash(fixtures);
    const first = await startApi({ fixtures, state });
    expect(readState(state)).toEqual(await first.server.snapshot());
    const created = [
      (await first.post('/pets', PET)).body,
      (await first.post('/pets', { name: 'Second', categoryId: 1 })).body,
    ];
    await first.close();
    expect(readState(state).pets.slice(-2)).toEqual(created);

    const second = await startApi({ fixtures, state });
    try {
      expect((await second.get(`/pets/${created[1].id}`)).body).toEqual(created[1]);
      expect((await second.post('/pets', PET)).body.id).toBe(created[1].id + 1);
      expect(hash(fixtures)).toBe(fixturesHash);
      // reset() means the fixtures, and that is persisted too.
      await second.server.reset();
      await second.server.mock.flush();
      expect(readState(state).pets).toHaveLength(57);
    } finally {
      await second.close();
    }
    expect(hash(fixtures)).toBe(fixturesHash);
    expect(readdirSync(dir).sort()).toEqual(['pets.json', 'state.json']);
  });

  it('keeps the file valid JSON while hundreds of creates are written', async () => {
    const state = join(tmp(), 'state.json');
    const api = await startApi({ state });
    try {
      let done = false;
      let reads = 0;
      const reader = (async () => {
        while (!done) {
          const text = await readFile(state, 'utf8');
          expect(() => JSON.parse(text), text.slice(-80)).not.toThrow();
          reads += 1;
        }
      })();
      for (let batch = 0; batch < 10; batch++)
        await Promise.all(Array.from({ length: 30 }, () => api.post('/pets', PET)));
      done = true;
      await reader;
      expect(reads).toBeGreaterThan(0);
      await api.server.mock.flush();
      expect(readState(state).pets).toHaveLength(57 + 300);
    } finally {
      await api.close();
    }
  });

  it('restores and resets through the admin API into the file', async () => {
    const state = join(tmp(), 'state.json');
    const api = await startApi({ state });
    try {
      await api.request('PUT', '//__admin/state', {
        body: { pets: [{ id: 4, name: 'Kept', categoryId: 2 }], nextId: 9 },
      });
      await api.server.mock.flush();
      expect(readState(state)).toEqual({ pets: [{ id: 4, name: 'Kept', categoryId: 2 }], nextId: 9 });
    } finally {
      await api.close();
    }
  });

  it.each([
    ['not JSON', '{"pets": [', 'is not valid JSON'],
    ['an array', '[]', 'state must be a JSON object'],
    [
      'a bad pet',
      JSON.stringify({ pets: [{ id: 1, name: 'A', categoryId: 'x' }], nextId: 2 }),
      'state.pets: record 0 (id 1): pet.categoryId must be an integer',
    ],
    [
      'a low nextId',
      JSON.stringify({ pets: [{ id: 3, name: 'A', categoryId: 1 }], nextId: 2 }),
      'state.nextId must be an integer greater than every pet id',
    ],
  ])('refuses to start from a state file holding %s, with one line naming the file', async (_, content, message) => {
    const state = join(tmp(), 'state.json');
    writeFileSync(state, content);
    const failure = await createMock({ state }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputFileError);
    expect((failure as Error).message).toContain(`${state}: `);
    expect((failure as Error).message).toContain(message);
    expect((failure as Error).message).not.toContain('\n');
    expect(readFileSync(state, 'utf8')).toBe(content);
  });

  it('stops the CLI with one line and exit 1 for a bad state file', async () => {
    const state = join(tmp(), 'state.json');
    writeFileSync(state, JSON.stringify({ pets: [{ id: 1, name: 'A', categoryId: 'x' }] }));
    const result = await runCli(['mock', '--port', '0', '--state', state]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `petstore-kit: ${state}: state.pets: record 0 (id 1): pet.categoryId must be an integer\n`,
    );
  });

  it('refuses the fixtures file as the state file, and a place it cannot write', async () => {
    const dir = tmp();
    const fixtures = join(dir, 'pets.json');
    copyFileSync(defaultFixturesFile, fixtures);
    await expect(createMock({ fixtures, state: fixtures })).rejects.toThrow(
      'the state file must not be the fixtures file',
    );
    await expect(createMock({ state: join(dir, 'missing', 'state.json') })).rejects.toThrow(
      `${join(dir, 'missing', 'state.json')}: cannot be written (ENOENT)`,
    );
  });

  it('without --state, nothing is written anywhere and the fixtures stay as they are', async () => {
    const before = hash(defaultFixturesFile);
    const files = readdirSync(dirname(defaultFixturesFile));
    const api = await startApi();
    await api.post('/pets', PET);
    await api.server.mock.flush();
    await api.close();
    expect(hash(defaultFixturesFile)).toBe(before);
    expect(readdirSync(dirname(defaultFixturesFile))).toEqual(files);
  });
});

describe('petstore-kit mock --state', () => {
  it('keeps created pets across a restart (flushed on SIGTERM)', async () => {
    const state = join(tmp(), 'state.json');
    const args = ['mock', '--port', '0', '--state', state, '--api-key', TEST_KEY];
    const first = await startCli(args, /listening on (\S+)/);
    const url = first.match[1]!;
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${url}/pets`, { method: 'POST', headers, body: JSON.stringify(PET) })
    ).json()) as { id: number };
    first.child.kill('SIGTERM');
    await once(first.child, 'close');
    expect(existsSync(state)).toBe(true);

    const second = await startCli(args, /listening on (\S+)\n\s+(\d+) pets in the store \(kept in (\S+)\)/);
    try {
      expect(second.match[2]).toBe('58');
      expect(second.match[3]).toBe(state);
      const fetched = await fetch(`${second.match[1]}/pets/${created.id}`, { headers });
      expect(await fetched.json()).toEqual(created);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});

// "acknowledged means durable". A 201 is sent only once the create is on disk, so SIGKILL at any moment
// loses no acknowledged pet, and no id a client holds is handed out again.
describe('petstore-kit mock --state under SIGKILL', () => {
  it(
    'keeps every acknowledged create, and never hands out an acknowledged id again, after a kill -9 under load',
    { timeout: 60_000 },
    async () => {
      const state = join(tmp(), 'state.json');
      const args = ['mock', '--port', '0', '--state', state, '--api-key', TEST_KEY, '--quiet'];
      const first = await startCli(args, /listening on (\S+)/);
      const url = first.match[1]!;
      const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
      const acknowledged = new Map<number, string>();
      let killed = false;
      // Eight clients creating as fast as they can; the process is killed while their requests are in flight.
      const client = async (n: number) => {
        for (let i = 0; !killed; i++) {
          const name = `load-${n}-${i}`;
          try {
            const response = await fetch(`${url}/pets`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ name, categoryId: n }),
            });
            if (response.status === 201) acknowledged.set(((await response.json()) as { id: number }).id, name);
          } catch {
            return; // the process is gone: this create was never acknowledged
          }
        }
      };
      const clients = Array.from({ length: 8 }, (_, n) => client(n));
      // Killed once a few hundred creates are acknowledged: by count, not by a clock.
      while (acknowledged.size < 300) await new Promise((resolve) => setImmediate(resolve));
      first.child.kill('SIGKILL');
      killed = true;
      await once(first.child, 'close');
      await Promise.all(clients);
      expect(acknowledged.size).toBeGreaterThanOrEqual(300);

      const second = await startCli(args, /listening on (\S+)/);
      try {
        const again = second.match[1]!;
        const lost: number[] = [];
        for (const [id, name] of acknowledged) {
          const got = await fetch(`${again}/pets/${id}`, { headers });
          if (got.status !== 200 || ((await got.json()) as { name: string }).name !== name) lost.push(id);
        }
        expect(lost).toEqual([]);
        const next = (await (
          await fetch(`${again}/pets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: 'after', categoryId: 1 }),
          })
        ).json()) as { id: number };
        expect(next.id).toBeGreaterThan(Math.max(...acknowledged.keys()));
      } finally {
        second.child.kill('SIGTERM');
      }
    },
  );
});
