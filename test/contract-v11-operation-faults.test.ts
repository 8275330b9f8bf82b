import { describe, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import {
  startFastifyV11Petstore,
  FASTIFY_V11_OPERATION_FAULTS,
  type FastifyV11OperationFault,
} from './targets/fastify-v11-petstore.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// Issue 53, "Later versions of our own API": on the v1.1 document, a target written apart from our code (Fastify,
// test/targets/fastify-v11-petstore.ts) with one fault each that the runner once judged on v1's createPet and listPets
// only. Each fails the whole run under the check (and the case) the fault breaks, with the same exit code and the same
// failing check ids at --concurrency 1 and 8; the correct build passes (contract-fastify-v11.test.ts).
const KEY = 'v11-operations-key-53a';
const v11 = await loadSpec(fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url)));
const SEED = 20261127;
const RUNS = 40;

/**
 * Each fault, the check it must fail, the case that fails it, the sentence that verdict rests on, and what else the
 * same answers break (a 200 carrying a pet the document refuses is schema.response's too; an order stored with
 * quantity 1 is read back so by a sequence that sent another quantity): the run fails those checks and no other.
 */
const EXPECTED: Record<FastifyV11OperationFault, { check: CheckId; case: string; rests: string; also?: CheckId[] }> = {
  'patch-accepts-empty': {
    check: 'generated.invalid-rejected',
    case: 'generated.invalid-rejected/updatePet',
    rests: 'PetPatch: minProperties 1',
  },
  'patch-accepts-unknown': {
    check: 'generated.invalid-rejected',
    case: 'generated.invalid-rejected/updatePet',
    rests: 'PetPatch: additionalProperties false',
  },
  'patch-null-name-500': {
    check: 'server.no-5xx',
    case: 'generated.invalid-rejected/updatePet',
    rests: 'PetPatch: name is a string; RFC 9110 §15.6.1',
  },
  'patch-null-removes-name': {
    check: 'generated.invalid-rejected',
    case: 'generated.invalid-rejected/updatePet',
    rests: 'PetPatch: name is a string (RFC 7396 §2: null would remove it)',
    also: ['schema.response'],
  },
  'put-long-tag': {
    check: 'generated.invalid-rejected',
    case: 'generated.invalid-rejected/replacePet',
    rests: 'NewPet: tag maxLength 40',
    also: ['schema.response'],
  },
  'refused-patch-applies': {
    check: 'resource.refused-unchanged',
    case: 'generated.invalid-rejected/updatePet',
    rests: 'RFC 9110 §15.5.1',
  },
  'filter-substring': {
    check: 'resource.filter',
    case: 'resource.filter/pets',
    rests: 'the document: listPets tag filters on the property tag',
  },
  'order-quantity-one': {
    check: 'generated.round-trip',
    case: 'generated.round-trip/placeOrder',
    rests: 'RFC 9110 §15.3.2, §9.3.1',
    also: ['resource.created-readable'],
  },
  'order-location-elsewhere': {
    check: 'resource.created-readable',
    case: 'resource.created-readable/store/orders',
    rests: 'RFC 9110 §10.2.2',
  },
};

async function verdictAt(fault: FastifyV11OperationFault, concurrency: number) {
  const target = await startFastifyV11Petstore({ key: KEY, fault });
  try {
    const report = await runContract({
      baseUrl: target.url,
      apiKey: KEY,
      spec: v11,
      seed: SEED,
      runs: RUNS,
      concurrency,
    });
    const failedCases = report.cases
      .filter((c) => c.failures.some((f) => f.check === EXPECTED[fault].check))
      .map((c) => c.id);
    return { ...verdictOf(report), failedCases, failures: failuresOf(report) };
  } finally {
    await target.close();
  }
}

describe('on v1.1, each fault of an operation beyond createPet and listPets fails under its own check', () => {
  it.concurrent.for(FASTIFY_V11_OPERATION_FAULTS.map((fault) => [fault, EXPECTED[fault]] as const))(
    '%s',
    { timeout: limitForRuns(2) },
    async ([fault, { check, case: caseId, also = [] }], { expect }) => {
      const alone = await verdictAt(fault, 1);
      const side = await verdictAt(fault, 8);
      expect(alone.exit, alone.failures.join('\n')).toBe(1);
      expect(alone.failedChecks, alone.failures.join('\n')).toEqual([check, ...also].sort());
      expect(alone.failedCases, alone.failures.join('\n')).toContain(caseId);
      expect({ exit: side.exit, failedChecks: side.failedChecks }, side.failures.join('\n')).toEqual({
        exit: alone.exit,
        failedChecks: alone.failedChecks,
      });
    },
  );
});
