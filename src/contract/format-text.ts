import type { CaseResult, CoverageRow } from './case-result.js';
import type { ContractReport } from './build-report.js';
import type { Session } from './session.js';

const marks = { passed: '✓', failed: '✗', skipped: '-' } as const;

/** The first line of a run: where, in which mode, and how to find the pets it creates. */
export function formatHeader(config: Session['config']): string {
  const mode = config.readOnly ? 'read-only: no writes' : `writes allowed: pets it creates are named contract-${config.runId}-…`;
  return `petstore-kit contract → ${config.baseUrl} (${mode})\n`;
}

/** One line per case as it finishes: `  ✓ list.limit  listPets with limit=1 …`. */
export function formatCaseLine(result: CaseResult): string {
  const suffix = result.status === 'skipped' ? ` (skipped: ${result.reason})` : result.status === 'failed' ? `  [${[...new Set(result.failures.map((f) => f.check))].join(', ')}]` : '';
  return `  ${marks[result.status]} ${result.check.padEnd(26)} ${result.title}${suffix}\n`;
}

/** Everything after the case lines: failures to act on, coverage, notes, skips, and the summary line last. */
export function formatTextSummary(report: ContractReport): string {
  const out: string[] = [];
  const failed = report.cases.filter((c) => c.status === 'failed');
  if (failed.length > 0) {
    out.push('', 'Failures');
    let n = 0;
    for (const result of failed) {
      for (const failure of result.failures) {
        out.push(`  ${++n}) ${failure.check} · ${failure.operation} — ${result.title}`);
        out.push(`     expected: ${failure.expected}`);
        out.push(`     actual:   ${failure.actual}`);
        for (const error of failure.schemaErrors ?? []) out.push(`     schema:   ${error.message}${error.schemaPath ? ` (schema path ${error.schemaPath})` : ''}`);
        if (failure.request) out.push(`     request:  ${failure.request}`);
      }
    }
  }
  if (report.coverage.length > 0) {
    out.push('', 'Coverage (operation × status)');
    for (const row of report.coverage) out.push(`  ${row.operation.padEnd(12)} ${row.status.padEnd(4)} ${String(row.count).padStart(4)}  ${coverageState(row)}`);
  }
  if (report.notes.length > 0) {
    out.push('', 'Notes');
    for (const note of report.notes) out.push(`  • [${note.check}] ${note.message}`);
  }
  const skipped = report.cases.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) {
    out.push('', `Skipped ${skipped.length} case${skipped.length === 1 ? '' : 's'}`);
    for (const result of skipped) out.push(`  - ${result.id}: ${result.reason}`);
  }
  out.push('', `${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; run ${report.runId}${report.failedChecks.length ? `; failed checks: ${report.failedChecks.join(', ')}` : '; the contract holds'}`);
  out.push(summaryLine(report));
  return `${out.join('\n')}\n`;
}

/** The line CI reads: `N passed, N failed`, with `, N skipped` when any were. */
export function summaryLine(report: ContractReport): string {
  const { passed, failed, skipped } = report.summary;
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

export function coverageState(row: CoverageRow): string {
  switch (row.state) {
    case 'exercised':
      return 'exercised';
    case 'missing':
      return 'NOT exercised';
    case 'skipped':
      return 'skipped (read-only)';
    default:
      return 'observed, not documented';
  }
}
