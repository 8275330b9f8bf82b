import type { Level } from '../check-ids.js';
import type { Finding } from '../finding.js';
import type { JournalReplay } from '../replay-journal.js';

/** Which findings fail the gate: breaking ones always, warnings too with `--fail-on warning`. */
export type FailOn = 'breaking' | 'warning';

/** What a `compat` run found, as every report form shows it (`--json` writes this object). */
export interface CompatReport extends ReportRun {
  tool: 'petstore-kit compat';
  /** 0 compatible, 1 a finding fails the gate, 2 could not judge. */
  exitCode: 0 | 1 | 2;
  /** Why the documents could not be judged (exit 2). */
  error?: string;
  /** Over the document's findings and the journal's. */
  summary: Record<Level, number>;
  /** The check ids that fail the gate, each once. */
  failedChecks: string[];
  findings: Finding[];
  journal?: JournalReplay;
}

/** What a run was asked: the documents, the day and the gate. */
export interface ReportRun {
  version: string;
  old: string;
  new: string;
  /** The day the lifecycle was judged on (`--date`), `YYYY-MM-DD`. */
  date: string;
  minNoticeDays: number;
  failOn: FailOn;
}

/** The report of a comparison that ran: its exit code follows from the findings and `failOn`. */
export function buildCompatReport(run: ReportRun, findings: Finding[], journal?: JournalReplay): CompatReport {
  const all = [...findings, ...(journal?.findings ?? [])];
  const summary: Record<Level, number> = { breaking: 0, warning: 0, info: 0 };
  for (const found of all) summary[found.level] += 1;
  const failedChecks = [...new Set(all.filter((found) => failsGate(found, run.failOn)).map((found) => found.check))];
  return {
    tool: 'petstore-kit compat',
    ...run,
    exitCode: failedChecks.length ? 1 : 0,
    summary,
    failedChecks,
    findings,
    ...(journal ? { journal } : {}),
  };
}

/**
 * A comparison that ran whose journal could not be replayed (NEW outside what the document model can serve): its
 * findings stand, and the run is not judged (exit 2), since what was asked was not all done.
 */
export function withJournalError(report: CompatReport, error: string): CompatReport {
  return { ...report, exitCode: 2, error };
}

/** The report of a comparison that could not be judged (a document that does not load, a journal that cannot be read). */
export function notJudgedReport(run: ReportRun, error: string): CompatReport {
  return {
    tool: 'petstore-kit compat',
    ...run,
    exitCode: 2,
    error,
    summary: { breaking: 0, warning: 0, info: 0 },
    failedChecks: [],
    findings: [],
  };
}

export function failsGate(found: Finding, failOn: FailOn): boolean {
  return found.level === 'breaking' || (failOn === 'warning' && found.level === 'warning');
}

/** `2 breaking, 1 warning, 4 info: not compatible for clients of old.yaml (exit 1)`. */
export function summaryLine(report: CompatReport): string {
  const { breaking, warning, info } = report.summary;
  const counts = `${breaking} breaking, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info`;
  if (report.exitCode === 2)
    return `${report.findings.length ? `${counts}; ` : ''}not judged: ${report.error ?? ''} (exit 2)`;
  if (report.exitCode === 0) return `${counts}: compatible for clients of ${report.old} (exit 0)`;
  const why = breaking === 0 ? ' (--fail-on warning)' : '';
  return `${counts}: not compatible for clients of ${report.old}${why} (exit 1)`;
}

/**
 * What a journal finding stands for beyond its first request: `301 requests like it: #4, #7, #10, …` when it stands
 * for more than one, else ''. Text the reports put after the finding's sentence.
 */
export function requestsLikeIt(found: Finding): string {
  if (found.count === undefined || found.count <= 1) return '';
  const seqs = (found.examples ?? []).map((request) => `#${request.seq}`);
  const more = found.count > seqs.length ? ', …' : '';
  return `${found.count.toLocaleString('en')} requests like it: ${seqs.join(', ')}${more}`;
}
