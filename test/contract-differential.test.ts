import { describe, expect, it } from 'vitest';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { DEFAULT_CONCURRENCY } from '../src/contract/base/session.js';
import { startIndependentPetstore, FAULTS, type Fault } from './targets/independent-petstore.js';
import { expected } from './targets/expected-checks.js';
import { cutAtEveryPosition, startFramingFront } from './support/framing-front.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import { fileURLToPath } from 'node:url';
import { startFastifyV11Petstore, FASTIFY_V11_FAULTS, type FastifyV11Fault } from './targets/fastify-v11-petstore.js';

// Every fault of the independent target fails the run under its check id, and the verdict is the same at every
// concurrency: the same --seed at --concurrency 1 and at the default gives the same exit code and the same failing
// check ids. Each faulty target answers through a front that cuts every body in two
// at a moving position, so that answers in flight arrive in pieces, interleaved. (The battery's correct targets
// are held to "the contract holds" at 1 and 64 in contract-wire-battery.test.ts: equal verdicts by then.)
const KEY = 'differential-key-4e0a7c';
const spec = await loadSpec();
const SEED = 20261127;
const RUNS = 40;
// The same short timeout on both sides: a target that never answers costs seconds, not tens of seconds.
const TIMEOUT = 3_000;

/** One run against a fresh target with `fault` (each run starts from the same store), answering through the front. */
async function verdictAt(fault: Fault, concurrency: number | undefined) {
  const upstream = await startIndependentPetstore({ key: KEY, fault });
  const front = await startFramingFront(upstream.url, {
    name: 'chunked, cut at every position',
    length: 'chunked',
    pieces: cutAtEveryPosition,
  });
  try {
    const report = await runContract({
      baseUrl: front.url,
      apiKey: KEY,
      spec,
      seed: SEED,
      runs: RUNS,
      timeout: TIMEOUT,
      ...(concurrency ? { concurrency } : {}),
    });
    return { ...verdictOf(report), failures: failuresOf(report), unsafe: unsafeReproductions(report) };
  } finally {
    await front.close();
    await upstream.close();
  }
}

/**
 * What is wrong with a run's reproductions: each is a shell script that names the seed replaying the run and ends in
 * its curl, and the key appears nowhere in the report (the script reads it from PETSTORE_API_KEY).
 */
function unsafeReproductions(report: ContractReport): string[] {
  const wrong: string[] = [];
  if (JSON.stringify(report).includes(KEY)) wrong.push('the key appears in the report');
  for (const failure of report.cases.flatMap((c) => c.failures)) {
    const script = failure.reproduction;
    if (!script) continue;
    if (
      script[0] !== '#!/bin/sh' ||
      !script[1]?.includes(`--seed ${SEED} replays the run`) ||
      !/^curl /.test(script.at(-1)!)
    )
      wrong.push(`${failure.check}: ${script.slice(0, 2).join(' / ')} … ${script.at(-1)}`);
  }
  return wrong;
}

/**
 * Faults that depend on load: creates that overlap get the same id. More creates overlap at the default concurrency
 * (examples side by side), so more checks see the fault there; the ones --concurrency 1 sees must still be among them.
 */
const LOAD_DEPENDENT = new Set<Fault>(['parallel-creates-same-id']);

it('covers every fault the independent target has', () => {
  expect(Object.keys(expected).sort()).toEqual([...FAULTS].sort());
  expect(FAULTS.length).toBeGreaterThanOrEqual(55);
});

describe(`each faulty target: fails under its check id, the same verdict at --concurrency 1 and at the default (${DEFAULT_CONCURRENCY})`, () => {
  it.concurrent.for(FAULTS.map((fault) => [fault, expected[fault]] as [Fault, string]))(
    '%s',
    { timeout: limitForRuns(2) },
    async ([fault, check], { expect }) => {
      const alone = await verdictAt(fault, 1);
      const side = await verdictAt(fault, undefined);
      expect(alone.exit).not.toBe(0);
      expect(alone.failedChecks, alone.failures.join('\n')).toContain(check);
      expect([...alone.unsafe, ...side.unsafe]).toEqual([]);
      const [once, again] = [alone, side].map(({ exit, failedChecks }) => ({ exit, failedChecks }));
      if (!LOAD_DEPENDENT.has(fault)) return expect(again, JSON.stringify({ once, again })).toEqual(once);
      expect(side.exit).toBe(alone.exit);
      expect(side.failedChecks).toEqual(expect.arrayContaining(alone.failedChecks));
    },
  );
});

// The same rule over the roles a later document adds (issue 45): on v1.1, a Fastify target of its own stack with one
// stateful fault each (PUT, merge patch, DELETE, a stored field, a filter, a refused update) fails the whole run
// under that fault's check id, with the same exit code and failing check ids at --concurrency 1 and the default.
const v11 = await loadSpec(fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url)));
const V11_EXPECTED: Record<FastifyV11Fault, CheckId> = {
  'delete-keeps': 'resource.delete-gone',
  'put-merges': 'resource.replace-exact',
  'patch-ignores-null': 'resource.merge-patch',
  'drops-tag': 'resource.created-readable',
  'ignores-filter': 'resource.filter',
  'refused-put-applies': 'resource.refused-unchanged',
  'writes-without-key': 'auth.required',
};

async function v11VerdictAt(fault: FastifyV11Fault, concurrency: number | undefined) {
  const target = await startFastifyV11Petstore({ key: KEY, fault });
  try {
    const report = await runContract({
      baseUrl: target.url,
      apiKey: KEY,
      spec: v11,
      seed: SEED,
      runs: RUNS,
      timeout: TIMEOUT,
      ...(concurrency ? { concurrency } : {}),
    });
    return { ...verdictOf(report), failures: failuresOf(report) };
  } finally {
    await target.close();
  }
}

describe('on v1.1, each stateful fault of every role: its check id, the same verdict at --concurrency 1 and at the default', () => {
  it('covers every fault the Fastify v1.1 target has', () =>
    expect(Object.keys(V11_EXPECTED).sort()).toEqual([...FASTIFY_V11_FAULTS].sort()));

  it.concurrent.for(FASTIFY_V11_FAULTS.map((fault) => [fault, V11_EXPECTED[fault]] as const))(
    '%s',
    { timeout: limitForRuns(2) },
    async ([fault, check], { expect }) => {
      const alone = await v11VerdictAt(fault, 1);
      const side = await v11VerdictAt(fault, undefined);
      expect(alone.exit).toBe(1);
      expect(alone.failedChecks, alone.failures.join('\n')).toContain(check);
      expect({ exit: side.exit, failedChecks: side.failedChecks }).toEqual({
        exit: alone.exit,
        failedChecks: alone.failedChecks,
      });
    },
  );
});
