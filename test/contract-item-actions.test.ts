import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { createMockServer } from '../src/mock/http/server.js';
import { BOXES_FAULTS, startBoxes, type BoxesFault } from './targets/boxes-api.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// An action on an item (POST /boxes/{boxId}/seal: no role of the resource model; src/openapi/item-actions.ts) is
// sent to boxes the run makes, its invalid bodies refused and the box left as it was; where it declares a 404, also
// on a box deleted (resource.delete-gone) and on an id no box has (resource.unknown-id), each refused with a 4xx.
const DOCUMENT = fileURLToPath(new URL('./fixtures/documents/item-actions.yaml', import.meta.url));
const TOKEN = 'boxes-token-53';

/** Each fault of the boxes server, and the checks the run fails (no other). */
const CAUGHT: Record<BoxesFault, CheckId[]> = {
  'seal-after-delete': ['resource.delete-gone'],
  'seal-any-id': ['resource.delete-gone', 'resource.unknown-id'],
};

function runOn(baseUrl: string, concurrency?: number): Promise<ContractReport> {
  return runContract({
    baseUrl,
    apiKey: TOKEN,
    spec: DOCUMENT,
    seed: 53,
    runs: 20,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
}

const passedIds = (report: ContractReport) => report.cases.filter((c) => c.status === 'passed').map((c) => c.id);

describe('actions on an item of a collection', () => {
  it('every fault of the boxes server is in the table', () => {
    expect(Object.keys(CAUGHT).sort()).toEqual([...BOXES_FAULTS].sort());
  });

  it('the correct build passes, each action judged on boxes the run made', { timeout: limitForRuns(1) }, async () => {
    const target = await startBoxes({ token: TOKEN });
    try {
      const report = await runOn(target.url);
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      expect(passedIds(report)).toEqual(
        expect.arrayContaining([
          'generated.valid-accepted/sealBox',
          'generated.invalid-rejected/sealBox',
          'resource.delete-gone/sealBox',
          'resource.unknown-id/sealBox',
          'generated.valid-accepted/labelBox',
          'generated.invalid-rejected/labelBox',
        ]),
      );
      // labelBox declares no 404: what it answers for a box it does not hold, the document leaves open.
      const ids = report.cases.map((c) => c.id);
      expect(ids).not.toContain('resource.delete-gone/labelBox');
      expect(ids).not.toContain('resource.unknown-id/labelBox');
      // Sent: the seal of boxes the run made (200), and bodies refused (400), under the action's own path.
      const seals = report.cases.flatMap((c) => c.requests.filter((r) => r.operation === 'sealBox'));
      expect(seals.map((r) => r.status)).toEqual(expect.arrayContaining([200, 400, 404]));
    } finally {
      await target.close();
    }
  });

  it(
    'the mock passes it too: it answers an action on a box it does not hold with the declared 404',
    { timeout: limitForRuns(1) },
    async () => {
      const mock = await createMockServer({ apiKeys: [TOKEN], spec: DOCUMENT });
      try {
        const report = await runOn(mock.url);
        expect(failuresOf(report)).toEqual([]);
        expect(verdictOf(report).exit).toBe(0);
        expect(passedIds(report)).toEqual(
          expect.arrayContaining(['resource.delete-gone/sealBox', 'resource.unknown-id/sealBox']),
        );
      } finally {
        await mock.close();
      }
    },
  );

  it.for(
    (Object.entries(CAUGHT) as [BoxesFault, CheckId[]][]).flatMap(([fault, checks]) =>
      [1, 8].map((concurrency) => [fault, concurrency, checks] as const),
    ),
  )(
    '%s fails the run under its own checks, and no other, at concurrency %i',
    { timeout: limitForRuns(1) },
    async ([fault, concurrency, checks]) => {
      const target = await startBoxes({ token: TOKEN, fault });
      try {
        const report = await runOn(target.url, concurrency);
        const verdict = verdictOf(report);
        expect(verdict.exit, failuresOf(report).join('\n')).toBe(1);
        expect(verdict.failedChecks, failuresOf(report).join('\n')).toEqual([...checks].sort());
      } finally {
        await target.close();
      }
    },
  );
});
