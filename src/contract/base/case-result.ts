import type { CheckId } from './check-ids.js';

/** A contract violation, with everything needed to reproduce and act on it. */
export interface Failure {
  check: CheckId;
  operation: string;
  expected: string;
  actual: string;
  /** The request as a curl command, the key shown as `***`. */
  request?: string;
  status?: number;
  /** What came back, as reports show it: status, Content-Type and a bounded, escaped, redacted body excerpt. */
  response?: { status?: number; contentType: string | null; body: string; error?: string };
  /** For schema failures: where in the body (`response[3].categoryId`), which rule, and AJV's schema path. */
  schemaErrors?: { path: string; rule: string; message: string; schemaPath?: string }[];
  /**
   * For a generated or stateful failure: the shrunk example as a ready-to-run shell script of curl commands, in
   * order, the key shown as `***`, headed by the `--seed` that replays the run. One line per element.
   */
  reproduction?: string[];
}

/** What a case of the generated phase did: every report shows it. */
export interface GeneratedRun {
  seed: number;
  /** Examples (or sequences) tried, shrinking included. */
  runs: number;
  /** Requests this case sent. */
  requests: number;
  /** Why it tried fewer examples than planned: the time budget or the request budget. */
  cutShort?: string;
  /** fast-check's path to the failing example, with the seed: replays it without the search. */
  path?: string;
}

/** What the target chose where the interface lets it choose, or what the run could not verify. */
export interface Note {
  check: CheckId;
  operation: string;
  message: string;
}

/** One row of the coverage table: a documented (or observed) operation × status. */
export interface CoverageRow {
  operation: string;
  status: string;
  documented: boolean;
  /** How many responses of the run had this status. */
  count: number;
  /** The operation's role in the document's resource model (create, list, read, replace, merge, delete) or `none`. */
  role?: string;
  /** `exercised`, `missing`, `skipped` (read-only: the operation writes) or `undocumented` (observed only). */
  state: 'exercised' | 'missing' | 'skipped' | 'undocumented';
}

/**
 * `skipped`: left out by choice (read-only, the generated phase turned off, a premise the target broke).
 * `notRun`: meant to run but could not try what makes its verdict (the deadline, the request cap, the target's rate
 * limit): never counted as passed.
 */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'notRun';

/** The outcome of one case: a vitest test, a JUnit testcase, an entry in the JSON report. */
export interface CaseResult {
  id: string;
  /** The check this case is about; failures may name others (e.g. `schema.response` on any response). */
  check: CheckId;
  operation: string;
  title: string;
  status: CaseStatus;
  /** Why a case was skipped or not run, and for one not run, which option to raise. */
  reason?: string;
  /** Set on the case during which the run stopped (deadline, target gone): why. */
  stopped?: string;
  /** Every check this case evaluated and how it went. */
  checks: Partial<Record<CheckId, 'passed' | 'failed'>>;
  failures: Failure[];
  notes: Note[];
  /** Every request the case sent: as curl, its answer's status, how long it took and the operation it was sent to. */
  requests: { request: string; status?: number; durationMs: number; operation?: string }[];
  durationMs: number;
  coverage?: CoverageRow[];
  /** Set on the cases of the generated phase. */
  generated?: GeneratedRun;
}
