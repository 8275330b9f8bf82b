import type { ContractReport } from './build-report.js';
import { coverageState, summaryLine } from './format-text.js';
import type { Failure } from './case-result.js';

/** A Markdown summary for `$GITHUB_STEP_SUMMARY`: the verdict, each failure with its curl, coverage and notes. */
export function formatMarkdown(report: ContractReport): string {
  const verdict = report.summary.failed === 0 ? '✅ the contract holds' : `❌ ${report.summary.failed} failed (${report.failedChecks.map((c) => `\`${c}\``).join(', ')})`;
  const out = [
    `### Petstore contract: ${verdict}`,
    '',
    `Target \`${report.baseUrl}\`${report.readOnly ? ' (read-only)' : ''}, run \`${report.runId}\`: ${summaryLine(report)}; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s.`,
  ];
  const failures = report.cases.flatMap((c) => c.failures.map((f) => ({ title: c.title, ...f })));
  if (failures.length > 0) {
    out.push('', '| check | operation | case | expected | actual |', '|---|---|---|---|---|');
    for (const f of failures) out.push(`| \`${f.check}\` | ${f.operation} | ${cell(f.title)} | ${cell(f.expected)} | ${cell(f.actual)}${schemaPaths(f)} |`);
    out.push('', '<details><summary>Requests to reproduce the failures</summary>', '', '```sh');
    for (const f of failures) if (f.request) out.push(`# ${f.check}: ${f.title}`, f.request);
    out.push('```', '', '</details>');
  }
  out.push('', '| operation | status | responses | |', '|---|---|---|---|');
  for (const row of report.coverage) out.push(`| ${row.operation} | ${row.status} | ${row.count} | ${coverageState(row)} |`);
  if (report.notes.length > 0) {
    out.push('', '<details><summary>Notes</summary>', '');
    for (const note of report.notes) out.push(`- \`${note.check}\` ${cell(note.message)}`);
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}

function schemaPaths(failure: Failure): string {
  const paths = (failure.schemaErrors ?? []).flatMap((e) => (e.schemaPath ? [`\`${e.schemaPath}\``] : []));
  return paths.length ? ` (schema ${paths.join(', ')})` : '';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
