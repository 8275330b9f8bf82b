import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TEST_KEY } from './support/api.js';
import { startCli } from './support/cli.js';

/**
 * Deleting a parent deletes its nested items (docs/mock.md): with `--state`, the photos of a deleted pet are gone
 * from the answer, from the state, and after a kill -9 and a restart, while another pet's photos stay. (The memory
 * store: src/mock/store/resource-store.test.ts; Redis: test/redis-resources.test.ts.)
 */
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
type Json = Record<string, unknown>;
type State = { collections: Record<string, { items: Json[] }> };

async function send(url: string, method = 'GET', body?: unknown) {
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}

describe('petstore-kit mock --state on the v1.1 document', () => {
  it('DELETE /pets/{id} deletes that pet’s photos, durably', { timeout: 60_000 }, async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'petstore-nested-')), 'state.json');
    const args = ['mock', '--port', '0', '--spec', v11, '--state', state, '--api-key', TEST_KEY, '--quiet'];
    const first = await startCli(args, /listening on (\S+)/);
    const url = first.match[1]!;
    const origin = new URL(url).origin;
    const gone = (await send(`${url}/pets`, 'POST', { name: 'Gone', categoryId: 1 })).body;
    const kept = (await send(`${url}/pets`, 'POST', { name: 'Kept', categoryId: 1 })).body;
    for (const n of [1, 2])
      await send(`${url}/pets/${gone.id as number}/photos`, 'POST', { url: `https://e.com/${n}` });
    const other = (await send(`${url}/pets/${kept.id as number}/photos`, 'POST', { url: 'https://e.com/3' })).body;
    expect((await send(`${url}/pets/${gone.id as number}`, 'DELETE')).status).toBe(204);
    expect((await send(`${url}/pets/${gone.id as number}/photos`)).status).toBe(404);
    const photos = async (base: string) =>
      ((await send(`${base}/__admin/state`)).body as unknown as State).collections['pets/photos']!.items;
    expect(await photos(origin)).toEqual([other]);
    first.child.kill('SIGKILL');
    await once(first.child, 'close');

    const second = await startCli(args, /listening on (\S+)/);
    try {
      expect(await photos(new URL(second.match[1]!).origin)).toEqual([other]);
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'close');
    }
  });
});
