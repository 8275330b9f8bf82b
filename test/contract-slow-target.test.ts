import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { formatTextSummary, summaryLine } from '../src/contract/reports/format-text.js';
import { formatJunit } from '../src/contract/reports/format-junit.js';
import { formatMarkdown } from '../src/contract/reports/format-markdown.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import type { CheckId } from '../src/contract/base/check-ids.js';
import { startIndependentPetstore, type Fault } from './targets/independent-petstore.js';
import { expected } from './targets/expected-checks.js';
import { runCli } from './support/cli.js';
import { limitForRuns } from './support/run-budget.js';

// A target tens of milliseconds away (or a busy runner) must be checked as thoroughly as a local one, and a
// case that could not try its examples is "not run", never passed, in every report form.
const KEY = 'slow-target-key-3c9e1a';
const DELAY = 40;
const spec = await loadSpec();
const RUNS = 40;
const SEED = 20261125;
const tmp = mkdtempSync(join(tmpdir(), 'petstore-slow-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const generatedCases = (report: ContractReport) =>
  report.cases.filter((c) => c.id.startsWith('generated.') || c.id.startsWith('stateful/'));

describe(`against the mock answering after ${DELAY} ms`, () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ apiKeys: [KEY], delay: DELAY });
  });
  afterAll(() => mock.close());

  it(
    'every generated and stateful case tries exactly the examples a local run tries, and the verdict is earned',
    { timeout: limitForRuns(2) },
    async () => {
      const local = await createMockServer({ apiKeys: [KEY] });
      const near = await runContract({ baseUrl: local.url, apiKey: KEY, spec, seed: SEED, runs: RUNS }).finally(() =>
        local.close(),
      );
      const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
      // Examples, not time, are the budget: 40 ms away, every case tries what it tries on loopback.
      expect(generatedCases(report).map((c) => `${c.id} ${c.generated!.runs}`)).toEqual(
        generatedCases(near).map((c) => `${c.id} ${c.generated!.runs}`),
      );
      expect(report.generated!.requests).toBe(near.generated!.requests);
      expect(report.summary.failed).toBe(0);
      expect(report.summary.notRun).toBe(0);
      const generated = generatedCases(report);
      expect(generated.length).toBeGreaterThanOrEqual(10);
      for (const result of generated) {
        expect(result.status, result.id).toBe('passed');
        // The last cases (credentials, reads, stateful) used to starve on a slow target: each now sent requests.
        expect(result.generated!.runs, result.id).toBeGreaterThanOrEqual(1);
        expect(result.generated!.requests, result.id).toBeGreaterThan(0);
      }
      expect(formatTextSummary(report)).toContain('the contract holds');
    },
  );

  it(
    '--max-requests too small: the cases it cut are not run, never passed, in text, JSON, JUnit and Markdown; the CLI exits 2',
    { timeout: limitForRuns(2) },
    async () => {
      const report = await runContract({
        baseUrl: mock.url,
        apiKey: KEY,
        spec,
        seed: SEED,
        runs: RUNS,
        maxRequests: 150,
      });
      const notRun = report.cases.filter((c) => c.status === 'notRun');
      expect(notRun.length).toBeGreaterThan(0);
      expect(report.summary.notRun).toBe(notRun.length);
      for (const result of notRun) expect(result.reason).toMatch(/--max-requests.*raise --max-requests/);
      // A passed generated case tried its examples; none passed on nothing.
      for (const result of generatedCases(report).filter((c) => c.status === 'passed'))
        expect(result.generated!.runs, result.id).toBeGreaterThanOrEqual(1);
      const text = formatTextSummary(report);
      expect(text).not.toContain('the contract holds');
      expect(text).toContain('not every case ran');
      expect(text).toContain(`○ ${notRun[0]!.id}: ${notRun[0]!.reason}`);
      expect(summaryLine(report)).toContain(`${notRun.length} not run`);
      const junit = formatJunit(report);
      expect(junit.match(/<skipped message="not run: /g)?.length).toBe(notRun.length);
      expect(formatMarkdown(report)).toMatch(/^### Petstore contract: ⚠️ \d+ cases? not run/);

      const file = join(tmp, 'capped.json');
      const cli = await runCli([
        'contract',
        '--base-url',
        mock.url,
        '--api-key',
        KEY,
        '--seed',
        String(SEED),
        '--max-requests',
        '150',
        '--json',
        file,
      ]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toMatch(/cases? not run \(/);
      expect(cli.stdout).not.toContain('the contract holds');
      const json = JSON.parse(readFileSync(file, 'utf8')) as ContractReport;
      expect(json.summary.notRun).toBeGreaterThan(0);
      expect(json.cases.filter((c) => c.status === 'notRun').length).toBe(json.summary.notRun);
    },
  );
});

describe(`faults are still caught when every answer takes ${DELAY} ms`, () => {
  // Every fault the local run catches (contract-generated.test.ts), on the defaults, several targets at a time.
  it.concurrent.for(Object.entries(expected) as [Fault, CheckId][])(
    'catches %s under %s',
    { timeout: limitForRuns(1) },
    async ([fault, check], { expect }) => {
      const target = await startIndependentPetstore({ key: KEY, fault, delayMs: DELAY });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        expect(report.failedChecks).toContain(check);
        // Every case ran, unless the fault itself stopped the run (a target that stops answering: exit 2, said why).
        if (report.stopped) expect(report.stopped).toMatch(/not answering|answer/);
        else expect(report.summary.notRun).toBe(0);
      } finally {
        await target.close();
      }
    },
  );

  it(
    'a JSON body read without a Content-Type passes (RFC 9110 §8.3), slow or not',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, readsUntypedJson: true, delayMs: DELAY });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        expect(report.cases.flatMap((c) => c.failures.map((f) => `${c.id} ${f.check}: ${f.actual}`))).toEqual([]);
        // Every case ran, unless the fault itself stopped the run (a target that stops answering: exit 2, said why).
        if (report.stopped) expect(report.stopped).toMatch(/not answering|answer/);
        else expect(report.summary.notRun).toBe(0);
      } finally {
        await target.close();
      }
    },
  );
});

describe(`--concurrency 4 against targets ${DELAY} ms away`, () => {
  it(
    'passes a correct target with every case run, stateful sequences in parallel included',
    { timeout: limitForRuns(1) },
    async () => {
      const mock = await createMockServer({ apiKeys: [KEY], delay: DELAY });
      try {
        const report = await runContract({
          baseUrl: mock.url,
          apiKey: KEY,
          spec,
          seed: SEED,
          runs: RUNS,
          concurrency: 4,
        });
        expect(report.cases.flatMap((c) => c.failures.map((f) => `${c.id} ${f.check}: ${f.actual}`))).toEqual([]);
        expect(report.summary.notRun).toBe(0);
        for (const result of generatedCases(report))
          expect(result.generated!.runs, result.id).toBeGreaterThanOrEqual(1);
      } finally {
        await mock.close();
      }
    },
  );

  it.for([
    ['key-with-suffix-accepted', 'generated.auth-rejected'],
    ['parallel-creates-same-id', 'stateful.unique-ids'],
    ['status-case-insensitive', 'generated.invalid-rejected'],
  ] as [Fault, CheckId][])(
    'catches %s under %s, with a reproduction',
    { timeout: limitForRuns(1) },
    async ([fault, check]) => {
      const target = await startIndependentPetstore({ key: KEY, fault, delayMs: DELAY });
      try {
        const report = await runContract({
          baseUrl: target.url,
          apiKey: KEY,
          spec,
          seed: SEED,
          runs: RUNS,
          concurrency: 4,
        });
        expect(report.failedChecks).toContain(check);
        const failure = report.cases.flatMap((c) => c.failures).find((f) => f.check === check && f.reproduction);
        expect(failure?.reproduction?.some((line) => line.startsWith('curl '))).toBe(true);
      } finally {
        await target.close();
      }
    },
  );
});
