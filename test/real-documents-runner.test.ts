import { describe, expect, it } from 'vitest';
import { locateAll, NO_CORPUS, readManifest } from './support/real-documents/corpus.js';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

/**
 * Our own runner against our own mock on each valid public document of the corpus (issue 52: "the mock must start on
 * every valid one and pass our own runner with every operation sent"; issue 53: exit 0, every operation sent or named
 * as not run with the document's reason). Mock and runner read the document through one loader and one set of
 * validators, so a failure here is a disagreement between the two, or a case that sends nothing it names.
 */
const KEY = 'corpus-runner-key-5253';
const { present, absent } = locateAll(readManifest().filter((entry) => !entry.large && !entry.invalid));

/** Operations no request with the key reached (401/403 answers judge credentials, not the operation), with why. */
function unsent(report: ContractReport, operationIds: string[]): Record<string, string> {
  const sent = new Set(
    report.coverage.filter((row) => row.count > 0 && !['401', '403'].includes(row.status)).map((row) => row.operation),
  );
  return Object.fromEntries(
    operationIds
      .filter((id) => !sent.has(id))
      .map((id) => {
        const named = report.cases.find((c) => c.status === 'skipped' && c.reason?.includes(`no request to ${id} `));
        return [id, named?.reason ?? 'none given'];
      }),
  );
}

describe.skipIf(present.length === 0)('our runner against our mock, on real documents', () => {
  it.each(present.map(({ entry, path, from }) => [entry.file, from, path] as const))(
    '%s (%s copy)',
    { timeout: limitForRuns(2) },
    async (_file, _from, path) => {
      const spec = await loadSpec(path);
      const mock = await createMockServer({ apiKeys: [KEY], spec: path });
      try {
        const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec: path, seed: 5253, runs: 10 });
        const operations = spec.operations.map((operation) => operation.id);
        const reasons = Object.values(unsent(report, operations));
        expect(
          reasons.filter((reason) => reason === 'none given'),
          JSON.stringify(unsent(report, operations)),
        ).toEqual([]);
        expect(verdictOf(report).exit, failuresOf(report).join('\n')).toBe(0);
      } finally {
        await mock.close();
      }
    },
  );
});

describe.skipIf(absent.length === 0)(NO_CORPUS, () => {
  it.skip.each(absent.map((entry) => [entry.file] as const))('%s', () => {});
});
