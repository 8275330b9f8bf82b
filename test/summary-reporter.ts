import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Ends every run with the plain line `N passed, N failed` that CI reads. A file that fails to load, a hook that fails
 * or times out (an `afterAll` that cannot close a server), an error outside any test, or a run vitest ends as failed
 * or interrupted for any other reason counts as a failure: a run that fails never ends with "0 failed".
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = module.errors().length;
      for (const suite of module.children.allSuites()) failedHere += suite.errors().length;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // Failed with nothing to show for it (a file that would not load): still one failure.
      failed += failedHere === 0 && module.state() === 'failed' ? 1 : failedHere;
    }
    if (failed === 0 && reason !== 'passed') failed = 1;
    process.stdout.write(
      `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${reason === 'interrupted' ? ' (interrupted)' : ''}\n`,
    );
  }
}
