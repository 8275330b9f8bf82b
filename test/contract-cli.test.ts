import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { runCli } from './support/cli.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { startIndependentPetstore, type IndependentPetstore } from './targets/independent-petstore.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'cli-secret-key-7f3a9c';
const tmp = mkdtempSync(join(tmpdir(), 'petstore-contract-'));
const read = (file: string) => readFileSync(join(tmp, file), 'utf8');

describe('petstore-kit contract (the built CLI, over real HTTP)', () => {
  let mock: MockServer;
  let readOnlyMock: MockServer;
  let broken: IndependentPetstore;
  const methods: string[] = [];
  const readOnlyMethods: string[] = [];
  beforeAll(async () => {
    [mock, readOnlyMock, broken] = await Promise.all([
      createMockServer({ apiKeys: [KEY] }),
      createMockServer({ apiKeys: [KEY] }),
      startIndependentPetstore({ key: KEY, fault: 'auth-ignored-on-getPet' }),
    ]);
    mock.mock.observers.add((exchange) => methods.push(exchange.request.method));
    readOnlyMock.mock.observers.add((exchange) => readOnlyMethods.push(exchange.request.method));
  });
  afterAll(async () => {
    await Promise.all([mock.close(), readOnlyMock.close(), broken.close()]);
  });

  it(
    'exits 0 against our mock with the summary line, JUnit, JSON and a step summary, and never shows the key',
    async ({ expect }) => {
      const result = await runCli(
        [
          'contract',
          '--base-url',
          mock.url,
          '--junit',
          join(tmp, 'ok/junit.xml'),
          '--json',
          join(tmp, 'ok/report.json'),
          '--require-coverage',
          '--run-id',
          'e2e-ok',
        ],
        {
          PETSTORE_API_KEY: KEY,
          GITHUB_STEP_SUMMARY: join(tmp, 'ok-summary.md'),
        },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines.at(-1)).toMatch(/^\d+ cases: \d+ passed, 0 failed$/);
      expect(result.stdout).toContain('the contract holds');
      const report = JSON.parse(read('ok/report.json')) as ContractReport;
      expect(report.summary.failed).toBe(0);
      expect(report.runId).toBe('e2e-ok');
      expect(lines.at(-1)).toBe(`${report.cases.length} cases: ${report.summary.passed} passed, 0 failed`);
      expect(report.cases.length).toBeGreaterThanOrEqual(50);
      const junit = read('ok/junit.xml');
      expect(junit.match(/<testcase /g)).toHaveLength(report.cases.length);
      expect(junit).toContain('failures="0"');
      expect(read('ok-summary.md')).toContain('### Petstore contract: ✅ the contract holds');
      for (const text of [result.stdout, read('ok/report.json'), junit, read('ok-summary.md')])
        expect(text).not.toContain(KEY);
      expect(methods).toContain('POST');
    },
    limitForRuns(1),
  );

  it(
    'exits 1 against a broken target and names the check, the operation, the request and what differed',
    async ({ expect }) => {
      // The fixed cases only (--time-budget 0): this is about how their failures are reported.
      const result = await runCli(
        [
          'contract',
          '--base-url',
          broken.url,
          '--api-key',
          KEY,
          '--time-budget',
          '0',
          '--junit',
          join(tmp, 'bad.xml'),
          '--json',
          join(tmp, 'bad.json'),
        ],
        {
          GITHUB_STEP_SUMMARY: join(tmp, 'bad-summary.md'),
        },
      );
      expect(result.code).toBe(1);
      const { summary, cases } = JSON.parse(read('bad.json')) as ContractReport;
      // Four cases failed with one failure each, all of one cause: one group of four. Coverage is incomplete (no
      // getPet 401 ever came), so it is skipped rather than ticked; so are the 10 cases of the generated phase (off).
      expect(result.stdout.trim().split('\n').at(-1)).toBe(
        `${cases.length} cases: ${summary.passed} passed, 4 failed, 11 skipped; 4 failures in 1 group`,
      );
      expect(result.stdout).toContain('auth.required · getPet — getPet with no Authorization header gets 401  (×4)');
      expect(result.stdout).toContain('expected: 401 with an Error');
      expect(result.stdout).toMatch(/actual: {3}200 application\/json/);
      expect(result.stdout).toMatch(/got: {6}200 application\/json; charset=utf-8 \{"id":\d+,"name":"Pet \d+"/);
      expect(result.stdout).toMatch(
        /request: {2}curl -sS -i --compressed http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+ -H 'Accept: application\/json'\n/,
      );
      expect(result.stdout).toContain(
        'also in:  auth.required/getPet/wrong-scheme, auth.required/getPet/empty-token, auth.required/getPet/invalid-token',
      );
      expect(read('bad.json')).toMatch(
        /curl -sS -i --compressed http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+ -H 'Accept: application\/json' -H \\"Authorization: Token \$\{PETSTORE_API_KEY\}\\"/,
      );
      const report = JSON.parse(read('bad.json')) as ContractReport;
      expect(report.failedChecks).toEqual(['auth.required']);
      expect(report.summary.failed).toBe(4);
      expect(read('bad.xml')).toContain('<failure type="auth.required"');
      expect(read('bad-summary.md')).toContain('❌ 4 cases failed (`auth.required`)');
      for (const text of [result.stdout, result.stderr, read('bad.json'), read('bad.xml'), read('bad-summary.md')])
        expect(text).not.toContain(KEY);
    },
    limitForRuns(1),
  );

  it(
    'sends no POST in read-only mode and lists what it skipped',
    async ({ expect }) => {
      const result = await runCli(['contract', '--base-url', readOnlyMock.url, '--read-only'], {
        PETSTORE_API_KEY: KEY,
      });
      expect(result.code).toBe(0);
      expect(readOnlyMethods.length).toBeGreaterThan(20);
      expect(readOnlyMethods.filter((m) => m !== 'GET')).toEqual([]);
      expect(result.stdout).toContain('read-only: no writes');
      // 23 fixed cases and 3 of the generated phase send a POST.
      expect(result.stdout).toMatch(
        /Skipped 26 cases\n {2}- create\.echo\/createPet\/status-available: read-only: this case sends a POST/,
      );
      expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ cases: \d+ passed, 0 failed, 26 skipped$/);
    },
    limitForRuns(1),
  );

  it('exits 2 with one line when nothing listens at the base URL', async ({ expect }) => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const result = await runCli(['contract', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-kit: cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)\n`,
    );
    expect(result.stdout).toBe('');
  });

  // Each spawns a CLI that stops before any request: independent, so they run side by side.
  it.concurrent.for<[string[], string]>([
    [['--api-key', KEY], '--base-url is required'],
    [['--base-url', 'ftp://example.com/v1', '--api-key', KEY], '--base-url must be an http(s) URL'],
    [['--base-url', 'http://127.0.0.1:9/v1'], 'an API key is required'],
    [
      ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--timeout', '0'],
      '--timeout must be a whole number from 1 to 600000',
    ],
    [['--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--run-id', 'a b'], '--run-id must be'],
    [
      ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--rate', '0'],
      '--rate must be a number above 0 and at most 100000, such as 20 or 0.5 (got "0")',
    ],
  ])('exits 2 with one line for %j', async ([args, message], { expect }) => {
    const result = await runCli(['contract', ...args], { PETSTORE_API_KEY: '', CONTRACT_BASE_URL: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr + result.stdout).not.toContain(`Bearer ${KEY}`);
  });

  it('exits 2 when the key is refused or the base URL lacks the version segment', async ({ expect }) => {
    const refused = await runCli(['contract', '--base-url', mock.url, '--api-key', 'not-the-key']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the target refused the API key');
    const noVersion = await runCli(['contract', '--base-url', mock.origin, '--api-key', KEY]);
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toContain('answered 404: is');
    expect(noVersion.stderr).not.toContain(KEY);
  });

  it('documents every option in --help', async ({ expect }) => {
    const help = await runCli(['contract', '--help']);
    expect(help.code).toBe(0);
    for (const flag of [
      '--base-url',
      '--api-key',
      '--header',
      '--ca',
      '--insecure',
      '--read-only',
      '--timeout',
      '--deadline',
      '--max-body',
      '--max-requests',
      '--require-coverage',
      '--run-id',
      '--junit',
      '--json',
      '--config',
    ])
      expect(help.stdout).toContain(flag);
  });
});

describe('contract --version', () => {
  it('prints the package version and exits 0, as mock and proxy do', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const result = await runCli(['contract', flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});
