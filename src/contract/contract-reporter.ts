import type {} from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CaseResult } from './case-result.js';
import { formatCaseLine } from './format-text.js';

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
  readonly results: CaseResult[] = [];

  constructor(private readonly write: (text: string) => void, private readonly redact: (text: string) => string) {}

  onTestCaseResult(test: TestCase): void {
    const result = test.meta().petstoreContract ?? this.#fromVitest(test);
    this.results.push(result);
    this.write(this.redact(formatCaseLine(result)));
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const errors = [...modules.flatMap((m) => m.errors()), ...unhandledErrors];
    for (const error of errors) {
      const message = this.redact((error as { message?: string }).message ?? String(error));
      const result = suiteError('suite', 'the contract suite itself', message);
      this.results.push(result);
      this.write(formatCaseLine(result));
    }
  }

  /** A test that set no result: passed or skipped as vitest saw it, or failed for a reason outside the engine. */
  #fromVitest(test: TestCase): CaseResult {
    const { state, errors } = test.result();
    if (state === 'failed') return suiteError(test.id, test.name, this.redact(errors?.map((e) => e.message).join('; ') ?? 'failed'));
    return { ...suiteError(test.id, test.name, ''), status: state === 'passed' ? 'passed' : 'skipped', checks: {}, failures: [], ...(state === 'passed' ? {} : { reason: 'skipped by vitest' }) };
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
