import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { verdictOf } from '../src/contract/reports/report-verdict.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { startThingsService, type ThingsFault, type ThingsOptions } from './targets/things-service.js';
import { failuresOf } from './support/verdict.js';

/**
 * Answers read as OpenAPI reads them (issue 53, item 3), each on a small document of test/fixtures/documents/ written
 * for it: `default` covers every status not declared; a response declared without content owes no body; an error is
 * judged by the schema the document declares for it, not by the Petstore interface's Error.
 */
const KEY = 'answers-key-5b81c2e7';
const SEED = 20261129;
const RUNS = 24;
// Known, so that a target can hold things with the very tag resource.filter/things filters on.
const RUN_ID = 'answers';
const documentFile = (name: string) => fileURLToPath(new URL(`./fixtures/documents/${name}.yaml`, import.meta.url));

/** The run against `url`, judged by the document `name`, at `concurrency`. */
async function judge(name: string, url: string, concurrency = 8): Promise<ContractReport> {
  return runContract({
    baseUrl: url,
    apiKey: KEY,
    runId: RUN_ID,
    spec: await loadSpec(documentFile(name)),
    seed: SEED,
    runs: RUNS,
    concurrency,
  });
}

/** The run against the things service started with `options` and `fault`. */
async function judgeThings(
  name: string,
  options: ThingsOptions,
  fault?: ThingsFault,
  concurrency = 8,
): Promise<ContractReport> {
  const target = await startThingsService(options, fault);
  try {
    return await judge(name, target.url, concurrency);
  } finally {
    await target.close();
  }
}

describe('default covers every status the operation does not declare (OpenAPI 3.0.3 §4.7.16)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ apiKeys: [KEY], spec: documentFile('default-response-only') });
  });
  afterAll(() => mock.close());

  it('a 200 under a default-only response passes status.documented, and the row reads `default`', async () => {
    const report = await judge('default-response-only', mock.url);
    expect(failuresOf(report)).toEqual([]);
    expect(report.cases.find((c) => c.id === 'generated.valid-accepted/listThings')?.checks).toMatchObject({
      'status.documented': 'passed',
      'schema.response': 'passed',
    });
    expect(report.coverage).toEqual([
      expect.objectContaining({ operation: 'listThings', status: 'default', documented: true, state: 'exercised' }),
    ]);
    expect(verdictOf(report).exitCode).toBe(0);
  });
});

describe("errors as the document declares them, not as the Petstore interface's Error", () => {
  it.for([1, 8])(
    'a 400 declared without content and a 404 problem (RFC 9457) pass at --concurrency %i',
    { timeout: 60_000 },
    async (concurrency) => {
      const report = await judgeThings('errors-as-declared', {}, undefined, concurrency);
      expect(failuresOf(report)).toEqual([]);
      // The unknown ids' problems were judged by their schema; the refusals, which owe no body, by their status.
      const judged = report.checkCoverage.filter((row) => row.check === 'error.shape' && row.passed > 0);
      expect(judged.map((row) => row.operation)).toEqual(expect.arrayContaining(['getThing']));
      expect(report.cases.find((c) => c.id === 'generated.invalid-rejected/createThing')?.status).toBe('passed');
      expect(verdictOf(report).exitCode).toBe(0);
    },
  );

  it('a problem whose status member is not the HTTP status fails error.shape, resting on RFC 9457', async () => {
    const report = await judgeThings('errors-as-declared', {}, 'problem-status-differs');
    const failure = report.cases.flatMap((c) => c.failures).find((f) => f.check === 'error.shape');
    expect(failure, failuresOf(report).join('\n')).toMatchObject({
      expected: expect.stringMatching(
        /^a body matching the schema get\w+ declares for 404$|^a body matching the schema deleteThing declares for 404$/,
      ),
      actual: 'response.status must equal the HTTP status 404 (got 400)',
    });
    expect(report.failedChecks).toEqual(['error.shape']);
  });

  it('a 404 labelled application/json where problem+json is declared fails content-type.json', async () => {
    const report = await judgeThings('errors-as-declared', {}, 'not-found-as-json');
    const failure = report.cases.flatMap((c) => c.failures).find((f) => f.check === 'content-type.json');
    expect(failure, failuresOf(report).join('\n')).toMatchObject({
      actual: 'Content-Type must be application/problem+json (got application/json)',
    });
    expect(failure!.expected).toMatch(
      /^Content-Type application\/problem\+json and a JSON body, as \w+ declares for 404$/,
    );
    expect(report.failedChecks).toEqual(['content-type.json']);
  });
});

describe('limit only as bounded as the document bounds it', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ apiKeys: [KEY], spec: documentFile('limit-without-bounds') });
  });
  afterAll(() => mock.close());

  it(
    'v1 operations with an unbounded limit: limit=-1 and no default promise no page size',
    { timeout: 120_000 },
    async () => {
      const report = await judge('limit-without-bounds', mock.url);
      expect(failuresOf(report)).toEqual([]);
      // limit=-1 was sent (a valid value: no minimum), and judged by nothing but the document's schema.
      const sent = report.cases.flatMap((c) => c.requests).map((r) => r.request);
      expect(sent.some((curl) => /[?&]limit=-\d/.test(curl))).toBe(true);
      expect(verdictOf(report).exitCode).toBe(0);
    },
  );

  it.for([1, 8])(
    'a list the server pages by a size of its own is never taken as complete, at --concurrency %i',
    { timeout: 120_000 },
    async (concurrency) => {
      const report = await judgeThings(
        'list-paged-by-the-server',
        { pageSize: 3, seeded: 3, seedTag: `contract-${RUN_ID}-filter-tag`, notFound: 'empty' },
        undefined,
        concurrency,
      );
      expect(failuresOf(report)).toEqual([]);
      expect(report.checkCoverage.filter((row) => row.check === 'resource.filter' && row.passed > 0)).not.toEqual([]);
    },
  );

  it('a list that ignores limit=1 still fails resource.limit', { timeout: 120_000 }, async () => {
    const report = await judgeThings(
      'list-paged-by-the-server',
      { pageSize: 3, seeded: 3, seedTag: `contract-${RUN_ID}-filter-tag`, notFound: 'empty' },
      'list-ignores-limit',
    );
    expect(report.failedChecks, failuresOf(report).join('\n')).toContain('resource.limit');
  });
});

describe('an operation that declares no 2xx answers as it declares', () => {
  it.for([1, 8])(
    'a GET that only redirects (also the probe) and a POST that only refuses pass at --concurrency %i',
    { timeout: 60_000 },
    async (concurrency) => {
      const report = await judgeThings('no-success-declared', {}, undefined, concurrency);
      expect(failuresOf(report)).toEqual([]);
      expect(report.coverage.map((row) => `${row.operation} ${row.status} ${row.state}`)).toEqual([
        'legacyThings 301 exercised',
        'legacyImport 400 exercised',
      ]);
      expect(verdictOf(report).exitCode).toBe(0);
    },
  );

  it('a 200 where only 301 is declared fails status.documented', async () => {
    const report = await judgeThings('no-success-declared', {}, 'legacy-200');
    expect(report.failedChecks, failuresOf(report).join('\n')).toEqual(['status.documented']);
  });
});

describe('the probe never stops on an answer the document declares', () => {
  it('a 200 without content, as declared, is the API answering: the run goes on and judges it', async () => {
    const report = await judgeThings('probe-answered-without-content', {});
    expect(failuresOf(report)).toEqual([]);
    expect(report.coverage).toEqual([
      expect.objectContaining({ operation: 'ping', status: '200', state: 'exercised' }),
    ]);
  });

  it('an HTML page where the 200 declares no content still stops the run, naming the page', async () => {
    await expect(judgeThings('probe-answered-without-content', {}, 'ping-html')).rejects.toThrow(
      /^GET http:\/\/127\.0\.0\.1:\d+\/ping answered 200 with an HTML page, not the API/,
    );
  });
});

describe('a 201 declared without a body names its item by Location (RFC 9110 §15.3.2)', () => {
  it.for([1, 8])(
    'every oracle and the sequences read the item from its Location and pass, at --concurrency %i',
    { timeout: 60_000 },
    async (concurrency) => {
      const report = await judgeThings(
        'created-without-body',
        { created: 'location', notFound: 'empty' },
        undefined,
        concurrency,
      );
      expect(failuresOf(report)).toEqual([]);
      expect(report.cases.filter((c) => c.status === 'notRun').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
      expect(report.cases.find((c) => c.id === 'resource.created-readable/things')?.status).toBe('passed');
      // What the run created it found by Location, and deleted at its end.
      expect(report.notes.map((n) => n.message)).toContainEqual(
        expect.stringMatching(/^deleted at the end: \d+ items? this run created and left/),
      );
      expect(verdictOf(report).exitCode).toBe(0);
    },
  );

  it('a Location naming another thing fails resource.created-readable', async () => {
    const report = await judgeThings(
      'created-without-body',
      { created: 'location', notFound: 'empty' },
      'location-elsewhere',
    );
    expect(report.failedChecks, failuresOf(report).join('\n')).toContain('resource.created-readable');
  });
});
