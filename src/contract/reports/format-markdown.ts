import { BUNDLED_DOCUMENT, type ContractReport } from './build-report.js';
import { coverageState, formatAnswer, generatedLine, summaryLine } from './format-text.js';
import type { Failure } from '../base/case-result.js';
import { escapeControls } from '../../text/excerpt.js';
import { cell } from '../../text/markdown-cell.js';
import { judgedNothing, nothingJudgedLine } from './operation-runs.js';

/**
 * A Markdown summary for `$GITHUB_STEP_SUMMARY`: the verdict (or why the run stopped), each group of failures with
 * what came back and its curl, coverage and notes. Every cell is escaped: a target's text can neither break the
 * table, nor add a link, an image or HTML.
 */
export function formatMarkdown(report: ContractReport): string {
  const verdict = report.stopped
    ? `⚠️ stopped early: ${cell(report.stopped)}`
    : judgedNothing(report.operations)
      ? `⚠️ ${cell(nothingJudgedLine(report.operations!))}`
      : report.summary.failed > 0
      ? `❌ ${report.summary.failed} case${report.summary.failed === 1 ? '' : 's'} failed (${report.failedChecks.map((c) => `\`${c}\``).join(', ')})`
      : (report.summary.notRun ?? 0) > 0
        ? `⚠️ ${report.summary.notRun} case${report.summary.notRun === 1 ? '' : 's'} not run: the contract is not shown to hold`
        : '✅ the contract holds';
  // "Petstore contract" on the interface's own document; any other is named by its title.
  const name = report.document?.basis === 'document' ? `${cell(report.document.title)} contract` : 'Petstore contract';
  const out = [
    `### ${name}: ${verdict}`,
    '',
    `Target \`${code(report.baseUrl)}\`${report.readOnly ? ' (read-only)' : ''}${report.spec === BUNDLED_DOCUMENT ? '' : `, document \`${code(report.spec)}\``}, run \`${code(report.runId)}\`: ${cell(summaryLine(report))}; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s.`,
  ];
  if (report.generated) out.push('', cell(generatedLine(report)));
  const notRun = report.cases.filter((c) => c.status === 'notRun');
  if (notRun.length > 0) {
    out.push('', '| not run | why |', '|---|---|');
    for (const result of notRun) out.push(`| \`${code(result.id)}\` | ${cell(result.reason ?? '')} |`);
  }
  const unsent = (report.operations ?? []).filter((o) => o.notRun !== undefined);
  if (unsent.length > 0) {
    out.push('', '| operation not run | method and path | why |', '|---|---|---|');
    for (const run of unsent) out.push(`| \`${code(run.operation)}\` | ${cell(`${run.method} ${run.path}`)} | ${cell(run.notRun ?? '')} |`);
  }
  if (report.groups.length > 0) {
    out.push('', '| check | operation | case | expected | actual | got |', '|---|---|---|---|---|---|');
    for (const group of report.groups) {
      const f = group.example;
      out.push(`| \`${f.check}\` | ${cell(f.operation)} | ${cell(f.title)}${group.count > 1 ? ` (×${group.count})` : ''} | ${cell(f.expected)} | ${cell(f.actual)}${schemaPaths(f)} | ${cell(formatAnswer(f) ?? '')} |`);
    }
    out.push('', '<details><summary>Requests to reproduce the failures</summary>', '', '```sh');
    for (const group of report.groups) {
      if (group.example.reproduction) out.push(`# ${fence(`${group.check}: ${group.example.title}`)}`, ...group.example.reproduction.map(fence));
      else if (group.example.request) out.push(`# ${fence(`${group.check}: ${group.example.title}`)}`, fence(group.example.request));
    }
    out.push('```', '', '</details>');
  }
  if (report.coverage.length > 0) {
    out.push('', '| operation | status | responses | |', '|---|---|---|---|');
    for (const row of report.coverage) out.push(`| ${cell(row.operation)} | ${cell(row.status)} | ${row.count} | ${coverageState(row)} |`);
  }
  if (report.checkCoverage.length > 0) {
    out.push('', '<details><summary>Coverage per operation × role × check</summary>', '', '| operation | role | check | passed | failed | not run | skipped |', '|---|---|---|---|---|---|---|');
    for (const row of report.checkCoverage) out.push(`| ${cell(row.operation)} | ${cell(row.role ?? '')} | \`${row.check}\` | ${row.passed} | ${row.failed} | ${row.notRun} | ${row.skipped} |`);
    out.push('', '</details>');
  }
  const skipped = report.cases.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) {
    // What a run left out by choice (--read-only's writes, the phase off), each with why: a summary hides nothing.
    out.push('', `<details><summary>Skipped ${skipped.length} case${skipped.length === 1 ? '' : 's'}</summary>`, '');
    for (const result of skipped) out.push(`- \`${code(result.id)}\` ${cell(result.reason ?? '')}`);
    out.push('', '</details>');
  }
  if (report.notes.length > 0) {
    out.push('', '<details><summary>Notes</summary>', '');
    for (const note of report.notes) out.push(`- \`${note.check}\` ${cell(note.message)}`);
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}

function schemaPaths(failure: Failure): string {
  const paths = (failure.schemaErrors ?? []).flatMap((e) => (e.schemaPath ? [`\`${code(e.schemaPath)}\``] : []));
  return paths.length ? ` (schema ${paths.join(', ')})` : '';
}

/** Text inside a code span: no backtick can close it. */
function code(text: string): string {
  return escapeControls(text).replace(/`/g, "'");
}

/** Text inside the fenced block: a line of backticks cannot close it. */
function fence(text: string): string {
  return escapeControls(text).replace(/```/g, "'''");
}
