import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describeBrowser, launchBrowser, openWatchedPage, type Browser, type PageWatch } from './support/browser.js';
import {
  failingReport,
  htmlContext,
  notRunReport,
  passingReport,
  writeCompatFixture,
} from './support/report-fixtures.js';
import { formatHtml } from '../src/contract/reports/format-html.js';
import { formatCompatHtml } from '../src/compat/report/format-html.js';
import { loadDocument } from '../src/compat/load-document.js';
import { compareDocuments } from '../src/compat/compare-documents.js';
import { readJournal } from '../src/compat/read-journal.js';
import { replayJournal } from '../src/compat/replay-journal.js';
import { buildCompatReport } from '../src/compat/report/compat-report.js';
import { SCREENSHOT_VIEWPORT, compareScreenshots, screenshotFile } from './support/screenshots.js';

// The four report pages in a real browser: each loads from file:// with no console error and no request, its filters
// work from the keyboard, axe-core finds no serious or critical violation, and it looks as its committed screenshot
// does (docs/images/report-*.png, which README shows): UPDATE_SCREENSHOTS=1 writes them again (scripts/screenshot-reports.mjs).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'petstore-report-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The compat page of the fixture's two documents and journal, labelled as a CI job would name them. */
async function compatPage(): Promise<string> {
  const files = writeCompatFixture(dir);
  const oldText = readFileSync(files.old, 'utf8');
  const newText = readFileSync(files.new, 'utf8');
  const [old, current] = await Promise.all([
    loadDocument({ label: 'old.yaml', text: oldText }),
    loadDocument({ label: 'openapi.yaml', text: newText }),
  ]);
  const date = new Date('2026-11-27T00:00:00Z');
  const findings = compareDocuments(old, current, { date, minNoticeDays: 180 });
  const journal = replayJournal(
    'journal.json',
    readJournal(readFileSync(files.journal, 'utf8'), 'journal.json'),
    old,
    current,
    findings,
  );
  const run = {
    version: '0.1.0',
    old: 'old.yaml',
    new: 'openapi.yaml',
    date: '2026-11-27',
    minNoticeDays: 180,
    failOn: 'breaking' as const,
  };
  return formatCompatHtml(buildCompatReport(run, findings, journal), { old: oldText, new: newText });
}

/** The page's globals this file reads: the project compiles without the DOM library. */
interface PageGlobals {
  document: { activeElement: unknown };
}

interface PageCase {
  name: string;
  html: () => string | Promise<string>;
  /** Filters to set from the keyboard: the value each picks (every item still shown carries it) and how many it leaves. */
  filters: { field: string; value: string; shown: number }[];
}

const pages: PageCase[] = [
  {
    name: 'contract-passing',
    html: () => formatHtml(passingReport(), htmlContext),
    filters: [{ field: 'operation', value: 'getPet', shown: 4 }],
  },
  {
    name: 'contract-failing',
    html: () => formatHtml(failingReport(), htmlContext),
    filters: [
      { field: 'outcome', value: 'failed', shown: failingReport().summary.failed },
      { field: 'check', value: 'list.limit', shown: 2 },
    ],
  },
  {
    name: 'contract-not-run',
    html: () => formatHtml(notRunReport(), htmlContext),
    filters: [{ field: 'outcome', value: 'notRun', shown: 2 }],
  },
  {
    name: 'compat',
    html: compatPage,
    filters: [
      { field: 'level', value: 'breaking', shown: 3 },
      // An operation's label holds spaces: it is matched whole.
      { field: 'operation', value: 'POST /pets (createPet)', shown: 2 },
    ],
  },
];

describeBrowser('the report pages in Chromium', () => {
  let browser: Browser;
  const files = new Map<string, string>();

  beforeAll(async () => {
    browser = await launchBrowser();
    for (const page of pages) {
      const file = join(dir, `${page.name}.html`);
      writeFileSync(file, await page.html());
      files.set(page.name, file);
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(name: string): Promise<PageWatch> {
    const watch = await openWatchedPage(browser, ['file://']);
    await watch.page.setViewportSize(SCREENSHOT_VIEWPORT);
    await watch.page.goto(pathToFileURL(files.get(name)!).href);
    return watch;
  }

  it.each(pages.map((p) => [p.name, p] as const))('%s: loads with no console error and no request', async (name) => {
    const watch = await open(name);
    // Every part of the page, shown: a lazy load would happen now.
    await watch.page.keyboard.press('End');
    await watch.page.waitForLoadState('load');
    expect(watch.blocked).toEqual([]);
    expect(watch.errors).toEqual([]);
    // Exactly one request: the page itself.
    await watch.page.close();
  });

  it.each(pages.flatMap((p) => p.filters.map((filter) => [p.name, filter.field, filter] as const)))(
    '%s: its %s filter works from the keyboard',
    async (name, _, { shown, ...filter }) => {
      const watch = await open(name);
      const { page } = watch;
      const select = page.locator(`select[data-filter="${filter.field}"]`);
      // Reached with Tab alone, from the top of the page.
      for (
        let presses = 0;
        presses < 30 &&
        !(await select.evaluate(
          (element) => element === (globalThis as unknown as PageGlobals).document.activeElement,
        ));
        presses++
      )
        await page.keyboard.press('Tab');
      expect(
        await select.evaluate((element) => element === (globalThis as unknown as PageGlobals).document.activeElement),
      ).toBe(true);
      // The choice made with the arrow keys, as a keyboard user makes it.
      const options = await select
        .locator('option')
        .evaluateAll((elements) => elements.map((e) => (e as unknown as { value: string }).value));
      for (let i = 0; i < options.indexOf(filter.value); i++) await page.keyboard.press('ArrowDown');
      expect(await select.inputValue()).toBe(filter.value);
      const counted = await visibleCounted(page, filter.field);
      expect(counted.length).toBe(shown);
      for (const values of counted)
        expect(values === filter.value || values.split(' ').includes(filter.value)).toBe(true);
      expect(await page.locator('[data-filter-count]').innerText()).toBe(`${shown} shown`);
      // Back to "all": everything again.
      await page.keyboard.press('Home');
      expect(await page.locator('[data-filterable][hidden]').count()).toBe(0);
      expect(watch.errors).toEqual([]);
      await page.close();
    },
  );

  it.each(pages.map((p) => [p.name, p] as const))(
    '%s: axe-core finds no serious or critical violation',
    async (name) => {
      const watch = await open(name);
      // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
      await watch.page.evaluate(axeSource);
      const violations = await watch.page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
          }
        ).axe;
        const result = await axe.run();
        return result.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
        }));
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await watch.page.close();
    },
  );

  it.each(pages.map((p) => [p.name, p] as const))('%s: looks as its committed screenshot does', async (name) => {
    const watch = await open(name);
    const shot = await watch.page.screenshot({ animations: 'disabled', caret: 'hide' });
    await watch.page.close();
    const baseline = screenshotFile(name);
    if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(baseline)) {
      writeFileSync(baseline, shot);
      if (process.env.UPDATE_SCREENSHOTS !== '1') throw new Error(`no baseline: ${baseline} written; commit it`);
      return;
    }
    const difference = await compareScreenshots(browser, readFileSync(baseline), shot);
    expect(difference, `${name}: ${JSON.stringify(difference)}; UPDATE_SCREENSHOTS=1 writes it again`).toMatchObject({
      sameSize: true,
      withinTolerance: true,
    });
  });
});

/** The filter field's values of the counted items still shown (case rows, findings). */
async function visibleCounted(page: Page, field: string): Promise<string[]> {
  return page
    .locator('[data-counted]:not([hidden])')
    .evaluateAll((elements, name) => elements.map((e) => e.getAttribute(`data-${name}`) ?? ''), field);
}
