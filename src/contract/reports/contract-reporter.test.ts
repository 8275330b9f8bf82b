import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { ContractReporter } from './contract-reporter.js';
import { createSecretRedactor } from '../../redact/redact-secrets.js';

const redact = createSecretRedactor(['s3cret-key']);

function testCase(meta: object, state: string, errors: { message: string }[] = []): TestCase {
  return { id: 't1', name: 'a test', meta: () => meta, result: () => ({ state, errors }) } as unknown as TestCase;
}

describe('ContractReporter', () => {
  it('turns a test without a result, a file that failed to load and an unhandled error into suite.error failures', () => {
    const lines: string[] = [];
    const reporter = new ContractReporter((text) => lines.push(text), redact);
    reporter.onTestCaseResult(testCase({}, 'failed', [{ message: 'boom with s3cret-key' }]));
    reporter.onTestRunEnd([{ errors: () => [{ message: 'cannot import' }] } as unknown as TestModule], [new Error('stray')]);
    expect(reporter.results.map((r) => [r.check, r.status, r.failures[0]?.actual])).toEqual([
      ['suite.error', 'failed', 'boom with ***'],
      ['suite.error', 'failed', 'cannot import'],
      ['suite.error', 'failed', 'stray'],
    ]);
    expect(lines.join('')).not.toContain('s3cret-key');
    expect(lines).toHaveLength(3);
  });

  // A verdict counts only what ran; a test vitest passed or cut short without the engine's result is not a ✓.
  it.each(['passed', 'skipped', 'pending'])('shows a test vitest saw as %s, with no result from the engine, as not run', (state) => {
    const lines: string[] = [];
    const reporter = new ContractReporter((text) => lines.push(text), redact);
    reporter.onTestCaseResult(testCase({}, state));
    expect(reporter.results.map((r) => [r.status, r.reason])).toEqual([['notRun', `the engine recorded no result (vitest: ${state})`]]);
    expect(lines.join('')).toMatch(/^ {2}○ suite\.error/);
    expect(lines.join('')).not.toContain('undefined');
  });

  it('keeps a case result carried in the test meta', () => {
    const reporter = new ContractReporter(() => {}, redact);
    const result = { id: 'c', check: 'list.limit', operation: 'listPets', title: 'x', status: 'passed', checks: {}, failures: [], notes: [], requests: [], durationMs: 1 };
    reporter.onTestCaseResult(testCase({ petstoreContract: result }, 'passed'));
    expect(reporter.results).toEqual([result]);
  });
});
