import type {} from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CaseResult } from '../base/case-result.js';
import { formatCaseLine } from './format-text.js';
import { sanitize } from './sanitize-report.js';

declare module 'vitest' {
  interface TaskMeta {
    /** Set by contract-tests/ on each test: what the case found. */
    petstoreContract?: CaseResult;
  }
}

/**
 * A vitest reporter for the contract suite: prints one line per case as it finishes and collects each case's
 * result (carried in the test's meta) for the reports. A test without a result, a file that failed to load or an
 * error outside any test becomes a `suite.error` failure, so that nothing can pass unnoticed.
 */
export class ContractReporter implements Reporter {
  constructor(
    private readonly write: (text: string) => void,
    private readonly redact: (text: string) => string,
    /** Where results are collected: the caller's array, so that it can report a run cut short. */
    readonly results: CaseResult[] = [],
  ) {}

  onTestCaseResult(test: TestCase): void {
    // Redacted and escaped on arrival: the live line and every report read the same clean result.
    const result = sanitize(test.meta().petstoreContract ?? this.#fromVitest(test), this.redact);
    this.results.push(result);
    this.write(this.redact(formatCaseLine(result)));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const errors = [...modules.flatMap((m) => m.errors()), ...unhandledErrors];
    for (const error of errors) {
      const message = (error as { message?: string }).message ?? String(error);
      const result = sanitize(suiteError('suite', 'the contract suite itself', message), this.redact);
      this.results.push(result);
      this.write(formatCaseLine(result));
    }
  }

  /**
   * A test that set no result: failed for a reason outside the engine, or else not run — whatever vitest says of
   * it (passed, skipped, cut short), nothing the engine judged stands behind it, so it is never a ✓.
   */
  #fromVitest(test: TestCase): CaseResult {
    const { state, errors } = test.result();
    if (state === 'failed') return suiteError(test.id, test.name, this.redact(errors?.map((e) => e.message).join('; ') ?? 'failed'));
    return { ...suiteError(test.id, test.name, ''), status: 'notRun', checks: {}, failures: [], reason: `the engine recorded no result (vitest: ${state})` };
  }
}

/** A failure of the suite itself, under `suite.error`. */
function suiteError(id: string, title: string, message: string): CaseResult {
  return {
    id,
    check: 'suite.error',
    operation: '*',
    title,
    status: 'failed',
    checks: { 'suite.error': 'failed' },
    failures: [{ check: 'suite.error', operation: '*', expected: 'the suite to run', actual: message }],
    notes: [],
    requests: [],
    durationMs: 0,
  };
}
