import { describe, expect, it } from 'vitest';
import { runContract } from '../src/contract/engine/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { CheckId } from '../src/contract/judge/check-ids.js';
import { startFastifyPetstore, FASTIFY_FAULTS, type FastifyFault } from './targets/fastify-petstore.js';
import { startNodeHttpPetstore, NODE_HTTP_FAULTS, type NodeHttpFault } from './targets/node-http-petstore.js';
import { failuresOf, verdictOf } from './support/verdict.js';

// Targets built the way teams build them, each fault a framework default left in place; judged at the default
// options (every example, --concurrency 8), as a CI job runs it.
const KEY = 'stacks-key-2a7e91';
const spec = await loadSpec();
const SEED = 20261129;
// The long suite (PETSTORE_LONG_TESTS=1) judges each target again with every answer 40 ms late: the same verdicts.
const DELAYS = process.env.PETSTORE_LONG_TESTS === '1' ? [0, 40] : [0];

/** Each Fastify fault and a check id the run must fail with. */
const FASTIFY_EXPECTED: Record<FastifyFault, CheckId> = {
  'default-error-bodies': 'error.shape',
  'body-types-coerced': 'input.invalid-rejected',
  'auth-hook-in-sibling-scope': 'auth.required',
  'auth-in-preHandler': 'generated.auth-rejected',
  'response-schema-drops-categoryId': 'schema.response',
  'default-json-parser': 'generated.round-trip',
};

describe.each(DELAYS)('Fastify, route schemas and hooks, %i ms away', (delayMs) => {
  it('the correct app: the contract holds', { timeout: 300_000 }, async () => {
    const target = await startFastifyPetstore({ key: KEY, delayMs });
    try {
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('covers every fault', () => expect(Object.keys(FASTIFY_EXPECTED).sort()).toEqual([...FASTIFY_FAULTS].sort()));

  it.concurrent.for(FASTIFY_FAULTS.map((fault) => [fault, FASTIFY_EXPECTED[fault]] as const))(
    '%s: fails %s',
    { timeout: 300_000 },
    async ([fault, check], { expect }) => {
      const target = await startFastifyPetstore({ key: KEY, fault, delayMs });
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

/** Each node:http fault and a check id the run must fail with. */
const NODE_HTTP_EXPECTED: Record<NodeHttpFault, CheckId> = {
  'json-parse-precision': 'generated.round-trip',
  'no-content-type': 'content-type.json',
  'missing-pet-as-text': 'content-type.json',
};

describe.each(DELAYS)(
  'plain node:http, the list streamed pet by pet and gzip through a stream, %i ms away',
  (delayMs) => {
    it('the correct server: the contract holds', { timeout: 300_000 }, async () => {
      const target = await startNodeHttpPetstore({ key: KEY, delayMs });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
        expect(failuresOf(report)).toEqual([]);
        expect(verdictOf(report).exit).toBe(0);
      } finally {
        await target.close();
      }
    });

    it('covers every fault', () =>
      expect(Object.keys(NODE_HTTP_EXPECTED).sort()).toEqual([...NODE_HTTP_FAULTS].sort()));

    it.concurrent.for(NODE_HTTP_FAULTS.map((fault) => [fault, NODE_HTTP_EXPECTED[fault]] as const))(
      '%s: fails %s',
      { timeout: 300_000 },
      async ([fault, check], { expect }) => {
        const target = await startNodeHttpPetstore({ key: KEY, fault, delayMs });
        try {
          const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
          expect(verdictOf(report).exit, failuresOf(report).join('\n')).toBe(1);
          expect(report.failedChecks, failuresOf(report).slice(0, 5).join('\n')).toContain(check);
        } finally {
          await target.close();
        }
      },
    );
  },
);
