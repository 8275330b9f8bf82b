import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// Our own mock is one more target of the Train Travel document (test/contract-independent-31.test.ts judges an
// implementation written apart from ours): it passes the whole run. Its bookings are what the create's body declares
// (Booking, no `links`), so resource.self-link finds no links.self to judge and says so, never a failure.
const KEY = 'train-travel-mock-key';
const TRAIN_TRAVEL_DOCUMENT = fileURLToPath(
  new URL('../node_modules/@readme/oas-examples/3.1/yaml/train-travel.yaml', import.meta.url),
);

describe('our mock serving Train Travel', () => {
  it('passes the whole run; resource.self-link has no links.self to judge', { timeout: limitForRuns(1) }, async () => {
    const spec = await loadSpec(TRAIN_TRAVEL_DOCUMENT);
    const mock = await createMockServer({ apiKeys: [KEY], spec: TRAIN_TRAVEL_DOCUMENT });
    try {
      const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, seed: 20261129, runs: 30 });
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      const selfLink = report.cases.find((c) => c.id === 'resource.self-link/bookings');
      expect([selfLink?.status, selfLink?.reason]).toEqual([
        'skipped',
        'neither the answer of create-booking nor that of get-booking carries links.self',
      ]);
    } finally {
      await mock.close();
    }
  });
});
