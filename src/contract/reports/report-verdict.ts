import type { ContractReport } from './build-report.js';
import { judgedNothing, nothingJudgedLine } from './operation-runs.js';

/** What a run concluded, as its exit code says it: every report form shows this one verdict. */
export interface Verdict {
  exitCode: 0 | 1 | 2;
  /** `holds` (0), `failed` (1), `could not judge` (2: stopped early, nothing judged, or a case not run). */
  label: 'holds' | 'failed' | 'could not judge';
  /** Why, in one sentence. */
  why: string;
}

/**
 * The run's verdict. A verdict counts only what ran: a run stopped early, one that judged nothing (no operation of
 * the document got a request with the valid credentials: "the contract holds" after 0 requests would be empty), or
 * one with a case that could not try its examples, is not judged (exit 2), whatever else failed.
 * @example
 * process.exitCode = verdictOf(await runContract(config)).exitCode;
 */
export function verdictOf(report: ContractReport): Verdict {
  if (report.stopped) return { exitCode: 2, label: 'could not judge', why: `the run stopped early: ${report.stopped}` };
  if (judgedNothing(report.operations))
    return { exitCode: 2, label: 'could not judge', why: nothingJudgedLine(report.operations!) };
  const notRun = report.cases.filter((c) => c.status === 'notRun');
  if (notRun.length > 0)
    return {
      exitCode: 2,
      label: 'could not judge',
      why: `${notRun.length} case${notRun.length === 1 ? '' : 's'} not run (${notRun.map((c) => c.id).join(', ')}): ${notRun[0]!.reason ?? ''}`,
    };
  if (report.summary.failed > 0)
    return { exitCode: 1, label: 'failed', why: `failed checks: ${report.failedChecks.join(', ')}` };
  return { exitCode: 0, label: 'holds', why: 'every check that ran passed, and every case ran' };
}
