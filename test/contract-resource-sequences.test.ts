import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createSession, type ContractConfig } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { loadFastCheck } from '../src/contract/generate/fast-check.js';
import { resourceSequenceCases } from '../src/contract/stateful/resource-sequences.js';
import { generatedCases } from '../src/contract/run/generated-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';
import { limitForRuns } from './support/run-budget.js';
import { startVariantPetstore, variantDocument, type Variant } from './targets/variant-petstore.js';

const KEY = 'resource-sequence-key-7c1d';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const spec = await loadSpec(v11);
const SEED = 45_2;
// The long suite (PETSTORE_LONG_TESTS=1) judges each target again with every answer 40 ms late: the same verdicts.
const DELAYS = process.env.PETSTORE_LONG_TESTS === '1' ? [0, 40] : [0];

/** The sequences of the collections named against a target: each case's status, its failed checks and its failures. */
async function sequences(url: string, names: string[], options: Partial<ContractConfig> = {}) {
  await loadFastCheck();
  const session = await createSession({
    baseUrl: url,
    apiKey: KEY,
    spec,
    runId: 'sequences',
    seed: SEED,
    runs: 40,
    ...options,
  });
  try {
    const results = [];
    for (const sequence of resourceSequenceCases(spec).filter((c) => names.some((n) => c.id === `sequence/${n}`)))
      results.push(await runCase(session, sequence));
    return results.map((r) => ({
      id: r.id,
      status: r.status,
      failed: [...new Set(r.failures.map((f) => f.check))],
      failures: r.failures.map((f) => `${f.check}: ${f.expected} / ${f.actual}\n${(f.reproduction ?? []).join('\n')}`),
      checks: r.checks,
      requests: r.requests.length,
    }));
  } finally {
    await session.dispatcher.close();
  }
}

describe('model-based sequences over every role of the v1.1 document', () => {
  it('are made for every collection with a create and a read, none on v1 (its pet sequences judge it whole)', async () => {
    expect(resourceSequenceCases(spec).map((c) => [c.id, c.operation, c.writeMethods])).toEqual([
      ['sequence/pets', 'createPet+listPets+getPet+replacePet+updatePet+deletePet', ['POST', 'PUT', 'PATCH', 'DELETE']],
      ['sequence/store/orders', 'placeOrder+listOrders+getOrder+deleteOrder', ['POST', 'DELETE']],
      ['sequence/pets/photos', 'addPetPhoto+listPetPhotos+getPetPhoto+deletePetPhoto', ['POST', 'DELETE']],
    ]);
    expect(resourceSequenceCases(await loadSpec())).toEqual([]);
    expect(generatedCases(spec).map((c) => c.id)).toEqual(expect.arrayContaining(['stateful/pets', 'sequence/pets']));
  });

  describe.each(DELAYS)('%i ms away', (delayMs) => {
    it.for([1, 8])(
      'pass a correct target of another stack (node:http) at --concurrency %i, every role judged',
      { timeout: limitForRuns(1) },
      async (concurrency) => {
        const target = await startResourcePetstore(KEY, undefined, delayMs);
        try {
          const [result] = await sequences(target.url, ['pets'], { concurrency });
          expect(result!.failures).toEqual([]);
          expect(result!.status).toBe('passed');
          expect(Object.keys(result!.checks)).toEqual(
            expect.arrayContaining([
              'resource.created-readable',
              'resource.filter',
              'resource.replace-exact',
              'resource.merge-patch',
              'resource.delete-gone',
              'resource.refused-unchanged',
            ]),
          );
        } finally {
          await target.close();
        }
      },
    );

    it.concurrent.for(
      (
        [
          ['drops-tag', 'resource.created-readable'],
          ['ignores-filter', 'resource.filter'],
          ['put-merges', 'resource.replace-exact'],
          ['patch-ignores-null', 'resource.merge-patch'],
          ['delete-keeps', 'resource.delete-gone'],
          ['refused-put-applies', 'resource.refused-unchanged'],
        ] as [ResourceFault, string][]
      ).flatMap(([fault, check]) => [1, 8].map((concurrency) => [fault, check, concurrency] as const)),
    )(
      'catch %s under %s alone, at --concurrency %i',
      { timeout: limitForRuns(1) },
      async ([fault, check, concurrency], { expect }) => {
        const target = await startResourcePetstore(KEY, fault, delayMs);
        try {
          const [result] = await sequences(target.url, ['pets'], { concurrency });
          expect(result!.status).toBe('failed');
          expect(result!.failed, result!.failures.join('\n')).toEqual([check]);
        } finally {
          await target.close();
        }
      },
    );
  });

  it.for([1, 8])(
    'pass a correct target that gives the id of a deleted pet again (allowed), at --concurrency %i',
    { timeout: limitForRuns(1) },
    async (concurrency) => {
      const target = await startResourcePetstore(KEY, undefined, 0, true);
      try {
        const [result] = await sequences(target.url, ['pets'], { concurrency });
        expect(result!.failures).toEqual([]);
        expect(result!.status).toBe('passed');
      } finally {
        await target.close();
      }
    },
  );

  it(
    "the mock on v1.1 passes every collection's sequences, nested photos and orders included",
    { timeout: limitForRuns(1) },
    async () => {
      const mock = await createMockServer({ apiKeys: [KEY], spec: v11 });
      try {
        const results = await sequences(mock.url, ['pets', 'pets/photos', 'store/orders']);
        expect(results.flatMap((r) => r.failures)).toEqual([]);
        expect(results.map((r) => [r.id, r.status])).toEqual([
          ['sequence/pets', 'passed'],
          ['sequence/store/orders', 'passed'],
          ['sequence/pets/photos', 'passed'],
        ]);
      } finally {
        await mock.close();
      }
    },
  );

  it('send nothing under --read-only, naming every method they would send', async () => {
    const target = await startResourcePetstore(KEY);
    try {
      const results = await sequences(target.url, ['pets', 'pets/photos', 'store/orders'], { readOnly: true });
      expect(results.map((r) => [r.status, r.requests])).toEqual(results.map(() => ['skipped', 0]));
    } finally {
      await target.close();
    }
  });
});

describe('a delete the document lets the target refuse (deletePet declaring 409)', () => {
  /** The pets' sequence on a variant document against its service refusing every delete with 409. */
  async function refusedDeletes(variant: Variant) {
    await loadFastCheck();
    const target = await startVariantPetstore(KEY, variant, 'delete-refused');
    const variantSpec = await loadSpec(variantDocument(variant));
    const session = await createSession({
      baseUrl: target.url,
      apiKey: KEY,
      spec: variantSpec,
      runId: 'refused',
      seed: SEED,
      runs: 40,
    });
    try {
      const sequence = resourceSequenceCases(variantSpec).find((c) => c.id === 'sequence/pets')!;
      const result = await runCase(session, sequence);
      return {
        status: result.status,
        failed: [...new Set(result.failures.map((f) => f.check))],
        deletes: result.requests.filter((r) => r.request.includes('-X DELETE')).length,
      };
    } finally {
      await session.dispatcher.close();
      await target.close();
    }
  }

  it('passes the sequence where the 409 is declared: the pet stays, as the model then expects', async () => {
    const verdict = await refusedDeletes({ deleteConflict: true });
    expect(verdict).toMatchObject({ status: 'passed', failed: [] });
    expect(verdict.deletes).toBeGreaterThan(0);
  });

  it('fails it under resource.delete-gone where it is not', async () => {
    expect(await refusedDeletes({})).toMatchObject({ status: 'failed', failed: ['resource.delete-gone'] });
  });
});
