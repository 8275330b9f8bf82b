import { describe, expect, it } from 'vitest';
import { finding } from '../finding.js';
import { buildCompatReport, notJudgedReport, type ReportRun } from './compat-report.js';
import { formatCompatText } from './format-text.js';
import { formatCompatJunit } from './format-junit.js';
import { formatCompatMarkdown } from './format-markdown.js';

const run: ReportRun = {
  version: '0.0.0',
  old: 'old.yaml',
  new: 'new.yaml',
  date: '2026-11-26',
  minNoticeDays: 180,
  failOn: 'breaking',
};
// A document's names are text from outside: a property called like this must not break a line, a table or XML.
const hostile = 'x\n::error ::<img src=x>|`]&"\u001b[31m';
const findings = [
  finding(
    'response.property-removed',
    `GET /pets (listPets): response 200 body[].${hostile} is no longer in the response`,
    { operation: 'GET /pets (listPets)', old: '#/components/schemas/Pet', new: '#/components/schemas/Pet' },
  ),
  finding('response.enum-value-added', 'GET /pets (listPets): response 200 body[].status may now be "adopted"', {
    operation: 'GET /pets (listPets)',
    old: '#/components/schemas/PetStatus/enum',
    new: '#/components/schemas/PetStatus/enum',
  }),
  finding('operation.added', 'DELETE /pets/{petId} (deletePet) is a new operation', {
    new: '#/paths/~1pets~1%7BpetId%7D/delete',
  }),
];

describe('compat reports', () => {
  it('text: breaking first, each with its pointers, the summary last; outside text escaped', () => {
    const text = formatCompatText(buildCompatReport(run, findings));
    expect(text.split('\n')[0]).toBe('petstore-kit compat old.yaml → new.yaml (judged on 2026-11-26)');
    expect(text).toContain(
      'BREAKING response.property-removed  GET /pets (listPets): response 200 body[].x\\n::error ::<img',
    );
    expect(text).not.toContain('\u001b');
    expect(text.indexOf('BREAKING')).toBeLessThan(text.indexOf('WARNING'));
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '1 breaking, 1 warning, 1 info: not compatible for clients of old.yaml (exit 1)',
    );
  });

  it('exit codes: a warning fails only with --fail-on warning; nothing found is compatible', () => {
    expect(buildCompatReport(run, findings.slice(1)).exitCode).toBe(0);
    expect(buildCompatReport({ ...run, failOn: 'warning' }, findings.slice(1)).exitCode).toBe(1);
    expect(buildCompatReport({ ...run, failOn: 'warning' }, findings.slice(2)).exitCode).toBe(0);
    expect(formatCompatText(buildCompatReport(run, []))).toContain(
      '0 breaking, 0 warnings, 0 info: compatible for clients of old.yaml (exit 0)',
    );
  });

  it('JUnit: one testcase per finding, a failure for what fails the gate, an error when not judged', () => {
    const xml = formatCompatJunit(buildCompatReport(run, findings));
    expect(xml).toContain('<testsuites name="petstore-kit compat" tests="3" failures="1" errors="0" skipped="0">');
    expect(xml).toContain(
      '<testcase classname="response.property-removed" name="breaking: GET /pets (listPets)" time="0">',
    );
    expect(xml).toContain(
      '<failure type="response.property-removed" message="GET /pets (listPets): response 200 body[].x',
    );
    expect(xml).toContain('&lt;img src=x&gt;|`]&amp;&quot;');
    expect(xml).not.toContain('\u001b');
    expect(formatCompatJunit(buildCompatReport({ ...run, failOn: 'warning' }, findings))).toContain('failures="2"');
    const notJudged = formatCompatJunit(
      notJudgedReport(run, 'new.yaml: Error resolving $ref pointer "#/components/schemas/Animals"'),
    );
    expect(notJudged).toContain('tests="1" failures="0" errors="1"');
    expect(notJudged).toContain(
      '<error type="compat.not-judged" message="new.yaml: Error resolving $ref pointer &quot;#/components/schemas/Animals&quot;">',
    );
  });

  it('Markdown: the verdict, one row per finding; a name cannot break the table or add HTML', () => {
    const markdown = formatCompatMarkdown(buildCompatReport(run, findings));
    expect(markdown.split('\n')[0]).toBe('### Petstore compat: ❌ not compatible (`response.property-removed`)');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| '));
    expect(rows).toHaveLength(4);
    // Every row has the header's five cells: an escaped | does not split one.
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length).toBe(7);
    expect(markdown).not.toContain('<img');
    expect(formatCompatMarkdown(notJudgedReport(run, 'old.yaml: not an OpenAPI 3 document')).split('\n')[0]).toBe(
      '### Petstore compat: ⚠️ not judged',
    );
  });
});
