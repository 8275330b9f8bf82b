import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { runCli } from './support/cli.js';
import { startIndependentPetstore } from './targets/independent-petstore.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { DEADLINE_FLAGS, limitForRuns } from './support/run-budget.js';
import { freePort } from './support/free-port.js';
import { chromiumPath, launchBrowser, openWatchedPage } from './support/browser.js';

// `contract --html FILE` from the built CLI: a real run's page, written whatever the exit code.
const KEY = 'html-report-key-9d2e71';
const tmp = mkdtempSync(join(tmpdir(), 'petstore-contract-html-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The size a default run's page stays under (docs/contract.md, "Reports"). */
const PAGE_BUDGET = 300 * 1024;

describe('petstore-kit contract --html', () => {
  it(
    'a default run against a faulty target: exit 1, every failed check on the page, under 300 KB, and it loads in Chromium with no error and no request',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, fault: 'parallel-creates-same-id' });
      const files = { html: join(tmp, 'run/report.html'), json: join(tmp, 'run/report.json') };
      try {
        const result = await runCli(
          [
            'contract',
            '--base-url',
            target.url,
            '--seed',
            '748513138',
            ...DEADLINE_FLAGS,
            '--html',
            files.html,
            '--json',
            files.json,
          ],
          { PETSTORE_API_KEY: KEY },
        );
        expect(result.code, result.stdout.slice(-2000)).toBe(1);
      } finally {
        await target.close();
      }
      const page = readFileSync(files.html, 'utf8');
      const report = JSON.parse(readFileSync(files.json, 'utf8')) as ContractReport;
      expect(statSync(files.html).size).toBeLessThan(PAGE_BUDGET);
      expect(page).toContain('<h1>Petstore contract: the contract failed</h1>');
      expect(page).toContain(`seed <code>748513138</code>`);
      expect(page).toContain('Petstore API 1.0.0 <span class="muted">(openapi.yaml)</span>');
      expect(report.failedChecks.length).toBeGreaterThan(0);
      for (const check of report.failedChecks)
        expect(page).toContain(`<section class="check" data-filterable data-check="${check}"`);
      // Every case is a row of the page, with the outcome the JSON report gives it.
      const rows = [...page.matchAll(/data-outcome="(\w+)[^"]*"><td>.*?<code>([^<]*)<\/code>/g)].map(
        (m) => `${m[2]} ${m[1]}`,
      );
      expect(rows.sort()).toEqual(report.cases.map((c) => `${c.id} ${c.status}`).sort());
      // The key only where the runner put it, read from the environment.
      expect(page).not.toContain(KEY);
      expect(page).toContain('Authorization: Bearer ${PETSTORE_API_KEY}');
      // Each request's latency was filed under an operation of the document.
      expect(page).not.toContain('<th scope="row">other</th>');
      if (existsSync(chromiumPath)) {
        const browser = await launchBrowser();
        try {
          const watch = await openWatchedPage(browser, ['file://']);
          await watch.page.goto(pathToFileURL(files.html).href);
          await watch.page.keyboard.press('End');
          expect(watch.blocked).toEqual([]);
          expect(watch.errors).toEqual([]);
        } finally {
          await browser.close();
        }
      }
    },
  );

  it('a target that cannot be checked (exit 2): the page from --config says so, and replaces an earlier one', async () => {
    const port = await freePort();
    const html = join(tmp, 'refused.html');
    writeFileSync(html, 'an earlier run');
    const config = join(tmp, 'config.json');
    writeFileSync(config, JSON.stringify({ html, 'base-url': `http://127.0.0.1:${port}/v1` }));
    const result = await runCli(['contract', '--config', config], { PETSTORE_API_KEY: KEY });
    expect(result.code).toBe(2);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<h1>Petstore contract: could not judge the contract</h1>');
    expect(page).toMatch(/Exit 2: could not judge — the run stopped early: /);
    expect(page).not.toContain(KEY);
  });

  it('a flag the command does not know still writes the page named (exit 2)', async () => {
    const html = join(tmp, 'usage.html');
    writeFileSync(html, 'an earlier run');
    const result = await runCli(['contract', '--html', html, '--bogus'], { PETSTORE_API_KEY: KEY });
    expect(result.code).toBe(2);
    expect(readFileSync(html, 'utf8')).toMatch(/Stopped early<\/dt><dd>usage error: Unknown option &#39;--bogus&#39;/);
  });
});
