import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './support/cli.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { NO_CASE_REASON, WEBHOOK_REASON } from '../src/contract/reports/operation-runs.js';

/**
 * A verdict about something (issue 53, item 5): an operation no request reached is named as not run, with why, in
 * every report form (terminal, JSON, JUnit, HTML, the step summary); a run that judged nothing exits 2 with a line of
 * its own, never "the contract holds" after 0 requests. Each on a small document of test/fixtures/documents/.
 */
const KEY = 'judged-nothing-key-3f9a1c';
const dir = mkdtempSync(join(tmpdir(), 'petstore-judged-nothing-'));
const documentFile = (name: string) => fileURLToPath(new URL(`./fixtures/documents/${name}.yaml`, import.meta.url));

interface Forms {
  code: number | null;
  stdout: string;
  stderr: string;
  json: ContractReport;
  junit: string;
  html: string;
  markdown: string;
}

/** `petstore-kit contract` against `url`, judged by the document `name`, and every report form it wrote. */
async function contract(name: string, url: string, extra: string[] = []): Promise<Forms> {
  const files = { json: join(dir, `${name}.json`), junit: join(dir, `${name}.xml`), html: join(dir, `${name}.html`) };
  const summary = join(dir, `${name}.md`);
  writeFileSync(summary, '');
  const result = await runCli(
    [
      'contract',
      '--base-url',
      url,
      '--spec',
      documentFile(name),
      '--runs',
      '20',
      '--json',
      files.json,
      '--junit',
      files.junit,
      '--html',
      files.html,
      ...extra,
    ],
    { PETSTORE_API_KEY: KEY, GITHUB_STEP_SUMMARY: summary },
  );
  return {
    ...result,
    json: JSON.parse(readFileSync(files.json, 'utf8')) as ContractReport,
    junit: readFileSync(files.junit, 'utf8'),
    html: readFileSync(files.html, 'utf8'),
    markdown: readFileSync(summary, 'utf8'),
  };
}

const contractDocs = readFileSync(fileURLToPath(new URL('../docs/contract.md', import.meta.url)), 'utf8');

const mocks = new Map<string, MockServer>();
beforeAll(async () => {
  for (const name of ['path-parameters-only', 'operation-left-unsent', 'errors-as-declared'])
    mocks.set(name, await createMockServer({ apiKeys: [KEY], spec: documentFile(name) }));
}, 60_000);
afterAll(async () => {
  for (const mock of mocks.values()) await mock.close();
});

describe('a run that judged nothing', () => {
  it('every operation takes path parameters no collection fills: exit 2, its own line, each operation named', async () => {
    const forms = await contract('path-parameters-only', mocks.get('path-parameters-only')!.url);
    expect(forms.code).toBe(2);
    expect(forms.stderr).toMatch(
      /^petstore-kit: nothing judged: no request with valid credentials reached any of the document's 3 operations \(getUserByName: .*username.*; each is listed as not run, with why\)\n$/,
    );
    expect(forms.stdout).not.toContain('the contract holds');
    expect(forms.stdout).toContain('; nothing judged: the contract is not shown to hold');
    expect(forms.json.operations).toEqual([
      expect.objectContaining({
        operation: 'getUserByName',
        method: 'GET',
        requests: 0,
        judged: 0,
        notRun: expect.stringContaining('username'),
      }),
      expect.objectContaining({ operation: 'getRepository', notRun: expect.stringContaining('username') }),
      expect.objectContaining({
        operation: 'mergePullRequest',
        method: 'POST',
        notRun: expect.stringContaining('username'),
      }),
    ]);
    for (const operation of ['getUserByName', 'getRepository', 'mergePullRequest']) {
      expect(forms.stdout).toMatch(new RegExp(`^  ○ ${operation} \\((GET|POST) /2\\.0/[^)]+\\): \\S.*username`, 'm'));
      expect(forms.junit).toContain(`<testcase classname="operation.not-run" name="${operation}: `);
      expect(forms.html).toContain(`<th scope="row">${operation}</th>`);
      expect(forms.markdown).toContain(`| \`${operation}\` |`);
    }
    expect(forms.junit).toMatch(
      /<testcase classname="run.nothing-judged"[^>]*>\s*<error type="run.nothing-judged" message="nothing judged: /,
    );
    expect(forms.junit).toMatch(/<testsuites [^>]*errors="1"/);
    expect(forms.html).toContain('Exit 2: could not judge — nothing judged: ');
    expect(forms.markdown).toMatch(/^### .*: ⚠️ nothing judged: /);
    // docs/contract.md shows this very line.
    expect(contractDocs).toContain(`| \`${forms.stderr.replace(/^petstore-kit: /, '').trim()}\` |`);
  }, 120_000);

  it('only webhooks: exit 2, the webhook named as not run', async () => {
    // Nothing is sent at all: any URL will do, and none is asked.
    const forms = await contract('webhooks-only', 'http://127.0.0.1:9/v1');
    expect(forms.code).toBe(2);
    expect(forms.stderr).toMatch(
      /^petstore-kit: nothing judged: .*webhook newPet POST: a webhook \(OpenAPI 3\.1 `webhooks`\): the API sends it/,
    );
    expect(forms.json.operations).toEqual([
      {
        operation: 'webhook newPet POST',
        method: 'POST',
        path: 'webhooks.newPet',
        requests: 0,
        judged: 0,
        notRun: expect.stringMatching(/^a webhook/),
      },
    ]);
    expect(forms.json.requests).toBe(0);
  }, 120_000);
});

describe('a run that judged some operations and not others', () => {
  it('holds on what it judged (exit 0) and names the operation it sent nothing, in every report form', async () => {
    const forms = await contract('operation-left-unsent', mocks.get('operation-left-unsent')!.url);
    expect(forms.code, forms.stderr).toBe(0);
    expect(forms.json.operations).toEqual([
      expect.objectContaining({ operation: 'listThings', method: 'GET', path: '/things' }),
      expect.objectContaining({
        operation: 'getUser',
        requests: 0,
        notRun: expect.stringContaining('username'),
      }),
    ]);
    expect(forms.json.operations![0]!.judged).toBeGreaterThan(0);
    expect(forms.json.operations![0]).not.toHaveProperty('notRun');
    expect(forms.stdout).toMatch(
      /^Operations not run: 1 of 2 got no request with valid credentials\n {2}○ getUser \(GET \/users\/\{username\}\): \S.*username/m,
    );
    expect(forms.stdout).toContain('; the contract holds for the operations judged (1 of 2 not run, listed above)');
    expect(forms.junit).toContain('<testcase classname="operation.not-run" name="getUser: GET /users/{username}"');
    expect(forms.junit).toContain(
      '<property name="operation getUser GET /users/{username}" value="requests 0, with valid credentials 0; not run: ',
    );
    expect(forms.html).toMatch(/<h2 id="unsent-title">Operations not run: 1 of 2<\/h2>/);
    expect(forms.markdown).toMatch(/\| `getUser` \| GET \/users\/\{username\} \| \S.*username/);
  }, 120_000);

  it('a read-only run names each write it left out, with the case that said so', async () => {
    const forms = await contract('errors-as-declared', mocks.get('errors-as-declared')!.url, ['--read-only']);
    expect(forms.code, forms.stderr).toBe(0);
    const unsent = Object.fromEntries(forms.json.operations!.map((o) => [o.operation, o.notRun]));
    expect(unsent.listThings).toBeUndefined();
    expect(unsent.createThing).toMatch(/^read-only: this case sends a POST.* \(\S+\)$/);
    expect(unsent.deleteThing).toMatch(/^read-only: this case sends a .*DELETE.* \(\S+\)$/);
  }, 120_000);
});

describe('docs/contract.md', () => {
  it('quotes the reasons the document gives for an operation not run as the code words them', () => {
    expect(contractDocs).toContain(`| \`\`${WEBHOOK_REASON}\`\` |`);
    expect(contractDocs).toContain(`| \`${NO_CASE_REASON}\` |`);
  });
});
