import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TEST_KEY } from './support/api.js';
import { startCli } from './support/cli.js';

/**
 * "Acknowledged means durable" (docs/reliability.md) for every write of a document with more roles than v1's: PUT,
 * PATCH and DELETE answered 2xx are on disk before the answer, so a kill -9 at any moment loses none of them.
 */
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };

type Pet = { id: number; name: string; categoryId: number; tag?: string };

/** A write: method, body, Content-Type, and what the pet is once it is acknowledged. */
type Step = [string, object | undefined, string, (before: Pet) => Pet | 'deleted'];

/** What a pet must be after a restart: its last acknowledged state, or either side of the one write in flight. */
interface Expected {
  acknowledged: Pet | 'deleted';
  inFlight?: Pet | 'deleted';
}

async function send(url: string, method: string, body?: object, contentType = 'application/json') {
  const response = await fetch(url, {
    method,
    headers: { ...headers, 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Pet) : undefined };
}

describe('petstore-kit mock --state on a v1.1 document under SIGKILL', () => {
  it(
    'keeps every acknowledged PUT, PATCH and DELETE (and the orders) after a kill -9 under load',
    { timeout: 90_000 },
    async () => {
      const state = join(mkdtempSync(join(tmpdir(), 'petstore-resources-')), 'state.json');
      const args = ['mock', '--port', '0', '--spec', v11, '--state', state, '--api-key', TEST_KEY, '--quiet'];
      const first = await startCli(args, /listening on (\S+)/);
      const url = first.match[1]!;
      const expected = new Map<number, Expected>();
      const orders = new Map<number, unknown>();
      let writes = 0;
      let killed = false;

      // Each client works on its own pets, one write at a time: create, replace, patch, and delete every other one.
      const client = async (n: number) => {
        for (let i = 0; !killed; i++) {
          try {
            const created = await send(`${url}/pets`, 'POST', { name: `p-${n}-${i}`, categoryId: n, tag: 'new' });
            if (created.status !== 201) return;
            const id = created.body!.id;
            expected.set(id, { acknowledged: created.body! });
            const deleteStep: Step = ['DELETE', undefined, 'application/json', () => 'deleted'];
            const steps: Step[] = [
              [
                'PUT',
                { name: `put-${n}-${i}`, categoryId: n + 100 },
                'application/json',
                () => ({ id, name: `put-${n}-${i}`, categoryId: n + 100 }),
              ],
              [
                'PATCH',
                { tag: `patched-${i}` },
                'application/merge-patch+json',
                (before) => ({ ...before, tag: `patched-${i}` }),
              ],
              ...(i % 2 === 0 ? [deleteStep] : []),
            ];
            for (const [method, body, contentType, next] of steps) {
              const entry = expected.get(id)!;
              const after = next(entry.acknowledged as Pet);
              entry.inFlight = after;
              const answer = await send(`${url}/pets/${id}`, method, body, contentType);
              if (answer.status >= 300) throw new Error(`${method} /pets/${id} answered ${answer.status}`);
              expected.set(id, { acknowledged: after });
              writes += 1;
            }
            const order = await send(`${url}/store/orders`, 'POST', { petId: id, quantity: 1 });
            if (order.status === 201) orders.set(order.body!.id, order.body);
          } catch (error) {
            if (killed) return; // the process is gone: the write in flight was never acknowledged
            throw error;
          }
        }
      };
      const clients = Array.from({ length: 6 }, (_, n) => client(n));
      // Killed once enough writes are acknowledged: by count, not by a clock.
      while (writes < 200) await new Promise((resolve) => setImmediate(resolve));
      first.child.kill('SIGKILL');
      killed = true;
      await once(first.child, 'close');
      await Promise.all(clients);

      const second = await startCli(args, /listening on (\S+)/);
      try {
        const again = second.match[1]!;
        const wrong: string[] = [];
        for (const [id, { acknowledged, inFlight }] of expected) {
          const got = await send(`${again}/pets/${id}`, 'GET');
          const now = got.status === 404 ? 'deleted' : got.body!;
          const allowed = [acknowledged, ...(inFlight === undefined ? [] : [inFlight])].map((one) =>
            JSON.stringify(one),
          );
          if (!allowed.includes(JSON.stringify(now)))
            wrong.push(`${id}: ${JSON.stringify(now)} not in ${allowed.join(' | ')}`);
        }
        expect(wrong).toEqual([]);
        expect(expected.size).toBeGreaterThan(50);
        for (const [id, order] of orders)
          expect((await send(`${again}/store/orders/${id}`, 'GET')).body).toEqual(order);
        // No acknowledged id is handed out again, deleted ones included.
        const next = await send(`${again}/pets`, 'POST', { name: 'after', categoryId: 1 });
        expect(next.body!.id).toBeGreaterThan(Math.max(...expected.keys()));
      } finally {
        second.child.kill('SIGTERM');
      }
    },
  );
});

describe('petstore-kit mock on a v1.1 document: the banner', () => {
  it('names the collections with their roles, and every operation answered without state with why', async () => {
    const cli = await startCli(
      ['mock', '--port', '0', '--spec', v11, '--api-key', TEST_KEY],
      /listening on [\s\S]*?\n(\s+docs: )/,
    );
    try {
      const banner = cli.match[0];
      expect(banner).toContain('items in 3 collections from the fixtures; 15 operations from the document');
      expect(banner).toContain(
        'collections: pets (list, create, read, replace, delete, merge); store/orders (list, create, read, delete); pets/photos (list, create, read, delete)',
      );
      expect(banner).toContain("answered from the document's examples, without state (they fit no resource role):");
      expect(banner).toContain(
        'GET /store/inventory (getInventory): /store/inventory is no collection: no item path /store/inventory/{…} and no POST beside a GET answering an array',
      );
    } finally {
      cli.child.kill('SIGTERM');
    }
  });
});

describe('petstore-kit mock on a document without pets', () => {
  it("starts on the document's own collections: the bundled pets seed none of them, and the try: line lists orders (no limit: the document's list of orders takes none)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-orders-only-'));
    const document = yaml.load(readFileSync(v11, 'utf8')) as { paths: Record<string, unknown> };
    for (const path of Object.keys(document.paths)) if (path.startsWith('/pets')) delete document.paths[path];
    const file = join(dir, 'orders-only.yaml');
    writeFileSync(file, yaml.dump(document));
    const cli = await startCli(['mock', '--port', '0', '--spec', file, '--api-key', TEST_KEY], /try: (.*)\n/);
    try {
      const url = /listening on (\S+)/.exec(cli.match.input!)![1]!;
      expect(cli.match[1]).toBe(`curl -H 'Authorization: Bearer <your key>' '${url}/store/orders'`);
      const orders = await fetch(`${url}/store/orders`, { headers });
      expect(orders.status).toBe(200);
      // Seeded from the document's examples for orders (none), not from fixtures/pets.json's pets.
      expect(await orders.json()).toEqual([]);
      const placed = await send(`${url}/store/orders`, 'POST', { petId: 1, quantity: 2 });
      expect(placed.status).toBe(201);
    } finally {
      cli.child.kill('SIGTERM');
    }
  });
});
