import { describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import SummaryReporter from './summary-reporter.js';

// A run that failed for any reason (a hook that timed out, a file that would not load, an interrupted run)
// never ends with a line that says "0 failed".
function moduleOf(
  tests: string[],
  options: { errors?: number; suiteErrors?: number; state?: string } = {},
): TestModule {
  return {
    state: () => options.state ?? (tests.includes('failed') || options.errors ? 'failed' : 'passed'),
    errors: () => Array.from({ length: options.errors ?? 0 }, () => new Error('x')),
    children: {
      allTests: () => tests.map((state) => ({ result: () => ({ state }) }))[Symbol.iterator](),
      allSuites: () =>
        [{ errors: () => Array.from({ length: options.suiteErrors ?? 0 }, () => new Error('hook')) }][
          Symbol.iterator
        ](),
    },
  } as unknown as TestModule;
}

function lastLine(
  modules: TestModule[],
  unhandled: unknown[] = [],
  reason: 'passed' | 'failed' | 'interrupted' = 'passed',
): string {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    new SummaryReporter().onTestRunEnd(modules, unhandled, reason);
    return String(write.mock.calls.at(-1)![0]).trim();
  } finally {
    write.mockRestore();
  }
}

describe('the last line of a run', () => {
  it('counts passed, failed and skipped tests', () => {
    expect(lastLine([moduleOf(['passed', 'passed', 'failed', 'skipped'])], [], 'failed')).toBe(
      '2 passed, 1 failed, 1 skipped',
    );
  });

  it('counts an afterAll that failed or timed out while every test passed', () => {
    expect(lastLine([moduleOf(['passed', 'passed'], { suiteErrors: 1, state: 'failed' })], [], 'failed')).toBe(
      '2 passed, 1 failed',
    );
  });

  it('counts a file that would not load, an unhandled error, and a run vitest failed for any other reason', () => {
    expect(lastLine([moduleOf([], { state: 'failed' })], [], 'failed')).toBe('0 passed, 1 failed');
    expect(lastLine([moduleOf(['passed'])], [new Error('stray')], 'failed')).toBe('1 passed, 1 failed');
    expect(lastLine([moduleOf(['passed'])], [], 'failed')).toBe('1 passed, 1 failed');
    expect(lastLine([moduleOf(['passed'])], [], 'interrupted')).toBe('1 passed, 1 failed (interrupted)');
  });
});
