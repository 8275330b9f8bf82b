import { describe, it } from 'vitest';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { DEFAULT_CONCURRENCY } from '../src/contract/base/session.js';
import { startIndependentPetstore, FAULTS, type Fault } from './targets/independent-petstore.js';
import { expected } from './targets/expected-checks.js';
import { cutAtEveryPosition, startFramingFront } from './support/framing-front.js';
import { verdictOf } from './support/verdict.js';

// Verdicts equal at every concurrency: the same --seed at --concurrency 1 and at the default gives the same exit
// code and the same failing check ids. Each faulty target answers through a front that cuts every body in two
// at a moving position, so that answers in flight arrive in pieces, interleaved. (The battery's correct targets
// are held to "the contract holds" at 1, 8 and 64 in contract-wire-battery.test.ts: equal verdicts by then.)
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
    return verdictOf(report);
  } finally {
    await front.close();
    await upstream.close();
  }
}

/**
 * Faults that depend on load: creates that overlap get the same id. More creates overlap at the default concurrency
 * (examples side by side), so more checks see the fault there; the ones --concurrency 1 sees must still be among them.
 */
const LOAD_DEPENDENT = new Set<Fault>(['parallel-creates-same-id']);

describe(`each faulty target: the same verdict at --concurrency 1 and at the default (${DEFAULT_CONCURRENCY})`, () => {
  it.concurrent.for(FAULTS.map((fault) => [fault, expected[fault]] as [Fault, string]))(
    '%s',
    { timeout: 300_000 },
    async ([fault, check], { expect }) => {
      const alone = await verdictAt(fault, 1);
      const side = await verdictAt(fault, undefined);
      expect(alone.exit).not.toBe(0);
      expect(alone.failedChecks).toContain(check);
      if (!LOAD_DEPENDENT.has(fault)) return expect(side, JSON.stringify({ alone, side })).toEqual(alone);
      expect(side.exit).toBe(alone.exit);
      expect(side.failedChecks).toEqual(expect.arrayContaining(alone.failedChecks));
    },
  );
});
