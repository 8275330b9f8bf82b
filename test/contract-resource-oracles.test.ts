import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { resourceOracleCases } from '../src/contract/stateful/resource-oracles.js';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';
import { specAt } from './support/oracle-words.js';
import { ITEM_ORACLE_CHECKS } from './support/oracle-checks.js';

const KEY = 'resource-oracle-key-3b9f';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

/**
 * The pets oracles of the v1.1 document against a target (only the one of `check` when given: a mutation run then
 * runs only what a mutant could change): each case's status and the checks that failed.
 */
async function judge(fault?: ResourceFault, check?: string): Promise<Record<string, string>> {
  const target = await startResourcePetstore(KEY, fault);
  const session = await createSession({
    baseUrl: target.url,
    apiKey: KEY,
    spec: await specAt(v11),
    runId: 'oracles',
  });
  try {
    const verdicts: Record<string, string> = {};
    const oracles = resourceOracleCases(session.spec).filter((c) => c.id.endsWith('/pets'));
    for (const oracle of oracles.filter((c) => check === undefined || c.check === check)) {
      const result = await runCase(session, oracle);
      const failed = [...new Set(result.failures.map((f) => f.check))].join(',');
      verdicts[oracle.check] = result.status === 'failed' ? `failed: ${failed}` : result.status;
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
    await target.close();
  }
}

describe('the resource oracles on the v1.1 document', () => {
  // One oracle a test: a mutation run then runs, for a mutant, only the test of its oracle.
  it.each(ITEM_ORACLE_CHECKS)('pass a correct target of another stack (plain node:http): %s', async (check) => {
    expect(await judge(undefined, check)).toEqual({ [check]: 'passed' });
  });

  it.each([
    ['drops-tag', 'resource.created-readable'],
    ['wrong-location', 'resource.created-readable'],
    ['ignores-filter', 'resource.filter'],
    ['put-merges', 'resource.replace-exact'],
    ['patch-ignores-null', 'resource.merge-patch'],
    ['delete-keeps', 'resource.delete-gone'],
    ['delete-keeps-listed', 'resource.delete-gone'],
    ['refused-put-applies', 'resource.refused-unchanged'],
    ['unknown-delete-succeeds', 'resource.unknown-id'],
  ] as const)('catch %s under %s', async (fault, check) => {
    const verdicts = await judge(fault, check);
    expect(verdicts[check]).toBe(`failed: ${check}`);
  });

  it('send nothing under --read-only, each skipped naming the writes it would send', async () => {
    const target = await startResourcePetstore(KEY);
    const session = await createSession({
      baseUrl: target.url,
      apiKey: KEY,
      spec: await loadSpec(v11),
      readOnly: true,
    });
    try {
      const results = [];
      for (const oracle of resourceOracleCases(session.spec)) results.push(await runCase(session, oracle));
      expect(results.map((r) => r.status)).toEqual(results.map(() => 'skipped'));
      expect(results.flatMap((r) => r.requests)).toEqual([]);
      expect(results.find((r) => r.id === 'resource.replace-exact/pets')!.reason).toBe(
        'read-only: this case sends a POST, PUT, DELETE',
      );
    } finally {
      await session.dispatcher.close();
      await target.close();
    }
  });

  it('are listed by the model for every collection with the roles, and none for a read-only document', async () => {
    const ids = resourceOracleCases(await specAt(v11)).map((c) => c.id);
    expect(ids.filter((id) => id.endsWith('/pets'))).toEqual(ITEM_ORACLE_CHECKS.map((check) => `${check}/pets`));
    // Photos under a pet (v1.1 declares their read and delete): the oracles of those roles, through a parent pet.
    expect(ids.filter((id) => id.includes('photos'))).toEqual([
      'resource.created-readable/pets/photos',
      'resource.delete-gone/pets/photos',
      'resource.unknown-id/pets/photos',
    ]);
    // In the suite, the fixed v1 cases judge createPet's name, categoryId and status and listPets' status under
    // their own ids: on v1 no oracle is added (its verdicts stay as they were); on v1.1 they judge tag and the rest.
    const suite = async (file?: string) =>
      contractCases(await loadSpec(file))
        .filter((c) => c.check.startsWith('resource.'))
        .map((c) => c.id);
    const itemOracles = (ids: string[]) =>
      ids.filter((id) => ITEM_ORACLE_CHECKS.some((check) => id.startsWith(`${check}/`)));
    expect(await suite()).toEqual([]);
    expect(itemOracles(await suite(v11)).filter((id) => id.endsWith('/pets'))).toEqual(
      ITEM_ORACLE_CHECKS.map((check) => `${check}/pets`),
    );
  });
});
