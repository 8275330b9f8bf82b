import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { startIndependentPetstore, type Fault } from './targets/independent-petstore.js';
import { runCli } from './support/cli.js';
import { startHostileTarget } from './support/hostile-target.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'generated-key-7d2f0c';
const spec = await loadSpec();
// Fewer examples than a real run (250 per property) keep the suite quick; the faults below are still found, and so is
// every fault of the independent target at the same count (contract-differential.test.ts).
const RUNS = Number(process.env.CONTRACT_RUNS ?? 40);
const SEED = Number(process.env.CONTRACT_SEED_BASE ?? 20261122);
const tmp = mkdtempSync(join(tmpdir(), 'petstore-generated-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function failuresOf(report: ContractReport): string[] {
  return report.cases.flatMap((c) =>
    c.failures.map((f) => `${c.id}: [${f.check}] expected ${f.expected}; actual ${f.actual}`),
  );
}

function generatedRequests(report: ContractReport, which: (id: string) => boolean = () => true): string[] {
  return report.cases
    .filter((c) => c.generated && which(c.id))
    .flatMap((c) => c.requests.map((r) => `${r.status} ${r.request}`));
}

/** Seeds for the correct targets: a few in `npm test`, more by hand (`CONTRACT_SEEDS=50 npm run contract:seeds`). */
const seeds = Array.from({ length: Number(process.env.CONTRACT_SEEDS ?? 3) }, (_, i) => SEED + i * 7919);

describe('the generated phase finds no fault in a correct implementation', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ apiKeys: [KEY] });
  });
  afterAll(() => mock.close());

  it.for(seeds)(
    'seed %i: our mock and the independent implementation pass, with the phase in the report',
    { timeout: limitForRuns(1) },
    async (seed) => {
      const independent = await startIndependentPetstore({ key: KEY });
      try {
        for (const baseUrl of [mock.url, independent.url]) {
          const report = await runContract({
            baseUrl,
            apiKey: KEY,
            spec,
            seed,
            runs: process.env.CONTRACT_SEEDS ? 250 : RUNS,
          });
          expect(
            failuresOf(report),
            `seed ${seed} against ${baseUrl === mock.url ? 'the mock' : 'the independent implementation'}`,
          ).toEqual([]);
          expect(report.generated).toMatchObject({ seed, cases: 10, failures: 0 });
          expect(report.generated!.requests).toBeGreaterThan(200);
          expect(JSON.stringify(report)).not.toContain(KEY);
        }
      } finally {
        await independent.close();
      }
    },
  );

  it(
    'sends a categoryId of 2^63−1 and of 0, and both implementations store and return them exactly',
    { timeout: limitForRuns(1) },
    async () => {
      const independent = await startIndependentPetstore({ key: KEY });
      try {
        for (const baseUrl of [mock.url, independent.url]) {
          const report = await runContract({ baseUrl, apiKey: KEY, spec, seed: SEED, runs: RUNS });
          expect(failuresOf(report)).toEqual([]);
          const created = generatedRequests(report).filter((r) => r.startsWith('201 ') && r.includes('-X POST'));
          expect(created.some((r) => r.includes('"categoryId":9223372036854775807'))).toBe(true);
          expect(created.some((r) => r.includes('"categoryId":0'))).toBe(true);
        }
      } finally {
        await independent.close();
      }
    },
  );

  it(
    'passes a correct deployment that rate-limits (429 with Retry-After): waits, retries and notes it',
    { timeout: limitForRuns(1) },
    async () => {
      const limited = await startIndependentPetstore({ key: KEY, rateLimit: 150 });
      try {
        const report = await runContract({ baseUrl: limited.url, apiKey: KEY, spec, seed: SEED, runs: 10 });
        expect(failuresOf(report)).toEqual([]);
        expect(limited.limited).toBeGreaterThan(0);
        expect(report.notes.filter((n) => n.check === 'rate-limit.retry').length).toBeGreaterThan(0);
        expect(report.notes.find((n) => n.check === 'rate-limit.retry')!.message).toMatch(
          /: 429 with Retry-After; waited 1000 ms and sent it again$/,
        );
      } finally {
        await limited.close();
      }
    },
  );

  // The workers of --concurrency share one pacing: a 429 with Retry-After holds them all, and the run passes.
  it(
    'passes the same rate-limiting deployment with --concurrency 4: every worker waits, nothing fails, every case runs',
    { timeout: limitForRuns(1) },
    async () => {
      const limited = await startIndependentPetstore({ key: KEY, rateLimit: 150 });
      try {
        const report = await runContract({
          baseUrl: limited.url,
          apiKey: KEY,
          spec,
          seed: SEED,
          runs: 10,
          concurrency: 4,
        });
        expect(failuresOf(report)).toEqual([]);
        expect(report.summary.notRun).toBe(0);
        expect(limited.limited).toBeGreaterThan(0);
        expect(report.notes.filter((n) => n.check === 'rate-limit.retry').length).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    },
  );

  it('stops with exit 2, not a failure, when the limit outlasts the waits', async () => {
    const target = await startHostileTarget((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }));
    });
    try {
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED });
      expect(report.stopped).toBe(
        'the target still answered 429 with Retry-After: 0 after 3 waits (a rate limit): run again with --rate N below its limit',
      );
      expect(report.failedChecks).toEqual([]);
      // The probe, then the first request sent four times.
      expect(target.requests()).toBe(5);
    } finally {
      await target.close();
    }
  });

  it(
    '--read-only: the generated phase sends GETs only and says which cases it skipped',
    { timeout: limitForRuns(1) },
    async () => {
      const methods: string[] = [];
      const observe = (exchange: { request: { method: string } }) => methods.push(exchange.request.method);
      mock.mock.observers.add(observe);
      try {
        const report = await runContract({
          baseUrl: mock.url,
          apiKey: KEY,
          spec,
          seed: SEED,
          runs: RUNS,
          readOnly: true,
        });
        expect(failuresOf(report)).toEqual([]);
        expect(new Set(methods)).toEqual(new Set(['GET']));
        expect(
          report.cases.filter((c) => c.id.startsWith('generated.') && c.status === 'skipped').map((c) => c.id),
        ).toEqual([
          'generated.round-trip/createPet',
          'generated.invalid-rejected/createPet',
          'generated.auth-rejected/createPet',
        ]);
        expect(report.cases.find((c) => c.id === 'stateful/pets')).toMatchObject({ status: 'passed' });
        expect(report.generated!.requests).toBeGreaterThan(50);
      } finally {
        mock.mock.observers.delete(observe);
      }
    },
  );

  it(
    'a spent --time-budget never starves a case; --max-requests leaves the cases it cut "not run", never passed; 0 turns the phase off',
    { timeout: limitForRuns(3) },
    async () => {
      // A time budget of 1 ms: every property still tries its minimum examples, and every case passes on them.
      const rushed = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, seed: SEED, runs: RUNS, timeBudget: 1 });
      expect(failuresOf(rushed)).toEqual([]);
      expect(rushed.summary.notRun).toBe(0);
      for (const result of rushed.cases.filter((c) => c.generated))
        expect(result.generated!.runs, result.id).toBeGreaterThanOrEqual(1);
      const capped = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, seed: SEED, maxRequests: 200 });
      expect(failuresOf(capped)).toEqual([]);
      expect(capped.requests).toBeLessThanOrEqual(200);
      expect(capped.summary.notRun).toBeGreaterThan(0);
      for (const result of capped.cases.filter((c) => c.status === 'notRun'))
        expect(result.reason).toMatch(
          /the request cap of 200 \(--max-requests\) was reached( \(and \d+ more properties\))?; raise --max-requests$/,
        );
      const off = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, timeBudget: 0 });
      expect(off.generated).toBeUndefined();
      expect(
        off.cases
          .filter((c) => c.status === 'skipped')
          .every((c) => c.reason === 'the generated phase is off (--time-budget 0)'),
      ).toBe(true);
    },
  );
});

describe('failures shrink and replay', () => {
  it(
    'shrinks a stateful failure to a short sequence, printed as a curl script with the key masked',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, fault: 'repeated-name-same-id' });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, seed: SEED, runs: RUNS });
        const failure = report.cases.find((c) => c.id === 'stateful/pets')!.failures[0]!;
        expect(failure.check).toBe('stateful.unique-ids');
        expect(failure.actual).toMatch(
          /^id \d+ was already given to "contract-.*-s~?\d+-.*"( \(creates sent in parallel\))?$/,
        );
        const curls = failure.reproduction!.filter((line) => line.startsWith('curl '));
        // The shortest sequence that shows it: two creates of one name (one after the other, or in parallel).
        expect(curls).toHaveLength(2);
        expect(
          curls.every(
            (line) => line.includes('-H "Authorization: Bearer ${PETSTORE_API_KEY}"') && line.includes('-X POST'),
          ),
        ).toBe(true);
        expect(failure.reproduction!.find((line) => line.startsWith('# sequence: '))).toMatch(
          /^# sequence: (create\(.*\),create(SameName)?\(.*\)|createParallel\(2\))$/,
        );
      } finally {
        await target.close();
      }
    },
  );

  it.for([
    { concurrency: undefined, order: 'any order' },
    { concurrency: 1, order: 'the same order' },
  ])(
    'the same seed replays the same generated requests, in $order, and the same shrunk failure (--concurrency $concurrency)',
    { timeout: limitForRuns(1) },
    async ({ concurrency }) => {
      const runs: ContractReport[] = [];
      for (let i = 0; i < 2; i++) {
        const target = await startIndependentPetstore({ key: KEY, fault: 'limit-ignored-with-status' });
        try {
          // Examples, not time, decide what is sent (no --time-budget): it depends on the seed alone.
          runs.push(
            await runContract({
              baseUrl: target.url,
              apiKey: KEY,
              spec,
              seed: SEED,
              runs: RUNS,
              runId: 'replay',
              ...(concurrency ? { concurrency } : {}),
            }),
          );
        } finally {
          await target.close();
        }
      }
      // One at a time, in the seed's order. Side by side (the default), examples leave in the order they finish: the
      // same requests, but which create got which id depends on arrival, and a stateful sequence reads what the others
      // wrote meanwhile (the same number of sequences is checked instead).
      const shown = (report: ContractReport, serial: boolean) =>
        generatedRequests(report, (id) => serial || id !== 'stateful/pets')
          .map((r) => r.replace(/127\.0\.0\.1:\d+/, 'HOST'))
          .map((r) => (serial ? r : r.replace(/\/pets\/\d+/, '/pets/ID')));
      const [first, second] = runs.map((report) => shown(report, concurrency === 1));
      expect(first!.length).toBeGreaterThan(100);
      if (concurrency === 1) expect(second).toEqual(first);
      else {
        expect([...second!].sort()).toEqual([...first!].sort());
        const sequences = runs.map((report) => report.cases.find((c) => c.id === 'stateful/pets')!.generated!.runs);
        expect(sequences[1]).toBe(sequences[0]);
      }
      const scripts = runs.map((report) =>
        report.cases.flatMap((c) =>
          c.failures.map((f) => f.reproduction?.join('\n').replace(/127\.0\.0\.1:\d+/g, 'HOST')),
        ),
      );
      expect(scripts[1]).toEqual(scripts[0]);
    },
  );
});

describe('one engine: the vitest suite the CLI runs and runContract give the same verdicts', () => {
  it.for<[string, Fault | undefined]>([
    ['a correct target', undefined],
    ['a target that ignores the default limit with status', 'default-limit-ignored-with-status'],
    ['a target that accepts the key with text appended', 'key-with-suffix-accepted'],
  ])('%s', { timeout: limitForRuns(2) }, async ([, fault]) => {
    const reports: ContractReport[] = [];
    for (const via of ['engine', 'cli']) {
      const target = await startIndependentPetstore({ key: KEY, ...(fault ? { fault } : {}) });
      try {
        // A time budget no loaded machine reaches: the examples tried then depend on the seed alone, not on speed. The
        // suite's example count, not a real run's 250: what is compared is the two paths' verdicts on the same examples.
        if (via === 'engine')
          reports.push(
            await runContract({
              baseUrl: target.url,
              apiKey: KEY,
              spec,
              seed: SEED,
              runId: 'same',
              runs: RUNS,
              timeBudget: 600_000,
            }),
          );
        else {
          const file = join(tmp, `${fault ?? 'correct'}.json`);
          const result = await runCli([
            'contract',
            '--base-url',
            target.url,
            '--api-key',
            KEY,
            '--seed',
            String(SEED),
            '--run-id',
            'same',
            '--runs',
            String(RUNS),
            '--time-budget',
            '600',
            '--json',
            file,
          ]);
          expect(result.code).toBe(fault ? 1 : 0);
          expect(result.stdout).toContain(`seed ${SEED}`);
          expect(result.stdout).toMatch(
            new RegExp(
              `Generated phase: seed ${SEED}, \\d+ requests, \\d+ examples in 10 cases, ${fault ? '[1-9]\\d*' : '0'} failures? \\(replay: --seed ${SEED}\\)`,
            ),
          );
          reports.push(JSON.parse(readFileSync(file, 'utf8')) as ContractReport);
        }
      } finally {
        await target.close();
      }
    }
    const [engine, cli] = reports;
    expect(cli!.failedChecks).toEqual(engine!.failedChecks);
    expect(cli!.cases.map((c) => `${c.id} ${c.status}`)).toEqual(engine!.cases.map((c) => `${c.id} ${c.status}`));
    expect(cli!.generated).toMatchObject({
      seed: SEED,
      cases: 10,
      runs: engine!.generated!.runs,
      failures: engine!.generated!.failures,
    });
  });
});
