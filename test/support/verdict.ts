import type { ContractReport } from '../../src/contract/reports/build-report.js';
import { verdictOf as runVerdict } from '../../src/contract/reports/report-verdict.js';

/** Every failure of a run, one line each: `case: [check] expected …; actual …` (empty for a passing run). */
export function failuresOf(report: ContractReport): string[] {
  return report.cases.flatMap((c) =>
    c.failures.map((f) => `${c.id}: [${f.check}] expected ${f.expected}; actual ${f.actual}`),
  );
}

/**
 * What a CI job sees of a run: the exit code `petstore-kit contract` gives this report (2: stopped, nothing judged or
 * a case not run; 1: a check failed; 0: the contract holds, as src/contract/reports/report-verdict.ts decides) and
 * the failing check ids.
 */
export function verdictOf(report: ContractReport): { exit: 0 | 1 | 2; failedChecks: string[] } {
  return { exit: runVerdict(report).exitCode, failedChecks: [...report.failedChecks].sort() };
}
