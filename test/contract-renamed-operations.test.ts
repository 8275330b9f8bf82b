import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { OpenAPIV3 } from 'openapi-types';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';

// Issue 44's "an operationId renamed", for the runner: the v1.1 document with v1's three operations named otherwise.
// Nothing about the pets changes, so the same target is right or wrong in the same ways; the v1 cases (written for
// listPets, getPet and createPet) do not apply, and the resource model's oracles judge what they judged.
const KEY = 'renamed-operations-key-7c2d';
const v11Text = readFileSync(
  fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url)),
  'utf8',
);
const renamed = yaml.load(
  v11Text
    .replace('operationId: listPets', 'operationId: browsePets')
    .replace(/operationId: getPet\b/, 'operationId: showPet')
    .replace('operationId: createPet', 'operationId: addPet'),
) as OpenAPIV3.Document;

/** The pets' resource cases of the renamed document against the target: each case's status and failed checks. */
async function judgePets(fault?: ResourceFault): Promise<Record<string, string>> {
  const spec = await loadSpec(renamed);
  const target = await startResourcePetstore(KEY, fault);
  const session = await createSession({ baseUrl: target.url, apiKey: KEY, spec, runId: 'renamed' });
  try {
    const verdicts: Record<string, string> = {};
    for (const contractCase of contractCases(spec).filter((c) => /^resource\.[\w-]+\/pets$/.test(c.id))) {
      const result = await runCase(session, contractCase);
      const failed = [...new Set(result.failures.map((f) => f.check))].join(',');
      verdicts[contractCase.check] = result.status === 'failed' ? `failed: ${failed}` : result.status;
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
    await target.close();
  }
}

describe('a document whose v1 operations are renamed', () => {
  it('gets no v1 case and no suite error: the resource oracles and generated cases judge the renamed operations', async () => {
    expect(JSON.stringify(renamed)).not.toMatch(/"(listPets|getPet|createPet)"/);
    const ids = contractCases(await loadSpec(renamed)).map((c) => c.id);
    expect(ids.filter((id) => /listPets|getPet\b|createPet/.test(id))).toEqual([]);
    // What the v1 cases judge on v1.1 (echo of name, categoryId and status, the status filter, limit, unique ids,
    // unknown ids of getPet) falls to the oracles, which judge only what the v1 cases do not when they apply.
    const v11Ids = contractCases(await loadSpec(yaml.load(v11Text) as OpenAPIV3.Document)).map((c) => c.id);
    for (const id of ['resource.limit/pets', 'resource.unique-ids/pets']) {
      expect(ids).toContain(id);
      expect(v11Ids).not.toContain(id);
    }
    for (const id of [
      'generated.valid-accepted/browsePets',
      'generated.valid-accepted/addPet',
      'generated.invalid-rejected/addPet',
    ])
      expect(ids).toContain(id);
  });

  it('passes a correct target, and each fault in the pets fails under its own id', async () => {
    const correct = await judgePets();
    expect(Object.keys(correct).sort()).toEqual([
      'resource.create-echo',
      'resource.created-readable',
      'resource.delete-gone',
      'resource.filter',
      'resource.limit',
      'resource.merge-patch',
      'resource.refused-create',
      'resource.refused-unchanged',
      'resource.replace-exact',
      'resource.unique-ids',
      'resource.unknown-id',
    ]);
    expect(
      Object.values(correct).every((status) => status === 'passed'),
      JSON.stringify(correct),
    ).toBe(true);
    const cases: [ResourceFault, string][] = [
      // `status` is judged by resource.filter here (list.status-filter on v1.1): the fault ignores it and `tag`.
      ['ignores-filter', 'resource.filter'],
      ['delete-keeps', 'resource.delete-gone'],
    ];
    for (const [fault, check] of cases) {
      const verdicts = await judgePets(fault);
      const failed = Object.entries(verdicts).filter(([, status]) => status !== 'passed');
      expect(failed, fault).toEqual([[check, `failed: ${check}`]]);
    }
    // A refused create that stores the pet anyway leaves a pet that breaks the schema in the lists: those answers
    // fail schema.response too, where the oracles list the pets.
    expect((await judgePets('refused-create-stores'))['resource.refused-create']).toMatch(
      /^failed: .*resource\.refused-create/,
    );
  });
});
