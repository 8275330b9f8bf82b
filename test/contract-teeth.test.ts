import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { docs } from './support/docs.js';
import { expected as expectedChecks } from './targets/expected-checks.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import { startIndependentPetstore, type Fault } from './targets/independent-petstore.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'teeth-key-5b1e9d';
// Parsed once for every run below, as a long-lived process would.
const spec = await loadSpec();

function failuresOf(report: ContractReport): string[] {
  return report.cases.flatMap((c) =>
    c.failures.map((f) => `${c.id}: [${f.check}] expected ${f.expected}; actual ${f.actual}`),
  );
}

describe('the contract suite against our own mock', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY] });
  });
  afterAll(() => server.close());

  it(
    'passes, exercises every documented operation × status, and sends no secret anywhere',
    { timeout: limitForRuns(1) },
    async () => {
      const report = await runContract({ baseUrl: server.url, apiKey: KEY, requireCoverage: true, spec });
      expect(failuresOf(report)).toEqual([]);
      expect(report.summary.failed).toBe(0);
      expect(report.summary.skipped).toBe(0);
      expect(report.summary.passed).toBe(report.cases.length);
      expect(
        report.coverage.filter((row) => row.documented).map((row) => `${row.operation} ${row.status} ${row.state}`),
      ).toEqual([
        'listPets 200 exercised',
        'listPets 401 exercised',
        'createPet 201 exercised',
        'createPet 400 exercised',
        'createPet 401 exercised',
        'getPet 200 exercised',
        'getPet 401 exercised',
        'getPet 404 exercised',
      ]);
      expect(JSON.stringify(report)).not.toContain(KEY);
      expect(report.cases.flatMap((c) => c.requests.map((r) => r.request)).join('\n')).toContain(
        '"Authorization: Bearer ${PETSTORE_API_KEY}"',
      );
    },
  );

  it('runs read-only without a single write, and lists what it skipped', { timeout: limitForRuns(1) }, async () => {
    const methods: string[] = [];
    const observe = (exchange: { request: { method: string } }) => methods.push(exchange.request.method);
    server.mock.observers.add(observe);
    try {
      const report = await runContract({
        baseUrl: server.url,
        apiKey: KEY,
        readOnly: true,
        requireCoverage: true,
        spec,
      });
      expect(failuresOf(report)).toEqual([]);
      expect(new Set(methods)).toEqual(new Set(['GET']));
      const skipped = report.cases.filter((c) => c.status === 'skipped');
      // 23 fixed cases and 3 of the generated phase (round trip, invalid bodies, credentials on createPet).
      expect(skipped.length).toBe(26);
      expect(skipped.every((c) => c.reason === 'read-only: this case sends a POST')).toBe(true);
      expect(
        report.coverage.filter((row) => row.state === 'skipped').map((row) => `${row.operation} ${row.status}`),
      ).toEqual(['createPet 201', 'createPet 400', 'createPet 401']);
    } finally {
      server.mock.observers.delete(observe);
    }
  });
});

describe('--require-coverage', () => {
  it(
    'fails the run when a documented status was never seen, and only notes it otherwise',
    { timeout: limitForRuns(2) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, fault: 'unknown-id-gets-400' });
      try {
        // The fixed cases only: the generated phase would also catch this fault, under ids of its own.
        const required = await runContract({
          baseUrl: target.url,
          apiKey: KEY,
          spec,
          requireCoverage: true,
          timeBudget: 0,
        });
        expect(required.failedChecks.sort()).toEqual(['coverage.operation-status', 'get.not-found']);
        const coverage = required.cases.find((c) => c.id === 'coverage.operation-status')!;
        expect(coverage.failures[0]).toMatchObject({
          expected: 'every documented operation × status exercised (--require-coverage)',
          actual: 'never exercised: getPet 404',
        });
        expect(required.coverage.find((row) => row.operation === 'getPet' && row.status === '404')).toMatchObject({
          count: 0,
          state: 'missing',
        });
        const noted = await runContract({ baseUrl: target.url, apiKey: KEY, spec, timeBudget: 0 });
        expect(noted.failedChecks).toEqual(['get.not-found']);
        expect(noted.notes.map((n) => n.message)).toContain(
          'never exercised: getPet 404 (use --require-coverage to fail the run on this)',
        );
      } finally {
        await target.close();
      }
    },
  );
});

describe('the contract suite against stores of other sizes', () => {
  it(
    'fills an empty store with run-tagged pets until the default limit shows, and passes',
    { timeout: limitForRuns(1) },
    async () => {
      const server = await createMockServer({ apiKeys: [KEY], fixtures: [] });
      try {
        // The fixed cases only: the generated phase creates pets of its own.
        const report = await runContract({
          baseUrl: server.url,
          apiKey: KEY,
          runId: 'empty-store',
          spec,
          timeBudget: 0,
        });
        expect(failuresOf(report)).toEqual([]);
        const names = (await server.mock.store.list({ limit: 100 })).map((pet) => pet.name as string);
        // 4 pets from the create cases, then fillers up to 21: one more than the default page.
        expect(names.length).toBe(21);
        expect(names.every((name) => name.startsWith('contract-empty-store-'))).toBe(true);
        expect(names.filter((name) => name.includes('-filler-'))).toHaveLength(17);
      } finally {
        await server.close();
      }
    },
  );

  it(
    'says "could not verify" instead of failing when a created pet lies beyond the first page',
    { timeout: limitForRuns(1) },
    async () => {
      const fixtures = Array.from({ length: 150 }, (_, i) => ({
        id: i + 1,
        name: `Seed ${i + 1}`,
        categoryId: 1,
        status: 'sold' as const,
      }));
      const server = await createMockServer({ apiKeys: [KEY], fixtures });
      try {
        const report = await runContract({ baseUrl: server.url, apiKey: KEY, spec });
        expect(failuresOf(report)).toEqual([]);
        const notes = report.notes.filter((n) => n.check === 'create.persisted').map((n) => n.message);
        expect(notes).toHaveLength(2);
        expect(notes[0]).toMatch(
          /^could not verify that pet 153 is listed: the first page of 100 pets does not show it/,
        );
      } finally {
        await server.close();
      }
    },
  );

  it("stops at the request budget (a suite error, not the target's), and throws a TargetError for a target that is down", async () => {
    const target = await startIndependentPetstore({ key: KEY, seed: 30 });
    const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, timeout: 2_000, maxRequests: 5 });
    await target.close();
    // The budget ends the run early: each case past it is a suite error, not a failure of the target.
    expect(report.failedChecks).toEqual(['suite.error']);
    expect(report.requests).toBe(5);
    await expect(runContract({ baseUrl: target.url, apiKey: KEY, spec })).rejects.toThrow(
      /^cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: /,
    );
  });
});

describe('the contract suite against an independent implementation', () => {
  it(
    'passes where it differs from the mock as the interface allows, and says what it chose',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, readsUntypedJson: true });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, requireCoverage: true, spec });
        expect(failuresOf(report)).toEqual([]);
        expect(report.summary.notRun).toBe(0);
        const notes = report.notes.map((n) => n.message);
        // RFC 9110 §8.3: a recipient may read a body sent without a Content-Type; the pets it made are no failure.
        expect(notes).toContain(
          'createPet: the target reads a JSON body sent without a Content-Type as JSON and stores it (allowed: RFC 9110 §8.3)',
        );
        expect(notes).toContain('listPets limit=101: accepted (clamped or ignored) with 200 and 100 pets');
        expect(notes).toContain('listPets status=adopted: rejected with 422 INVALID_STATUS');
        expect(notes).toContain('getPet abc: rejected with 400 BAD_ID');
        expect(notes).toContain('a pet created without status was given status "available"');
        expect(
          notes.some((n) =>
            n.startsWith('getPet (deprecated, removal 2030-12-05) answered 200; no Deprecation header'),
          ),
        ).toBe(true);
      } finally {
        await target.close();
      }
    },
  );
});

describe('what the interface leaves open passes', () => {
  it(
    'a target that reads JSON under any media type label, or none, passes with a note per label',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, readsUntypedJson: true, readsLabelledJson: true });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, runs: 10 });
        expect(failuresOf(report)).toEqual([]);
        const notes = report.notes.map((n) => n.message);
        expect(notes).toContain(
          "createPet: the target reads a JSON body sent with Content-Type text/plain as JSON and stores it (allowed: 415 is a server's option, RFC 9110 §15.5.16)",
        );
        expect(notes).toContain(
          'createPet: the target reads a JSON body sent without a Content-Type as JSON and stores it (allowed: RFC 9110 §8.3)',
        );
      } finally {
        await target.close();
      }
    },
  );
});

/** Each fault, and the check ids that must catch it: no more, no fewer. */
const faults: [Fault, CheckId[]][] = [
  ['auth-ignored-on-getPet', ['auth.required']],
  ['wrong-scheme-accepted', ['auth.required']],
  ['empty-token-accepted', ['auth.required']],
  ['getPet-id-as-string', ['schema.response']],
  ['createPet-drops-categoryId', ['schema.response']],
  ['createPet-answers-200', ['status.documented']],
  ['limit-ignored', ['list.limit']],
  ['limit-above-100-honoured', ['input.invalid-rejected']],
  ['status-filter-ignored', ['list.status-filter']],
  ['write-not-persisted', ['create.persisted']],
  ['500-on-non-numeric-limit', ['server.no-5xx']],
  ['not-found-body-wrong-shape', ['error.shape']],
  ['list-as-text-plain', ['content-type.json']],
  ['getPet-returns-another-pet', ['get.returns-requested']],
  ['unknown-id-gets-400', ['get.not-found']],
  ['categoryId-string-coerced', ['input.invalid-rejected']],
  ['unknown-id-never-answers', ['server.responds']],
];

describe('docs count the faults as the tests hold them', () => {
  it("17 for the fixed cases, the rest for the generated phase, all of the independent target's", () => {
    const text = docs.replace(/\s+/g, ' ');
    const all = Object.keys(expectedChecks).length;
    expect(text).toContain(`against ${faults.length} variants of it with one fault each`);
    expect(text).toContain(
      `against ${all - faults.length} more faults of the independent implementation (${all} in all)`,
    );
  });
});

describe('the contract suite has teeth: one fault each, caught under the right check id', () => {
  it.each(faults)('catches %s with %j', async (fault, want) => {
    const target = await startIndependentPetstore({ key: KEY, fault });
    try {
      // The fixed cases alone, which were written for these faults: exactly these ids.
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, timeout: 1_000, timeBudget: 0 });
      expect([...report.failedChecks].sort(), failuresOf(report).join('\n')).toEqual([...want].sort());
      expect(report.summary.failed).toBeGreaterThan(0);
      for (const failure of report.cases.flatMap((c) => c.failures)) {
        expect(failure.request ?? 'coverage', 'every failure names its request').toMatch(/^curl |^coverage$/);
        expect(failure.expected).not.toBe('');
        expect(failure.actual).not.toBe('');
      }
      expect(JSON.stringify(report)).not.toContain(KEY);
    } finally {
      await target.close();
    }
  });
});
