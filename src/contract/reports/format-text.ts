import { checkCoverageLines } from './check-coverage.js';
import type { CaseResult, CoverageRow, Failure } from '../base/case-result.js';
import { BUNDLED_DOCUMENT, type ContractReport } from './build-report.js';
import { escapeText } from '../../text/excerpt.js';
import type { Session } from '../base/session.js';
import { judgedNothing } from './operation-runs.js';
import type { CheckBasis } from '../base/check-basis.js';

const marks = { passed: '✓', failed: '✗', skipped: '-', notRun: '○' } as const;

/** The first line of a run: where, in which mode, and how to find the pets it creates. */
export function formatHeader(config: Pick<Session['config'], 'baseUrl' | 'readOnly' | 'runId'> & Partial<Pick<Session['config'], 'seed' | 'timeBudget'>> & { spec?: string; basis?: CheckBasis }): string {
  // Pets on the interface's document, as always; the items of its collections on any other.
  const made = config.basis === 'document' ? 'items' : 'pets';
  const mode = config.readOnly ? 'read-only: no writes' : `writes allowed: ${made} it creates are named contract-${config.runId}-…`;
  const seed = config.seed === undefined || config.timeBudget === 0 ? '' : `; seed ${config.seed}`;
  // The bundled document goes without saying, as it did before --spec; another one is named before anything runs.
  const spec = config.spec === undefined || config.spec === BUNDLED_DOCUMENT ? '' : `\n  judged against ${escapeText(config.spec)}`;
  return `petstore-kit contract → ${config.baseUrl} (${mode}${seed})${spec}\n`;
}

/** One line per case as it finishes: `  ✓ list.limit  listPets with limit=1 …`. */
export function formatCaseLine(result: CaseResult): string {
  const suffix = result.status === 'skipped' ? ` (skipped: ${result.reason})` : result.status === 'notRun' ? ` (NOT RUN: ${result.reason})` : result.status === 'failed' ? `  [${[...new Set(result.failures.map((f) => f.check))].join(', ')}]` : '';
  return `  ${marks[result.status]} ${result.check.padEnd(26)} ${result.title}${suffix}\n`;
}

/** What came back, for a failure: `404 application/json {"code":"not_found",…}` or the network error. */
export function formatAnswer(failure: Failure): string | undefined {
  const response = failure.response;
  if (!response) return undefined;
  if (response.status === undefined) return response.error ?? 'no answer';
  return `${response.status} ${response.contentType ?? '(no Content-Type)'} ${response.body ? response.body : '(empty body)'}`;
}

/** Everything after the case lines: failures (grouped) to act on, coverage, notes, skips, and the summary last. */
export function formatTextSummary(report: ContractReport): string {
  const out: string[] = [];
  if (report.groups.length > 0) {
    out.push('', report.failures.total === report.groups.length ? 'Failures' : `Failures (${report.failures.total}, in ${report.groups.length} groups of one apparent cause)`);
    report.groups.forEach((group, index) => {
      const failure = group.example;
      out.push(`  ${index + 1}) ${failure.check} · ${failure.operation} — ${failure.title}${group.count > 1 ? `  (×${group.count})` : ''}`);
      out.push(`     expected: ${failure.expected}`);
      out.push(`     actual:   ${failure.actual}`);
      const answer = formatAnswer(failure);
      if (answer) out.push(`     got:      ${answer}`);
      for (const error of failure.schemaErrors ?? []) out.push(`     schema:   ${error.message}${error.schemaPath ? ` (schema path ${error.schemaPath})` : ''}`);
      if (failure.reproduction) out.push('     reproduce (the shrunk example, a shell script):', ...failure.reproduction.map((line) => `       ${line}`));
      else if (failure.request) out.push(`     request:  ${failure.request}`);
      if (group.count > 1) out.push(`     also in:  ${group.cases.filter((id) => id !== failure.case).join(', ') || failure.case}`);
    });
  }
  if (report.coverage.length > 0) {
    out.push('', 'Coverage (operation × status)');
    for (const row of report.coverage) out.push(`  ${row.operation.padEnd(12)} ${row.status.padEnd(4)} ${String(row.count).padStart(4)}  ${coverageState(row)}`);
  }
  if (report.checkCoverage.length > 0) {
    out.push('', 'Coverage (operation × role × check)');
    for (const line of checkCoverageLines(report.checkCoverage)) out.push(`  ${line}`);
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
  const notRun = report.cases.filter((c) => c.status === 'notRun');
  if (notRun.length > 0) {
    out.push('', `Not run: ${notRun.length} case${notRun.length === 1 ? '' : 's'} could not try what ${notRun.length === 1 ? 'it checks' : 'they check'} (not passed; exit 2)`);
    for (const result of notRun) out.push(`  ○ ${result.id}: ${result.reason}`);
  }
  const unsent = (report.operations ?? []).filter((o) => o.notRun !== undefined);
  if (unsent.length > 0) {
    out.push('', `Operations not run: ${unsent.length} of ${report.operations!.length} got no request with valid credentials`);
    for (const run of unsent) out.push(`  ○ ${run.operation} (${run.method} ${run.path}): ${run.notRun}`);
  }
  if (report.generated) out.push('', generatedLine(report));
  if (report.stopped) out.push('', `Stopped early: ${report.stopped}`);
  out.push('', `${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; run ${report.runId}${verdict(report)}`);
  out.push(summaryLine(report));
  return `${out.join('\n')}\n`;
}

/**
 * The generated phase in one line: `Generated phase: seed 1234567, 812 requests, 371 examples in 10 cases, 0
 * failures (replay: --seed 1234567)`.
 */
export function generatedLine(report: ContractReport): string {
  const g = report.generated;
  if (!g) return 'Generated phase: did not run';
  return `Generated phase: seed ${g.seed}, ${g.requests} requests, ${g.runs} examples in ${g.cases} cases, ${g.failures} failure${g.failures === 1 ? '' : 's'}${g.cutShort ? ` (cut short: ${g.cutShort})` : ''} (replay: --seed ${g.seed})`;
}

function verdict(report: ContractReport): string {
  if (report.stopped) return '; the run did not finish';
  // Nothing judged is no verdict at all, whatever the cases say (report-verdict.ts).
  if (judgedNothing(report.operations)) return '; nothing judged: the contract is not shown to hold';
  if (report.failedChecks.length) return `; failed checks: ${report.failedChecks.join(', ')}`;
  // "Holds" only on the evidence of every case: one that could not run leaves the question open.
  if (report.summary.notRun > 0) return `; not every case ran: the contract is not shown to hold`;
  const unsent = (report.operations ?? []).filter((o) => o.notRun !== undefined).length;
  return unsent === 0 ? '; the contract holds' : `; the contract holds for the operations judged (${unsent} of ${report.operations!.length} not run, listed above)`;
}

/**
 * The line CI reads, counting cases and failures apart: `53 cases: 48 passed, 3 failed, 1 not run, 1 skipped; 7
 * failures in 2 groups`. Without failures: `53 cases: 53 passed, 0 failed`.
 */
export function summaryLine(report: ContractReport): string {
  const { passed, failed, skipped, notRun = 0 } = report.summary;
  const cases = `${passed + failed + skipped + notRun} cases: ${passed} passed, ${failed} failed${notRun ? `, ${notRun} not run` : ''}${skipped ? `, ${skipped} skipped` : ''}`;
  const { total, groups } = report.failures;
  const failures = total === 0 ? '' : `; ${total} failure${total === 1 ? '' : 's'}${groups < total ? ` in ${groups} group${groups === 1 ? '' : 's'}` : ''}`;
  return `${cases}${failures}${report.stopped ? '; stopped early' : ''}`;
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
