import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import type { CheckId } from './check-ids.js';
import type { CaseResult, CoverageRow, Note } from './case-result.js';
import type { Session } from './session.js';

/** Everything a run found: what the JSON report holds and every other report is rendered from. */
export interface ContractReport {
  tool: 'petstore-kit';
  version: string;
  baseUrl: string;
  runId: string;
  readOnly: boolean;
  requireCoverage: boolean;
  startedAt: string;
  durationMs: number;
  /** Requests the suite sent (the probe before it not counted). */
  requests: number;
  summary: { passed: number; failed: number; skipped: number };
  /** The distinct check ids that failed, in the order of `checks`. */
  failedChecks: CheckId[];
  cases: CaseResult[];
  coverage: CoverageRow[];
  notes: Note[];
}

const version = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Case results (from the engine or from vitest) → the report. */
export function buildReport(config: Session['config'], cases: CaseResult[], run: { startedAt: Date; durationMs?: number }): ContractReport {
  const count = (status: CaseResult['status']) => cases.filter((c) => c.status === status).length;
  const failed = new Set(cases.flatMap((c) => c.failures.map((f) => f.check)));
  return {
    tool: 'petstore-kit',
    version,
    baseUrl: config.baseUrl,
    runId: config.runId,
    readOnly: config.readOnly,
    requireCoverage: config.requireCoverage,
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs ?? Date.now() - run.startedAt.getTime(),
    requests: cases.reduce((sum, c) => sum + c.requests.length, 0),
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped') },
    failedChecks: [...failed],
    cases,
    coverage: cases.find((c) => c.coverage)?.coverage ?? [],
    notes: cases.flatMap((c) => c.notes),
  };
}
