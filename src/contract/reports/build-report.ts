import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSpecFile, packageRoot } from '../../paths.js';
import type { CheckId } from '../base/check-ids.js';
import type { CaseResult, CoverageRow, Failure, Note } from '../base/case-result.js';
import type { Session } from '../base/session.js';
import { sanitize } from './sanitize-report.js';
import { checkCoverage, type CheckCoverageRow } from './check-coverage.js';
import { operationRuns, type OperationPlan, type OperationRun } from './operation-runs.js';
import type { ReportDocument } from './report-document.js';

/** Failures that look alike (same check, same kind of answer, same expectation up to ids and names): one cause. */
export interface FailureGroup {
  check: CheckId;
  operation: string;
  /** How many failures share it. */
  count: number;
  /** The ids of the cases they came from. */
  cases: string[];
  /** The first failure of the group, shown in full. */
  example: Failure & { case: string; title: string };
}

/** Everything a run found: what the JSON report holds and every other report is rendered from. */
export interface ContractReport {
  tool: 'petstore-kit';
  version: string;
  baseUrl: string;
  /** The OpenAPI document judged: its file or URL (`--spec`), or `BUNDLED_DOCUMENT`. */
  spec: string;
  /** Its title, version and what the checks rest on (the interface's words, or its own); absent when it was not read. */
  document?: ReportDocument;
  runId: string;
  readOnly: boolean;
  requireCoverage: boolean;
  startedAt: string;
  durationMs: number;
  /** Requests the suite sent (the probe before it not counted). */
  requests: number;
  /** Cases by outcome (a case may hold several failures; see `failures`). `notRun`: could not try what it checks. */
  summary: { passed: number; failed: number; skipped: number; notRun: number };
  /** How many failures the failed cases hold, and in how many groups of one apparent cause. */
  failures: { total: number; groups: number };
  /** Why the run did not finish (exit 2): the deadline passed, the target stopped answering, a signal, … */
  stopped?: string;
  /** The distinct check ids that failed, in the order of `checks`. */
  failedChecks: CheckId[];
  /** Failures grouped by apparent cause, in the order the suite found them. */
  groups: FailureGroup[];
  /** The generated phase: its seed (`--seed` replays it), examples tried, requests sent; absent when it did not run. */
  generated?: GeneratedSummary;
  cases: CaseResult[];
  coverage: CoverageRow[];
  /** Coverage per operation × role × check: how the cases that judged each check on each operation went. */
  checkCoverage: CheckCoverageRow[];
  /**
   * Every operation of the document (webhooks included): the requests sent to it, those with the valid credentials,
   * and for one no such request reached, why (`notRun`). Absent when the run never read the document.
   */
  operations?: OperationRun[];
  notes: Note[];
}

/** How a report names the document bundled with petstore-kit, judged when no `--spec` is given. */
export const BUNDLED_DOCUMENT = 'openapi.yaml (bundled)';

/** How a report names a document handed to `runContract` as a value, not read from a file or URL. */
export const DOCUMENT_VALUE = 'a document given as a value';

/** The report's name for the document of a session: `BUNDLED_DOCUMENT`, or the file or URL it was read from. */
export function documentLabel(file: string | undefined): string {
  if (file === undefined) return DOCUMENT_VALUE;
  return file === defaultSpecFile ? BUNDLED_DOCUMENT : file;
}

const version = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export interface GeneratedSummary {
  seed: number;
  /** Cases of the generated phase that ran (not skipped). */
  cases: number;
  /** Examples (and stateful sequences) tried, shrinking included. */
  runs: number;
  requests: number;
  /** Failures found, each with its shrunk reproduction. */
  failures: number;
  /** Why it tried fewer examples than planned (the time or request budget), if it did. */
  cutShort?: string;
}

/** The generated phase's figures, summed over its cases. */
export function summariseGenerated(cases: CaseResult[]): GeneratedSummary | undefined {
  const ran = cases.filter((c) => c.generated);
  if (ran.length === 0) return undefined;
  const cutShort = ran.find((c) => c.generated!.cutShort)?.generated!.cutShort;
  return {
    seed: ran[0]!.generated!.seed,
    cases: ran.length,
    runs: ran.reduce((sum, c) => sum + c.generated!.runs, 0),
    requests: ran.reduce((sum, c) => sum + c.generated!.requests, 0),
    failures: ran.reduce((sum, c) => sum + c.failures.length, 0),
    ...(cutShort ? { cutShort } : {}),
  };
}

export type ReportConfig = Pick<Session['config'], 'baseUrl' | 'runId' | 'readOnly' | 'requireCoverage'> & {
  /** The document judged: its file or URL (`--spec`); the bundled openapi.yaml when not given. */
  spec?: string | undefined;
  /** The document's operations (planOperations), when it was read: the report says what each was sent. */
  operations?: OperationPlan[] | undefined;
  /** Its title, version and basis (reportDocument), when it was read. */
  document?: ReportDocument | undefined;
};

/**
 * Case results (from the engine or from vitest) → the report, every string in it redacted with `redact` and its
 * control characters escaped.
 */
export function buildReport(config: ReportConfig, cases: CaseResult[], run: { startedAt: Date; durationMs?: number; stopped?: string; redact?: (text: string) => string }): ContractReport {
  const clean = sanitize(cases, run.redact ?? ((text) => text));
  const count = (status: CaseResult['status']) => clean.filter((c) => c.status === status).length;
  const failed = new Set(clean.flatMap((c) => c.failures.map((f) => f.check)));
  const groups = groupFailures(clean);
  const stopped = run.stopped ?? clean.find((c) => c.stopped)?.stopped;
  const generated = summariseGenerated(clean);
  return {
    tool: 'petstore-kit',
    version,
    baseUrl: config.baseUrl,
    spec: config.spec ?? BUNDLED_DOCUMENT,
    ...(config.document ? { document: sanitize(config.document, run.redact ?? ((text) => text)) } : {}),
    runId: config.runId,
    readOnly: config.readOnly,
    requireCoverage: config.requireCoverage,
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs ?? Date.now() - run.startedAt.getTime(),
    requests: clean.reduce((sum, c) => sum + c.requests.length, 0),
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), notRun: count('notRun') },
    failures: { total: groups.reduce((sum, g) => sum + g.count, 0), groups: groups.length },
    ...(stopped ? { stopped: sanitize(stopped, run.redact ?? ((text) => text)) } : {}),
    failedChecks: [...failed],
    groups,
    ...(generated ? { generated } : {}),
    cases: clean,
    coverage: clean.find((c) => c.coverage)?.coverage ?? [],
    checkCoverage: checkCoverage(clean, clean.find((c) => c.coverage)?.coverage ?? []),
    ...(config.operations ? { operations: sanitize(operationRuns(config.operations, clean), run.redact ?? ((text) => text)) } : {}),
    notes: clean.flatMap((c) => c.notes),
  };
}

/**
 * Groups failures that share a check, an operation and a kind of answer (status and media type, or the network
 * error with numbers blanked): a stateless target's 404 for every pet it created is one group of N, and a stub's
 * 400 text/plain to every bad input one more, not N unrelated failures. Bodies are left out of the key, since
 * they differ in ids and messages; each group shows its first failure in full and names the other cases.
 */
export function groupFailures(cases: CaseResult[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const result of cases) {
    for (const failure of result.failures) {
      const response = failure.response;
      const answer = response ? [response.status ?? shape(response.error ?? ''), response.contentType ?? ''] : [shape(failure.actual)];
      const key = [failure.check, failure.operation, ...answer].join('\u0000');
      const group = groups.get(key);
      if (group) {
        group.count++;
        if (!group.cases.includes(result.id)) group.cases.push(result.id);
      } else {
        groups.set(key, { check: failure.check, operation: failure.operation, count: 1, cases: [result.id], example: { ...failure, case: result.id, title: result.title } });
      }
    }
  }
  return [...groups.values()];
}

function shape(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\d+/g, '#');
}
