import { describe, expect, it } from 'vitest';
import type { CaseResult, CoverageRow } from '../base/case-result.js';
import { buildReport } from './build-report.js';
import { checkCoverage } from './check-coverage.js';
import { formatTextSummary } from './format-text.js';
import { formatMarkdown } from './format-markdown.js';
import { formatJunit } from './format-junit.js';
import { formatHtml } from './format-html.js';

function result(partial: Partial<CaseResult> & Pick<CaseResult, 'id' | 'check' | 'operation'>): CaseResult {
  return { title: partial.id, status: 'passed', checks: {}, failures: [], notes: [], requests: [], durationMs: 1, ...partial };
}

const coverage: CoverageRow[] = [
  { operation: 'createPet', status: '201', documented: true, count: 3, state: 'exercised', role: 'create' },
  { operation: 'getPet', status: '200', documented: true, count: 2, state: 'exercised', role: 'read' },
  { operation: 'deletePet', status: '204', documented: true, count: 0, state: 'missing', role: 'delete' },
];

const cases: CaseResult[] = [
  result({ id: 'a', check: 'resource.created-readable', operation: 'createPet+getPet', checks: { 'resource.created-readable': 'passed', 'schema.response': 'passed' } }),
  result({
    id: 'b',
    check: 'resource.delete-gone',
    operation: 'createPet+getPet+deletePet',
    status: 'failed',
    checks: { 'resource.delete-gone': 'failed', 'schema.response': 'passed' },
    failures: [{ check: 'resource.delete-gone', operation: 'getPet', expected: '404', actual: '200' }],
  }),
  result({ id: 'c', check: 'resource.replace-exact', operation: 'replacePet', status: 'notRun', reason: 'the cap' }),
  result({ id: 'coverage', check: 'coverage.operation-status', operation: '*', coverage }),
];

describe('coverage per operation × role × check', () => {
  it('counts a check on every operation of its case, a failure on its own operation, a case not run as not run', () => {
    const rows = checkCoverage(cases, coverage).map((r) => `${r.operation} ${r.role ?? '-'} ${r.check} ${r.passed}/${r.failed}/${r.notRun}/${r.skipped}`);
    expect(rows).toEqual([
      'createPet create resource.created-readable 1/0/0/0',
      'createPet create schema.response 2/0/0/0',
      'getPet read resource.created-readable 1/0/0/0',
      'getPet read resource.delete-gone 0/1/0/0',
      'getPet read schema.response 2/0/0/0',
      'deletePet delete schema.response 1/0/0/0',
      'replacePet - resource.replace-exact 0/0/1/0',
    ]);
  });

  it('is in every report form: text, JSON, Markdown, JUnit and HTML', () => {
    const report = buildReport({ baseUrl: 'http://h/v1', runId: 'r', readOnly: false, requireCoverage: false }, cases, { startedAt: new Date(0), durationMs: 1 });
    expect(JSON.parse(JSON.stringify(report)).checkCoverage).toHaveLength(7);
    expect(formatTextSummary(report)).toContain('  getPet (read): 2 checks passed; failed: resource.delete-gone');
    expect(formatTextSummary(report)).toContain('  replacePet: 0 checks passed; not run: resource.replace-exact');
    expect(formatMarkdown(report)).toContain('| getPet | read | `resource.delete-gone` | 0 | 1 | 0 | 0 |');
    expect(formatJunit(report)).toContain('<property name="coverage replacePet - resource.replace-exact" value="passed 0, failed 0, not run 1, skipped 0"/>');
    expect(formatHtml(report, { document: { file: 'f', title: 't', version: '1' }, operations: [] })).toContain('<td>getPet</td><td>read</td><td><code>resource.delete-gone</code></td><td>0</td><td>1</td><td>0</td><td>0</td>');
  });
});
