import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompat } from './compat.js';
import { writeCompatFixture } from '../../test/support/report-fixtures.js';
import type { CompatReport } from '../compat/report/compat-report.js';

// `compat --html`: the page is written whatever the exit code, from the report the JSON form holds.
const dir = mkdtempSync(join(tmpdir(), 'petstore-compat-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => vi.restoreAllMocks());
const page = join(dir, 'compat.html');
afterEach(() => rmSync(page, { force: true }));

/** The text of an element's markup, tags dropped and references read. */
function text(markup: string): string {
  return markup
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('petstore-kit compat --html', () => {
  const files = writeCompatFixture(dir);
  const args = [files.old, files.new, '--journal', files.journal, '--date', '2026-11-27'];

  it('shows each finding with its check id, its operation and both documents at its places, numbered as in the files', async () => {
    const json = join(dir, 'compat.json');
    expect(await runCompat([...args, '--html', page, '--json', json])).toBe(1);
    const html = readFileSync(page, 'utf8');
    const report = JSON.parse(readFileSync(json, 'utf8')) as CompatReport;
    expect(html).toContain('<h1>API compatibility: not compatible</h1>');
    expect(html).toContain('Lifecycle judged on</dt><dd>2026-11-27');
    for (const level of ['breaking', 'warning', 'info'] as const)
      expect(html).toContain(`<span class="badge ${level}">${report.summary[level]} ${level}</span>`);
    const articles = [...html.matchAll(/<article class="group"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => m[1]!);
    expect(articles).toHaveLength(report.findings.length);
    const oldLines = readFileSync(files.old, 'utf8').split('\n');
    const newLines = readFileSync(files.new, 'utf8').split('\n');
    for (const found of report.findings) {
      const article = articles.find(
        (a) => a.includes(`<code>${found.check}</code>`) && text(a).includes(found.message),
      );
      expect(article, found.check).toBeDefined();
      // The check id links to its entry, which the page defines.
      expect(article).toContain(`<a href="#rule-${found.check}">`);
      expect(html).toContain(`<dt id="rule-${found.check}">`);
      if (found.operation) expect(text(article!)).toContain(`Operation: ${found.operation}`);
      // Each side's marked line is the line of the file with that number.
      for (const [pointer, lines] of [
        [found.old, oldLines],
        [found.new, newLines],
      ] as const) {
        if (!pointer) continue;
        const marked = new RegExp(
          `<span class="at"><span class="ln" aria-hidden="true"> *(\\d+)</span> ([^\\n]*)</span>`,
        );
        const panes = article!.split('<div class="pane">').slice(1);
        const side = lines === oldLines ? panes[0] : panes[1];
        const [, number, line] = marked.exec(side ?? '') ?? [];
        expect(number, `${found.check} ${pointer}`).toBeDefined();
        expect(text(line!)).toBe(lines[Number(number) - 1]);
      }
    }
  });

  it("groups the journal's broken requests by operation and change, with a count and the first three", async () => {
    expect(await runCompat([...args, '--html', page])).toBe(1);
    const html = readFileSync(page, 'utf8');
    const rows = [
      ...html.matchAll(
        /<tr data-filterable data-level="(\w+)" data-check="([^"]+)" data-operation="([^"]+)">([\s\S]*?)<\/tr>/g,
      ),
    ];
    const groups = rows.map((m) => {
      const cells = [...m[4]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
      return {
        check: m[2],
        operation: text(m[3]!),
        change: text(cells[3]!),
        count: Number(text(cells[4]!)),
        examples: [...cells[5]!.matchAll(/<li>/g)].length,
      };
    });
    expect(groups).toEqual([
      {
        check: 'journal.request-refused',
        operation: 'GET /pets (listPets)',
        change: 'would be refused by GET /pets (listPets): query.limit must be <= 50',
        count: 10,
        examples: 3,
      },
      {
        check: 'journal.operation-removed',
        operation: 'GET /pets/{petId} (getPet)',
        change: expect.stringMatching(/^used GET \/pets\/\{petId\} \(getPet\), which the new document no longer has/),
        count: 10,
        examples: 3,
      },
      {
        check: 'journal.request-refused',
        operation: 'POST /pets (createPet)',
        change: 'would be refused by POST /pets (createPet): body.ownerId is required',
        count: 10,
        examples: 3,
      },
    ]);
    expect(text(html)).toContain('request #1 GET /v1/pets?limit=60 → 200');
    expect(text(html)).toContain('40 recorded exchanges, 40 replayed');
  });

  it('escapes what a document says: a description cannot add markup to the page', async () => {
    const hostile = join(dir, 'hostile.yaml');
    writeFileSync(
      hostile,
      readFileSync(files.new, 'utf8').replace(
        'maximum: 50',
        "x-note: '</pre><script>alert(1)</script><img src=x onerror=alert(2)>'\n            maximum: 50",
      ),
    );
    expect(await runCompat([files.old, hostile, '--html', page])).toBe(1);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
  });

  it('is written when the documents cannot be judged (exit 2), replacing an earlier page', async () => {
    writeFileSync(page, 'an earlier run');
    expect(await runCompat([files.old, join(dir, 'missing.yaml'), '--html', page])).toBe(2);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<h1>API compatibility: not judged</h1>');
    expect(html).toMatch(/Not judged<\/dt><dd>.*missing\.yaml: .*ENOENT/);
  });

  it('says a compatible change is compatible', async () => {
    expect(await runCompat([files.old, files.old, '--html', page])).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('<h1>API compatibility: compatible</h1>');
  });
});
