import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from './support/cli.js';
import { startIndependentPetstore, type Fault } from './targets/independent-petstore.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { DEADLINE_FLAGS, limitForRuns } from './support/run-budget.js';

// The short keys people use on their own machines, and a real one. None may change a word the runner writes, fail a
// correct target, or keep a reproduction from running. Each test makes one whole contract run per key; the generated
// phase tries 25 examples a property instead of 250 (what a key can change is the runner's words, which the first
// examples already show), and each run is bounded by its own --deadline (support/run-budget.ts).
const KEYS = ['x', 'test', 'sek', 'k7Qm2vXz9LpR4sTn8WcY1bHd6JfG3aKe0uPiOy5N'];
const SEED = '748513138';
const tmp = mkdtempSync(join(tmpdir(), 'petstore-keys-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: string;
  junit: string;
  html: string;
  report: ContractReport;
}

async function contract(key: string, fault?: Fault): Promise<Run> {
  const target = await startIndependentPetstore({ key, ...(fault ? { fault } : {}) });
  const name = `${fault ?? 'correct'}-${key.length}`;
  const files = { json: join(tmp, `${name}.json`), junit: join(tmp, `${name}.xml`), html: join(tmp, `${name}.html`) };
  try {
    const result = await runCli(
      [
        'contract',
        '--base-url',
        target.url,
        '--seed',
        SEED,
        '--runs',
        '25',
        ...DEADLINE_FLAGS,
        '--run-id',
        'keys',
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--html',
        files.html,
      ],
      { PETSTORE_API_KEY: key },
    );
    const json = readFileSync(files.json, 'utf8');
    return {
      ...result,
      json,
      junit: readFileSync(files.junit, 'utf8'),
      html: readFileSync(files.html, 'utf8'),
      report: JSON.parse(json) as ContractReport,
    };
  } finally {
    await target.close();
  }
}

/** Field names at every depth of a JSON value: what a consumer of the report reads by. */
function fieldNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldNames(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      into.add(name);
      fieldNames(item, into);
    }
  }
  return into;
}

/** What a failure says, without what differs from run to run (ports, durations) or the request itself. */
function failureTexts(report: ContractReport): string[] {
  return report.cases
    .flatMap((c) =>
      c.failures.map((f) =>
        `${c.id} [${f.check}] expected ${f.expected}; actual ${f.actual}`.replace(/127\.0\.0\.1:\d+/g, 'HOST'),
      ),
    )
    .sort();
}

describe('contract reports with a short key', () => {
  it(
    "pass a correct target with every key, the runner's text and the JSON field names unchanged",
    { timeout: limitForRuns(KEYS.length) },
    async () => {
      const names: string[][] = [];
      for (const key of KEYS) {
        const run = await contract(key);
        expect(run.code, `key ${JSON.stringify(key)}: ${run.stdout.slice(-2000)}`).toBe(0);
        expect(run.stdout).toMatch(/the contract holds/);
        // Words, numbers, check ids and the URL banner are the runner's own: never rewritten.
        expect(run.stdout).toMatch(
          /petstore-kit contract → http:\/\/127\.0\.0\.1:\d+\/v1 \(writes allowed: pets it creates are named contract-keys-…; seed 748513138\)/,
        );
        expect(run.stdout).not.toContain('***');
        expect(run.junit).not.toContain('***');
        expect(run.json).not.toContain('***');
        expect(run.html).not.toContain('***');
        expect(run.report.generated?.seed).toBe(Number(SEED));
        names.push([...fieldNames(run.report)].sort());
        // A short key cannot be searched for in free text; the runner says so once, on stderr.
        expect(run.stderr.includes('too short to tell apart from ordinary text')).toBe(key.length < 10);
        // The key itself never appears where the runner put it: the Authorization header reads it from the environment.
        expect(run.json).toContain('Authorization: Bearer ${PETSTORE_API_KEY}');
        // The HTML page: the key (one letter included) is nowhere a credential is shown, as sent or as HTML writes it.
        for (const sent of [`Bearer ${key}`, `Bearer&nbsp;${key}`, `api_key=${key}`, `PETSTORE_API_KEY=${key}`])
          expect(run.html).not.toContain(sent);
        expect(htmlWords(run.html)).not.toContain(key);
        if (key.length >= 10)
          for (const text of [run.stdout, run.stderr, run.json, run.junit, run.html]) expect(text).not.toContain(key);
      }
      for (const list of names.slice(1)) expect(list).toEqual(names[0]);
    },
  );

  it(
    'fail a faulty target on the same checks with the same words for every key',
    { timeout: limitForRuns(KEYS.length) },
    async () => {
      const texts: string[][] = [];
      for (const key of KEYS) {
        const run = await contract(key, 'limit-ignored');
        expect(run.code).toBe(1);
        expect(run.stdout).not.toContain('***');
        expect(run.json).not.toContain('***');
        expect(run.html).not.toContain('***');
        expect(run.html).toContain('Authorization: Bearer ${PETSTORE_API_KEY}');
        for (const sent of [`Bearer ${key}`, `PETSTORE_API_KEY=${key}`]) expect(run.html).not.toContain(sent);
        expect(htmlWords(run.html)).not.toContain(key);
        texts.push(failureTexts(run.report));
      }
      expect(texts[0]!.length).toBeGreaterThan(0);
      expect(texts[0]!.some((text) => text.includes('[list.limit]'))).toBe(true);
      for (const list of texts.slice(1)) expect(list).toEqual(texts[0]);
    },
  );

  const REPRODUCED = ['x', KEYS[3]!];
  it(
    'write reproductions that run as written with PETSTORE_API_KEY set and get the failing answer again',
    { timeout: limitForRuns(REPRODUCED.length) },
    async () => {
      for (const key of REPRODUCED) {
        const run = await contract(key, 'key-with-suffix-accepted');
        expect(run.code).toBe(1);
        const failure = run.report.cases
          .flatMap((c) => c.failures)
          .find((f) => f.check === 'generated.auth-rejected' && f.reproduction);
        expect(failure, 'a generated credential failure with a reproduction').toBeDefined();
        const script = failure!.reproduction!.join('\n');
        expect(script).toContain('# Set PETSTORE_API_KEY to the key first');
        expect(script).not.toContain('***');
        // The target is gone with its run: start the same faulty target again and point the script at it.
        const again = await startIndependentPetstore({ key, fault: 'key-with-suffix-accepted' });
        try {
          const file = join(tmp, `repro-${key.length}.sh`);
          writeFileSync(file, script.replace(/http:\/\/127\.0\.0\.1:\d+\/v1/g, again.url));
          // Asynchronously: the target answering the script lives in this process.
          const out = (await sh(file, key)).stdout;
          // The wrong credential (the key with text appended) is accepted again: the failure, reproduced.
          expect(out).toMatch(/^HTTP\/1\.1 20[01] /m);
          expect(again.requests.length).toBeGreaterThan(0);
          // Without the variable the same script sends another credential, and is refused.
          const without = (await sh(file, 'not-the-key')).stdout;
          expect(without).toMatch(/^HTTP\/1\.1 401 /m);
        } finally {
          await again.close();
        }
      }
    },
  );
});

/**
 * The words of what the page shows the runner sent (each request, curl line, reproduction script and the replay
 * command), split at anything but letters and digits: where a credential would be, a one-letter key would be a word
 * of its own. (What a target answered is left out: a short key is not searched for there; see docs/contract.md.)
 */
function htmlWords(html: string): Set<string> {
  const words = new Set<string>();
  for (const block of html.matchAll(/<h5>Request<\/h5><pre>([\s\S]*?)<\/pre>|<pre id="[^"]*">([\s\S]*?)<\/pre>/g))
    for (const word of (block[1] ?? block[2]!).split(/[^A-Za-z0-9]+/)) words.add(word);
  expect(words.size).toBeGreaterThan(10);
  return words;
}

function sh(file: string, key: string): Promise<{ stdout: string }> {
  return promisify(execFile)('sh', [file], { env: { ...process.env, PETSTORE_API_KEY: key } });
}
