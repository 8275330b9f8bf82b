import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { startFastifyV11Petstore } from './targets/fastify-v11-petstore.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// A correct target of another stack (Fastify, written from the v1.1 document by hand, sharing no code with the mock
// or the resource model) passes the whole run on v1.1 with 0 failures: fixed cases, oracles, generated requests,
// the pet sequences and the sequences over every role of every collection, clean-up included.
const KEY = 'fastify-v11-key-45b';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const SEED = 20261127;
const DELAYS = process.env.PETSTORE_LONG_TESTS === '1' ? [0, 40] : [0];

describe.each(DELAYS)('Fastify on v1.1, %i ms away', (delayMs) => {
  it.for([1, 8])('passes the whole run at --concurrency %i', { timeout: limitForRuns(1) }, async (concurrency) => {
    const target = await startFastifyV11Petstore({ key: KEY, delayMs });
    try {
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec: v11, seed: SEED, concurrency });
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      expect(report.cases.filter((c) => c.id.startsWith('sequence/')).map((c) => [c.id, c.status])).toEqual([
        ['sequence/pets', 'passed'],
        ['sequence/store/orders', 'passed'],
        ['sequence/pets/photos', 'passed'],
      ]);
      expect(report.notes.filter((n) => n.check === 'resource.cleanup' && n.message.includes('left behind'))).toEqual(
        [],
      );
    } finally {
      await target.close();
    }
  });
});

// The same Fastify target serving the v1.2 test document (issue 45: a PUT that creates, answered 201; a pet's PATCH as
// RFC 6902 JSON Patch; a photo replaced and merge-patched through its pet) passes the whole run on v1.2 too: the item
// oracles on the nested photos, and the sequences' JSON Patch and PUT-create, judged.
const v12 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.2.yaml', import.meta.url));

it.for([1, 8])(
  'Fastify on v1.2 passes the whole run at --concurrency %i',
  { timeout: limitForRuns(1) },
  async (concurrency) => {
    const target = await startFastifyV11Petstore({ key: KEY, document: 'v1.2' });
    try {
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec: v12, seed: SEED, concurrency });
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      const passed = (id: string) => report.cases.find((c) => c.id === id)?.status;
      for (const id of ['resource.replace-exact/pets/photos', 'resource.merge-patch/pets/photos', 'sequence/pets'])
        expect([id, passed(id)]).toEqual([id, 'passed']);
      const judged = new Set(report.checkCoverage.filter((row) => row.passed > 0).map((row) => row.check));
      expect([...judged]).toEqual(expect.arrayContaining(['resource.json-patch', 'resource.put-create']));
      expect(report.notes.filter((n) => n.check === 'resource.cleanup' && n.message.includes('left behind'))).toEqual(
        [],
      );
    } finally {
      await target.close();
    }
  },
);

// The run touches only what it created: against a target that carries out PUT, PATCH and DELETE without a key, the
// auth cases' writes (sent with no key or a wrong one) must name a pet the run created, never a seed.
it(
  'against a target that writes without a key, fails auth.required and leaves every seeded pet as it was',
  { timeout: limitForRuns(1) },
  async () => {
    const target = await startFastifyV11Petstore({ key: KEY, fault: 'writes-without-key' });
    try {
      const seeded = target.pets();
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec: v11, seed: SEED });
      expect(report.failedChecks).toContain('auth.required');
      expect(target.pets().slice(0, seeded.length)).toEqual(seeded);
    } finally {
      await target.close();
    }
  },
);
