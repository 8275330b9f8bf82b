import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';
import { COLLECTION_ORACLE_CHECKS } from './support/oracle-checks.js';

/**
 * The collection oracles (src/contract/stateful/collection-oracles.ts) on the v1.1 document: a correct target of
 * another stack (test/targets/resource-petstore.ts, orders and photos in resource-petstore-more.ts) and the mock on
 * the same document pass them all; each planted fault fails under its own id.
 */
const KEY = 'collection-oracle-key-7c2a';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

const COLLECTION_CHECKS = new Set(COLLECTION_ORACLE_CHECKS);

/** Every collection oracle of the suite on v1.1, by case id: its status and the checks that failed. */
async function judgeAt(url: string): Promise<Record<string, string>> {
  const session = await createSession({ baseUrl: url, apiKey: KEY, spec: await loadSpec(v11), runId: 'coll' });
  try {
    const verdicts: Record<string, string> = {};
    for (const oracle of contractCases(session.spec).filter((c) => COLLECTION_CHECKS.has(c.check))) {
      const result = await runCase(session, oracle);
      const failed = [...new Set(result.failures.map((f) => `${f.check}: ${f.actual}`))].join(' | ');
      verdicts[oracle.id] = result.status === 'failed' ? `failed: ${failed}` : result.status;
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
  }
}

async function judge(fault?: ResourceFault): Promise<Record<string, string>> {
  const target = await startResourcePetstore(KEY, fault);
  try {
    return await judgeAt(target.url);
  } finally {
    await target.close();
  }
}

const everyCase = [
  'resource.refused-create/pets',
  'resource.create-echo/pets',
  'resource.refused-create/pets/photos',
  'resource.unique-ids/pets/photos',
  'resource.nested-parent/pets/photos',
  'resource.children-gone/pets/photos',
  'resource.limit/pets/photos',
  'resource.create-echo/pets/photos',
  'resource.refused-create/store/orders',
  'resource.unique-ids/store/orders',
  'resource.create-echo/store/orders',
];

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ apiKeys: [KEY], spec: v11 });
});
afterAll(() => mock.close());

describe('the collection oracles on the v1.1 document', () => {
  it('are listed for every collection with a create, nested ones included, and for none on v1', async () => {
    const ids = (file?: string) =>
      loadSpec(file).then((spec) =>
        contractCases(spec)
          .filter((c) => COLLECTION_CHECKS.has(c.check))
          .map((c) => c.id),
      );
    expect((await ids(v11)).sort()).toEqual([...everyCase].sort());
    expect(await ids()).toEqual([]);
  });

  it('pass a correct target of another stack (plain node:http), every one of them', async () => {
    expect(await judge()).toEqual(Object.fromEntries(everyCase.map((id) => [id, 'passed'])));
  });

  it('pass the mock serving the same document', async () => {
    expect(await judgeAt(mock.url)).toEqual(Object.fromEntries(everyCase.map((id) => [id, 'passed'])));
  });

  it.each([
    ['refused-create-stores', 'resource.refused-create/pets'],
    ['refused-photo-stores', 'resource.refused-create/pets/photos'],
    ['order-ids-repeat', 'resource.unique-ids/store/orders'],
    ['photo-any-parent', 'resource.nested-parent/pets/photos'],
    ['photos-outlive-pet', 'resource.children-gone/pets/photos'],
    ['photos-ignore-limit', 'resource.limit/pets/photos'],
    ['photo-echo-drops-caption', 'resource.create-echo/pets/photos'],
  ] as const)('catch %s under %s, and only there', async (fault, id) => {
    const verdicts = await judge(fault);
    // A refused body stored as sent also breaks the item schema: schema.response may fail beside the oracle.
    const check = id.split('/')[0]!;
    expect(verdicts[id]).toMatch(new RegExp(`(^failed: | \\| )${check.replace('.', '\\.')}: `));
    const others = Object.entries(verdicts).filter(([other, verdict]) => other !== id && verdict !== 'passed');
    expect(others).toEqual([]);
  });
});
