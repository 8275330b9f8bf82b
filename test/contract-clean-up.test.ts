import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { createMockServer } from '../src/mock/http/server.js';
import { failuresOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// What a run created it deletes at its end where the document has a delete, and lists where it has none; it never
// touches an item it did not create: every seeded item is as it was after a whole run.
const KEY = 'clean-up-key-45b';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type State = { collections?: Record<string, { items: Record<string, unknown>[] }>; pets?: Record<string, unknown>[] };

/** The mock's items by collection, as `GET /__admin/state` shows them. */
async function itemsOf(origin: string): Promise<Record<string, Record<string, unknown>[]>> {
  const state = (await (
    await fetch(`${origin}/__admin/state`, { headers: { authorization: `Bearer ${KEY}` } })
  ).json()) as State;
  if (state.pets) return { pets: state.pets };
  return Object.fromEntries(Object.entries(state.collections ?? {}).map(([name, { items }]) => [name, items]));
}

async function run(spec?: string) {
  const server = await createMockServer({ apiKeys: [KEY], ...(spec ? { spec } : {}) });
  try {
    const origin = new URL(server.url).origin;
    const before = await itemsOf(origin);
    const report = await runContract({
      baseUrl: server.url,
      apiKey: KEY,
      seed: 4545,
      runs: 20,
      ...(spec ? { spec } : {}),
    });
    const after = await itemsOf(origin);
    const notes = report.notes.filter((n) => n.check === 'resource.cleanup').map((n) => n.message);
    return { before, after, notes, failures: failuresOf(report) };
  } finally {
    await server.close();
  }
}

describe('the run cleans up after itself, and only after itself', () => {
  it(
    'on v1.1 (every collection has a delete): the store ends as it began, every seeded item untouched',
    { timeout: limitForRuns(1) },
    async () => {
      const { before, after, notes, failures } = await run(v11);
      expect(failures).toEqual([]);
      expect(Object.values(before).flat().length).toBeGreaterThan(0);
      expect(after).toEqual(before);
      expect(
        notes.some((n) => /^deleted at the end: \d+ items this run created and left$/.test(n)),
        notes.join('\n'),
      ).toBe(true);
      expect(notes.filter((n) => n.includes('left behind'))).toEqual([]);
    },
  );

  it(
    'on v1 (no delete): the pets it created are listed as left behind, the seeded ones untouched',
    { timeout: limitForRuns(1) },
    async () => {
      const { before, after, notes, failures } = await run();
      expect(failures).toEqual([]);
      const seeded = before.pets!;
      expect(seeded.length).toBeGreaterThan(0);
      expect(after.pets!.slice(0, seeded.length)).toEqual(seeded);
      const added = after.pets!.length - seeded.length;
      expect(notes).toEqual([
        expect.stringMatching(
          new RegExp(
            `^/pets: left behind ${added} items this run created \\(the document has no delete\\): \\d+(, \\d+){19} and ${added - 20} more$`,
          ),
        ),
      ]);
    },
  );
});
