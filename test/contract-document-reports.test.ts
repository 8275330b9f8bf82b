import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './support/cli.js';
import { startThingsService, type ThingsService } from './targets/things-service.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';

/**
 * Reports that speak of the document judged (issue 53, item 6): on a document that is not the Petstore interface's
 * (errors-as-declared.yaml: its errors are RFC 9457 problems), every report form names it, the replay line keeps
 * `--spec`, and each check rests on the document's declaration or an RFC, never on the interface's §7.
 */
const KEY = 'document-reports-key-6e02d4';
const dir = mkdtempSync(join(tmpdir(), 'petstore-document-reports-'));
const document = fileURLToPath(new URL('./fixtures/documents/errors-as-declared.yaml', import.meta.url));

let target: ThingsService;
beforeAll(async () => {
  // A 404 problem whose status member says 400: error.shape fails, so the page shows what it rests on.
  target = await startThingsService({}, 'problem-status-differs');
});
afterAll(() => target.close());

describe('a run on another document', () => {
  it('names the document in every form, replays with it, and rests error.shape on RFC 9457, not on the interface', async () => {
    const files = { json: join(dir, 'run.json'), junit: join(dir, 'run.xml'), html: join(dir, 'run.html') };
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const result = await runCli(
      ['contract', '--base-url', target.url, '--spec', document, '--runs', '20', '--seed', '7'].concat([
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--html',
        files.html,
      ]),
      { PETSTORE_API_KEY: KEY, GITHUB_STEP_SUMMARY: summary },
    );
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as ContractReport;
    expect(report.failedChecks).toEqual(['error.shape']);
    expect(report.spec).toBe(document);
    expect(report.document).toEqual({ title: 'Errors as declared', version: '1.0.0', basis: 'document' });

    // The terminal: the document named before anything runs; what the run creates are items, not pets.
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(
        /^petstore-kit contract → http:\/\/127\.0\.0\.1:\d+ \(writes allowed: items it creates are named contract-[\w.-]+-…; seed 7\)$/,
      ),
      `  judged against ${document}`,
    ]);
    const html = readFileSync(files.html, 'utf8');
    expect(html).toMatch(
      /<title>Errors as declared contract: the contract failed \(http:\/\/127\.0\.0\.1:\d+\)<\/title>/,
    );
    expect(html).toContain('<h1>Errors as declared contract: the contract failed</h1>');
    expect(html).not.toContain('Petstore');
    expect(html).not.toMatch(/\binterface\b/i);
    expect(html).toContain(`--spec ${document} --seed 7 --concurrency 1`);
    expect(html).toMatch(
      /<strong>Rests on<\/strong>: The document: the schema it declares for the error.*RFC 9457 §3\.1\.3/,
    );
    expect(readFileSync(files.junit, 'utf8')).toContain(`<property name="spec" value="${document}"/>`);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/^### Errors as declared contract: ❌ /);
    expect(markdown).toContain(`document \`${document}\``);
    // The failure itself speaks of the document's declaration.
    expect(report.groups[0]!.example.expected).toMatch(/^a body matching the schema \w+ declares for 404$/);
  }, 180_000);
});
