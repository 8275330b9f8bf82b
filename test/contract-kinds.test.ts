import { describe, expect, it } from 'vitest';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { startIndependentPetstore } from './targets/independent-petstore.js';
import { failuresOf } from './support/verdict.js';

// Kinds a correct-otherwise target can get wrong, and what the interface leaves open, at the default options.
const KEY = 'kinds-key-8c31f0';
const spec = await loadSpec();
const SEED = 20261128;
const RUNS = 40;

describe('what the interface leaves open passes', () => {
  it(
    'a target refusing a petId over 100 characters with 414 and an Error, before authentication (RFC 9110 §15.5.15)',
    { timeout: 120_000 },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, maxPetIdLength: 100 });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        expect(failuresOf(report)).toEqual([]);
        expect(report.summary.notRun).toBe(0);
        // The run did send such ids without a key, and got the 414.
        const refused = report.cases
          .flatMap((c) => c.requests)
          .filter((r) => r.status === 414 && !/Authorization/.test(r.request));
        expect(refused.length).toBeGreaterThan(0);
      } finally {
        await target.close();
      }
    },
  );
});

describe('the kinds a run catches', () => {
  it.for([
    ['key-in-query-accepted', /the key in the query parameter api_key/],
    ['key-in-cookie-accepted', /the key in the cookie api_key/],
  ] as const)(
    '%s: generated.auth-rejected, with the key rebuilt from the environment in the curl, never printed',
    { timeout: 120_000 },
    async ([fault, label]) => {
      const target = await startIndependentPetstore({ key: KEY, fault });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        const failure = report.cases
          .flatMap((c) => c.failures)
          .find((f) => f.check === 'generated.auth-rejected' && label.test(f.expected));
        expect(failure, failuresOf(report).join('\n')).toBeDefined();
        expect(failure!.request).toContain(
          fault === 'key-in-query-accepted' ? 'api_key=${PETSTORE_API_KEY}' : 'Cookie: api_key=${PETSTORE_API_KEY}',
        );
        expect(JSON.stringify(report)).not.toContain(KEY);
      } finally {
        await target.close();
      }
    },
  );

  it.for([
    ['errors-as-problem-json', 'application/problem+json'],
    ['long-id-414-as-text', 'text/plain'],
  ] as const)(
    '%s: content-type.json, naming application/json and what came',
    { timeout: 120_000 },
    async ([fault, type]) => {
      const target = await startIndependentPetstore({ key: KEY, fault });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        const failure = report.cases.flatMap((c) => c.failures).find((f) => f.check === 'content-type.json');
        expect(failure, failuresOf(report).join('\n')).toBeDefined();
        expect(failure!.actual).toBe(`Content-Type must be application/json (got ${type})`);
      } finally {
        await target.close();
      }
    },
  );
});
