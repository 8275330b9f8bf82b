import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

/**
 * Our runner against our mock on a document whose ids are the client's (issue 53; OpenAPI 3.0.3 §4.7.24.1: the
 * create's body declares the id, readOnly nowhere): an int64 id as OAI's petstore has it, a string key the item path
 * names as Swagger Petstore 3's users, a UUID as Redocly's museum events, whose PATCH body declares no id. The mock
 * honours a client's id and refuses a taken one (409 `id_taken`, or the document's 400); the runner names ids of its
 * own (src/contract/base/fresh-ids.ts), judges a PUT on the rest of the body where the path names the key, and
 * breaks for a refused update only a field the update's own schema refuses.
 */
const KEY = 'client-named-ids-key-53';
const document = fileURLToPath(new URL('./fixtures/documents/client-named-ids.yaml', import.meta.url));

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ apiKeys: [KEY], spec: document });
});
afterAll(() => mock.close());

/** The cases that ran a check, by id, with their status. */
function statuses(report: ContractReport, prefix: string): Record<string, string> {
  return Object.fromEntries(report.cases.filter((c) => c.id.startsWith(prefix)).map((c) => [c.id, c.status]));
}

describe('the runner on client-named ids, against our mock', () => {
  it(
    'holds: every resource oracle on every collection passes, with every operation sent',
    { timeout: limitForRuns(1) },
    async () => {
      const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec: document, seed: 53, runs: 10 });
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report)).toEqual({ exit: 0, failedChecks: [] });
      // Each oracle the fixed ids broke ran and passed (not skipped): the run's own ids collide with nothing.
      expect(statuses(report, 'resource.unique-ids/')).toEqual({
        'resource.unique-ids/animals': 'passed',
        'resource.unique-ids/users': 'passed',
        'resource.unique-ids/events': 'passed',
      });
      expect(statuses(report, 'resource.create-echo/')).toEqual({
        'resource.create-echo/animals': 'passed',
        'resource.create-echo/users': 'passed',
        'resource.create-echo/events': 'passed',
      });
      expect(statuses(report, 'resource.replace-exact/')).toEqual({ 'resource.replace-exact/users': 'passed' });
      expect(statuses(report, 'resource.refused-unchanged/')).toEqual({
        'resource.refused-unchanged/users': 'passed',
        'resource.refused-unchanged/events': 'passed',
      });
      const sent = new Set(report.coverage.filter((row) => row.count > 0).map((row) => row.operation));
      expect(
        ['listAnimals', 'createAnimal', 'getAnimal', 'createUser', 'getUser', 'updateUser', 'deleteUser'].filter(
          (id) => !sent.has(id),
        ),
      ).toEqual([]);
    },
  );
});
