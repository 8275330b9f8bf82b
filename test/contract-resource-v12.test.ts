import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createSession, type ContractConfig } from '../src/contract/base/session.js';
import { runCase, type ContractCase } from '../src/contract/engine/run-case.js';
import { loadFastCheck } from '../src/contract/generate/fast-check.js';
import { resourceOracleCases } from '../src/contract/stateful/resource-oracles.js';
import { resourceSequenceCases } from '../src/contract/stateful/resource-sequences.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';
import { limitForRuns } from './support/run-budget.js';

/**
 * What the v1.2 test document adds to the stateful checks (issue 45): the item oracles on a nested collection's items
 * (photos replaced and merge-patched through their pet), JSON Patch in the sequences (a pet's PATCH takes only
 * application/json-patch+json; a failed `test` is 409 or 400), and a PUT that may create (201 beside 404). The node:http
 * target of test/targets/resource-petstore.ts (its v1.2 routes in resource-petstore-v12.ts, creating on PUT) and the
 * mock (which answers 404 to a PUT on an unknown id: the other declared answer) pass; each planted fault fails under its
 * own id only, at --concurrency 1 and 8.
 */
const KEY = 'resource-v12-key-5d3e';
const v12 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.2.yaml', import.meta.url));
const spec = await loadSpec(v12);
const SEED = 45_12;
// The long suite (PETSTORE_LONG_TESTS=1) judges the targets again with every answer 40 ms late: the same verdicts.
const DELAYS = process.env.PETSTORE_LONG_TESTS === '1' ? [0, 40] : [0];

interface Verdict {
  id: string;
  status: string;
  failed: string[];
  failures: string;
  checks: string[];
}

/** The cases `pick` chooses, run one after another against `url`: each case's status and failed checks. */
async function judge(url: string, pick: ContractCase[], options: Partial<ContractConfig> = {}): Promise<Verdict[]> {
  await loadFastCheck();
  const session = await createSession({
    baseUrl: url,
    apiKey: KEY,
    spec,
    runId: 'v12',
    seed: SEED,
    runs: 40,
    ...options,
  });
  try {
    const verdicts: Verdict[] = [];
    for (const contractCase of pick) {
      const result = await runCase(session, contractCase);
      verdicts.push({
        id: result.id,
        status: result.status,
        failed: [...new Set(result.failures.map((f) => f.check))],
        failures: result.failures.map((f) => `${f.check}: ${f.expected} / ${f.actual}`).join('\n'),
        checks: Object.keys(result.checks),
      });
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
  }
}

const photoOracles = resourceOracleCases(spec).filter((c) => c.id.endsWith('/pets/photos'));
const sequences = resourceSequenceCases(spec);

/** Against a fresh node:http target with `fault` (creating on PUT, as v1.2 allows). */
async function judgeTarget(fault: ResourceFault | undefined, pick: ContractCase[], concurrency: number, delayMs = 0) {
  const target = await startResourcePetstore(KEY, fault, delayMs, false, true);
  try {
    return await judge(target.url, pick, { concurrency });
  } finally {
    await target.close();
  }
}

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ apiKeys: [KEY], spec: v12 });
});
afterAll(() => mock.close());

describe('the item oracles on a nested collection (v1.2: photos replaced and patched through their pet)', () => {
  it('are made from the model for every item role the nested collection declares, its parent written too', () => {
    expect(photoOracles.map((c) => [c.id, c.operation, c.writeMethods])).toEqual([
      ['resource.created-readable/pets/photos', 'addPetPhoto+getPetPhoto', ['POST', 'DELETE']],
      ['resource.replace-exact/pets/photos', 'addPetPhoto+getPetPhoto+replacePetPhoto', ['POST', 'PUT', 'DELETE']],
      ['resource.merge-patch/pets/photos', 'addPetPhoto+getPetPhoto+updatePetPhoto', ['POST', 'PATCH', 'DELETE']],
      ['resource.delete-gone/pets/photos', 'addPetPhoto+getPetPhoto+deletePetPhoto', ['POST', 'DELETE']],
      ['resource.refused-unchanged/pets/photos', 'addPetPhoto+getPetPhoto', ['POST', 'PUT', 'PATCH', 'DELETE']],
      ['resource.unknown-id/pets/photos', 'getPetPhoto', ['POST', 'PATCH', 'DELETE', 'PUT']],
    ]);
    // A pet's PATCH takes only JSON Patch: no merge-patch oracle for pets (the sequences send JSON Patch).
    expect(resourceOracleCases(spec).map((c) => c.id)).not.toContain('resource.merge-patch/pets');
  });

  it.for([1, 8])('pass a correct target of another stack (node:http) at --concurrency %i', async (concurrency) => {
    const verdicts = await judgeTarget(undefined, photoOracles, concurrency);
    expect(verdicts.map((v) => [v.id, v.status, v.failures])).toEqual(photoOracles.map((c) => [c.id, 'passed', '']));
  });

  it('pass the mock serving the same document', async () => {
    const verdicts = await judge(mock.url, photoOracles);
    expect(verdicts.map((v) => [v.id, v.status, v.failures])).toEqual(photoOracles.map((c) => [c.id, 'passed', '']));
  });

  it.for(
    (
      [
        ['nested-put-merges', 'resource.replace-exact/pets/photos'],
        ['nested-delete-keeps', 'resource.delete-gone/pets/photos'],
      ] as const
    ).flatMap(([fault, id]) => [1, 8].map((concurrency) => [fault, id, concurrency] as const)),
  )('catch %s under %s alone, at --concurrency %i', async ([fault, id, concurrency]) => {
    const verdicts = await judgeTarget(fault, photoOracles, concurrency);
    const check = id.split('/')[0]!;
    expect(verdicts.filter((v) => v.status !== 'passed').map((v) => [v.id, v.failed])).toEqual([[id, [check]]]);
  });
});

describe('sequences with JSON Patch and a PUT that may create (v1.2)', () => {
  it('send them only where the document declares them', () => {
    expect(sequences.map((c) => [c.id, c.operation])).toEqual([
      ['sequence/pets', 'createPet+listPets+getPet+replacePet+updatePet+deletePet'],
      ['sequence/store/orders', 'placeOrder+listOrders+getOrder+deleteOrder'],
      ['sequence/pets/photos', 'addPetPhoto+listPetPhotos+getPetPhoto+replacePetPhoto+updatePetPhoto+deletePetPhoto'],
    ]);
  });

  it(
    'pass the mock, which answers 404 to a PUT on an unknown id (the other answer declared)',
    {
      timeout: limitForRuns(1),
    },
    async () => {
      const verdicts = await judge(mock.url, sequences);
      expect(verdicts.map((v) => [v.id, v.status, v.failures])).toEqual(sequences.map((c) => [c.id, 'passed', '']));
      expect(verdicts[0]!.checks).toEqual(expect.arrayContaining(['resource.json-patch', 'resource.put-create']));
    },
  );

  describe.each(DELAYS)('%i ms away', (delayMs) => {
    it.for([1, 8])(
      'pass a correct target that creates on PUT (201), at --concurrency %i, JSON Patch and PUT-create judged',
      { timeout: limitForRuns(1) },
      async (concurrency) => {
        const verdicts = await judgeTarget(undefined, sequences, concurrency, delayMs);
        expect(verdicts.map((v) => v.failures)).toEqual(sequences.map(() => ''));
        expect(verdicts.map((v) => v.status)).toEqual(sequences.map(() => 'passed'));
        expect(verdicts[0]!.checks).toEqual(
          expect.arrayContaining(['resource.json-patch', 'resource.put-create', 'resource.refused-unchanged']),
        );
      },
    );

    it.concurrent.for(
      (
        [
          ['json-patch-remove-ignored', 'resource.json-patch'],
          ['json-patch-test-applies', 'resource.refused-unchanged'],
          ['put-create-stores-nothing', 'resource.put-create'],
        ] as const
      ).flatMap(([fault, check]) => [1, 8].map((concurrency) => [fault, check, concurrency] as const)),
    )(
      'catch %s under %s alone, at --concurrency %i',
      { timeout: limitForRuns(1) },
      async ([fault, check, concurrency], { expect }) => {
        const [pets] = await judgeTarget(fault, sequences.slice(0, 1), concurrency, delayMs);
        expect(pets!.status).toBe('failed');
        expect(pets!.failed, pets!.failures).toEqual([check]);
      },
    );
  });

  it('never PUT to a fresh id an item already holds: it is read first and left alone', async () => {
    // A front that says every id from 2^52 up (where the sequences' fresh ids are) is some other client's pet, and
    // records any PUT to one; the rest goes to the node:http target.
    const target = await startResourcePetstore(KEY, undefined, 0, false, true);
    const puts: string[] = [];
    const front = createServer((req, res) => {
      const id = /^\/v1\/pets\/(\d{16,})$/.exec(req.url ?? '')?.[1];
      if (id !== undefined && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(`{"id":${id},"name":"someone else's","categoryId":1}`);
      }
      if (id !== undefined && req.method === 'PUT') puts.push(id);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => ['authorization', 'content-type'].includes(name)),
        ) as Record<string, string>;
        void fetch(`${target.url.replace(/\/v1$/, '')}${req.url}`, { method: req.method, headers, body }).then(
          async (answer) => {
            res.writeHead(answer.status, Object.fromEntries(answer.headers));
            res.end(Buffer.from(await answer.arrayBuffer()));
          },
        );
      });
    });
    front.listen(0, '127.0.0.1');
    await once(front, 'listening');
    try {
      const { port } = front.address() as { port: number };
      const [pets] = await judge(`http://127.0.0.1:${port}/v1`, sequences.slice(0, 1));
      expect(pets!.failures).toBe('');
      expect(puts).toEqual([]);
    } finally {
      front.close();
      await target.close();
    }
  });
});
