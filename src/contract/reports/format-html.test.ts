import { describe, expect, it } from 'vitest';
import { formatHtml, replayCommand } from './format-html.js';
import { verdictOf } from './report-verdict.js';
import { readCurl } from './read-curl.js';
import { latencyByOperation, percentile } from './latency.js';
import { buildReport } from './build-report.js';
import {
  HOSTILE,
  failingReport,
  htmlContext,
  notRunReport,
  passingReport,
} from '../../../test/support/report-fixtures.js';

/** The rows of the page's case table, as [outcome, case id]. */
function caseRows(page: string): [string, string][] {
  return [...page.matchAll(/<tr data-filterable data-counted [^>]*data-outcome="([^"]*)"><td>.*?<code>([^<]*)<\/code>/g)].map(
    (m) => [m[1]!, m[2]!],
  );
}

/** The matrix cell of an operation × check, as the text of its badges. */
function matrixCell(page: string, operation: string, check: string): string {
  const head = /<thead><tr><th scope="col">operation<\/th>(.*?)<\/tr><\/thead>/.exec(page)![1]!;
  const column = [...head.matchAll(/<th scope="col"><span class="vertical">([^<]*)<\/span><\/th>/g)].map((m) => m[1]);
  const row = new RegExp(`<tr data-filterable data-operation="${operation}"[^>]*><th scope="row">[^<]*</th>(.*?)</tr>`).exec(page)![1]!;
  const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
  return cells[column.indexOf(check)]!;
}

describe('the contract page', () => {
  it.each([
    ['a passing run', passingReport(), 0, 'the contract holds'],
    ['a failing run', failingReport(), 1, 'the contract failed'],
    ['a run with cases not run', notRunReport(), 2, 'could not judge the contract'],
  ])('says the verdict of %s as its exit code says it', (_, report, exitCode, title) => {
    const page = formatHtml(report, htmlContext);
    expect(verdictOf(report).exitCode).toBe(exitCode);
    expect(page).toContain(`<h1>Petstore contract: ${title}</h1>`);
    expect(page).toContain(`Exit ${exitCode}: `);
  });

  it('loads nothing from anywhere: no URL in a tag, a style or a script, and a policy that forbids it', () => {
    for (const report of [passingReport(), failingReport(), notRunReport()]) {
      const page = formatHtml(report, htmlContext);
      expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
      expect(page).not.toMatch(/<(link|iframe|object|embed|img|audio|video|source)\b/i);
      expect(page).not.toMatch(/<[a-z][^>]*\s(src|srcset|action|formaction)=/i);
      expect(page).not.toMatch(/url\(|@import|@font-face/i);
      // Links only to places in the page.
      for (const [, href] of page.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#/);
    }
  });

  it("escapes a target's text: markup, scripts and bidi overrides come out as text", () => {
    const page = formatHtml(failingReport(), htmlContext);
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('\u202e');
    expect(page).not.toContain('\u001b');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;\\u202e\\x1b[31m');
    // One script element: the page's own.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(HOSTILE).toContain('<script>');
  });

  it('never shows a check that was not run as passed, in the matrix or the case list', () => {
    const page = formatHtml(notRunReport(), htmlContext);
    // stateful.list/pets was not run and judged nothing: its cell says ○, never ✓.
    expect(matrixCell(page, 'listPets', 'stateful.list')).toBe('○');
    // generated.valid-accepted/listPets was not run although its requests were judged: ○ beside the ✓ of other checks.
    expect(matrixCell(page, 'listPets', 'generated.valid-accepted')).toBe('○');
    expect(caseRows(page).filter(([outcome]) => outcome.startsWith('notRun')).map(([, id]) => id)).toEqual([
      'generated.valid-accepted/listPets',
      'stateful.list/pets',
    ]);
    expect(matrixCell(page, 'createPet', 'create.echo')).toBe('–');
  });

  it('files each failure under its check, with the sentence it rests on, the exchange, the curl line and the shrunk steps', () => {
    const page = formatHtml(failingReport(), htmlContext);
    const checks = [...page.matchAll(/<section class="check" data-filterable data-check="([^"]+)"/g)].map((m) => m[1]);
    expect(checks).toEqual([
      'list.limit',
      'schema.response',
      'auth.required',
      'content-type.json',
      'server.responds',
      'generated.valid-accepted',
      'stateful.unique-ids',
      'suite.error',
    ]);
    expect(page).toContain('<strong>Rests on</strong>: Interface §4.1: limit is the &quot;Maximum number of animals to return.&quot;');
    // list.limit's two failures differ in the answer's shape only by numbers: two groups, one check.
    expect(page).toContain('GET http://127.0.0.1:4010/v1/pets?limit=1\nAccept: application/json\nAuthorization: Bearer ${PETSTORE_API_KEY}');
    expect(page).toContain('no answer: the request timed out after 5000 ms');
    expect(page).toContain('<td><code>response[0].categoryId</code></td><td>type</td>');
    expect(page).toMatch(/<button type="button" class="copy" data-copy="failure-0-curl">Copy<\/button><pre id="failure-0-curl">curl -sS -i/);
    const steps = /The shrunk example, step by step<\/h5>[\s\S]*?<ol>(.*?)<\/ol>/.exec(page.slice(page.indexOf('data-check="stateful.unique-ids"')))![1]!;
    expect([...steps.matchAll(/<li><code>([^<]*)<\/code>/g)].map((m) => m[1])).toEqual([
      'POST http://127.0.0.1:4010/v1/pets',
      'GET http://127.0.0.1:4010/v1/pets?limit=5',
      'POST http://127.0.0.1:4010/v1/pets',
    ]);
    expect(page).toContain('sequence: create(categoryId=0), list(limit=5, status=-), create(categoryId=0)');
  });

  it('gives the command that replays the run: its target, seed and mode, the key from the environment', () => {
    expect(replayCommand(passingReport())).toBe(
      'PETSTORE_API_KEY=… npx petstore-kit contract --base-url http://127.0.0.1:4010/v1 --seed 748513138 --concurrency 1',
    );
    expect(replayCommand(notRunReport())).toMatch(/ --read-only$/);
    const noGenerated = buildReport({ baseUrl: "http://h/v1?x='y'", runId: 'r', readOnly: false, requireCoverage: true }, [], { startedAt: new Date(0) });
    expect(replayCommand(noGenerated)).toBe(`PETSTORE_API_KEY=… npx petstore-kit contract --base-url 'http://h/v1?x='\\''y'\\''' --require-coverage`);
  });

  it('charts the median and p95 of each operation, filing requests by method and path template', () => {
    const rows = latencyByOperation(passingReport(), htmlContext.operations);
    expect(rows.map((r) => [r.operation, r.requests])).toEqual([
      ['listPets', 9],
      ['createPet', 4],
      ['getPet', 6],
    ]);
    expect(rows[2]).toMatchObject({ medianMs: 7, p95Ms: 9, maxMs: 9 });
    const page = formatHtml(passingReport(), htmlContext);
    expect(page).toMatch(/<svg role="img" aria-labelledby="latency-svg-title"/);
    expect(page).toContain('<th scope="row">getPet</th><td>6</td><td>7</td><td>9</td><td>9</td>');
  });

  it.each([
    [[1], 0.5, 1],
    [[1, 2], 0.5, 1],
    [[1, 2, 3, 4], 0.5, 2],
    [Array.from({ length: 20 }, (_, i) => i + 1), 0.95, 19],
    [Array.from({ length: 100 }, (_, i) => i + 1), 0.95, 95],
  ])('percentile(%j, %d) is %d (nearest rank)', (values, p, want) => {
    expect(percentile(values, p)).toBe(want);
  });
});

describe('readCurl', () => {
  it.each([
    ['curl -sS -i http://h/v1/pets -H \'Accept: application/json\'', { method: 'GET', url: 'http://h/v1/pets', headers: ['Accept: application/json'] }],
    [
      `curl -sS -i -X POST 'http://h/v1/pets?a=b c' -H "Authorization: Bearer \${PETSTORE_API_KEY}" -H 'Content-Type:' --data-raw '{"name":"O'\\''Brien"}'`,
      { method: 'POST', url: 'http://h/v1/pets?a=b c', headers: ['Authorization: Bearer ${PETSTORE_API_KEY}'], body: `{"name":"O'Brien"}` },
    ],
    ['curl -sS -i "http://h/v1/pets?api_key=${PETSTORE_API_KEY}" -H "X: \\"q\\" \\$HOME"', { method: 'GET', url: 'http://h/v1/pets?api_key=${PETSTORE_API_KEY}', headers: ['X: "q" $HOME'] }],
  ])('%s', (line, want) => {
    expect(readCurl(line)).toEqual(want);
  });

  it('is undefined for a line that is not a curl command', () => {
    expect(readCurl('# Set PETSTORE_API_KEY to the key first')).toBeUndefined();
  });
});

describe('the size rule as docs/contract.md and docs/compat.md state it', () => {
  it('names the limits the code has', async () => {
    const { readFileSync } = await import('node:fs');
    const flat = (file: string) => readFileSync(new URL(`../../../docs/${file}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const { MAX_DETAILED_GROUPS, MAX_SHOWN_TEXT } = await import('./format-html.js');
    const { MAX_EXCERPTED_FINDINGS } = await import('../../compat/report/format-html.js');
    const { MAX_EXCERPT_LINES, CONTEXT_LINES } = await import('../../compat/report/document-excerpt.js');
    const { EXAMPLES_PER_GROUP } = await import('../../compat/report/group-journal.js');
    expect(flat('contract.md')).toContain(
      `the first ${MAX_DETAILED_GROUPS} failure groups are shown in full, the rest by their first line; a body or a curl line is cut at ${MAX_SHOWN_TEXT.toLocaleString('en')} characters`,
    );
    expect(flat('compat.md')).toContain(`(${['', 'one', 'two', 'three'][CONTEXT_LINES]} lines before the place, at most ${MAX_EXCERPT_LINES} in all;`);
    expect(flat('compat.md')).toContain(`the first ${MAX_EXCERPTED_FINDINGS} carry excerpts (two of at most ${MAX_EXCERPT_LINES} lines each)`);
    expect(flat('compat.md')).toContain(`its first ${['', 'one', 'two', 'three'][EXAMPLES_PER_GROUP]} requests`);
  });
});

describe('the size rule on a large run', () => {
  it('shows the first groups in full, the rest by a line, and cuts long bodies', () => {
    const big = 'y'.repeat(3900);
    const cases = Array.from({ length: 400 }, (_, i) => ({
      id: `list.limit/listPets/${i}`,
      check: 'list.limit' as const,
      operation: 'listPets',
      title: `case ${i}`,
      status: 'failed' as const,
      checks: { 'list.limit': 'failed' as const },
      // A distinct status each, so that no two failures share a group.
      failures: [
        {
          check: 'list.limit' as const,
          operation: 'listPets',
          expected: 'at most 1 pet',
          actual: `${i} pets`,
          request: `curl -sS -i http://h/v1/pets?limit=1 --data-raw '${big}'`,
          response: { status: 200 + i, contentType: 'application/json', body: big },
        },
      ],
      notes: [],
      requests: [],
      durationMs: 1,
    }));
    const report = buildReport({ baseUrl: 'http://h/v1', runId: 'big', readOnly: false, requireCoverage: false }, cases, {
      startedAt: new Date(0),
      durationMs: 1,
    });
    expect(report.groups).toHaveLength(400);
    const page = formatHtml(report, htmlContext);
    expect(page.match(/Shown in full in the JSON report/g)).toHaveLength(400 - 50);
    expect(page.match(/<h5>Answer<\/h5>/g)).toHaveLength(50);
    expect(page).toContain(`${'y'.repeat(2000)}… (3900 characters)`);
    expect(page).not.toContain('y'.repeat(2001));
    // Bounded by the groups shown in full: 50 × (request + answer + curl, each cut at 2,000) and a line for each other.
    expect(page.length).toBeLessThan(50 * 3 * 2100 + 400 * 2000);
  });
});
