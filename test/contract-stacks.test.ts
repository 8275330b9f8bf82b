import { describe, expect, it } from 'vitest';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import { startFastifyPetstore, FASTIFY_FAULTS, type FastifyFault } from './targets/fastify-petstore.js';
import { startNodeHttpPetstore, NODE_HTTP_FAULTS, type NodeHttpFault } from './targets/node-http-petstore.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// Targets built the way teams build them, each fault a framework default left in place; judged at the default
// options (every example, --concurrency 8), as a CI job runs it.
const KEY = 'stacks-key-2a7e91';
const spec = await loadSpec();
const SEED = 20261129;
// The long suite (PETSTORE_LONG_TESTS=1) judges each target again with every answer 40 ms late: the same verdicts.
const DELAYS = process.env.PETSTORE_LONG_TESTS === '1' ? [0, 40] : [0];

interface Stack<Fault extends string> {
  /** What the describe block is called: the framework and how the target uses it. */
  title: string;
  /** What the fault-free target is called in its test. */
  correct: string;
  start: (options: {
    key: string;
    fault?: Fault;
    delayMs?: number;
  }) => Promise<{ url: string; close(): Promise<void> }>;
  faults: readonly Fault[];
  /** Each fault and a check id the run must fail with. */
  expected: Record<Fault, CheckId>;
}

/** The correct target passes; every fault fails the run (exit 1) under its check id. */
function describeStack<Fault extends string>(stack: Stack<Fault>): void {
  describe.each(DELAYS)(`${stack.title}, %i ms away`, (delayMs) => {
    it(`${stack.correct}: the contract holds`, { timeout: limitForRuns(1) }, async () => {
      const target = await stack.start({ key: KEY, delayMs });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
        expect(failuresOf(report)).toEqual([]);
        expect(verdictOf(report).exit).toBe(0);
      } finally {
        await target.close();
      }
    });

    it('covers every fault', () => expect(Object.keys(stack.expected).sort()).toEqual([...stack.faults].sort()));

    it.concurrent.for(stack.faults.map((fault) => [fault, stack.expected[fault]] as const))(
      '%s: fails %s',
      { timeout: limitForRuns(1) },
      async ([fault, check], { expect }) => {
        const target = await stack.start({ key: KEY, fault, delayMs });
        try {
          const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
          expect(verdictOf(report).exit, failuresOf(report).join('\n')).toBe(1);
          expect(report.failedChecks, failuresOf(report).slice(0, 5).join('\n')).toContain(check);
        } finally {
          await target.close();
        }
      },
    );
  });
}

describeStack<FastifyFault>({
  title: 'Fastify, route schemas and hooks',
  correct: 'the correct app',
  start: startFastifyPetstore,
  faults: FASTIFY_FAULTS,
  expected: {
    'default-error-bodies': 'error.shape',
    'body-types-coerced': 'input.invalid-rejected',
    'auth-hook-in-sibling-scope': 'auth.required',
    'auth-in-preHandler': 'generated.auth-rejected',
    'response-schema-drops-categoryId': 'schema.response',
    'default-json-parser': 'generated.round-trip',
  },
});

describeStack<NodeHttpFault>({
  title: 'plain node:http, the list streamed pet by pet and gzip through a stream',
  correct: 'the correct server',
  start: startNodeHttpPetstore,
  faults: NODE_HTTP_FAULTS,
  expected: {
    'json-parse-precision': 'generated.round-trip',
    'no-content-type': 'content-type.json',
    'missing-pet-as-text': 'content-type.json',
  },
});
