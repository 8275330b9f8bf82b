import { expect } from 'vitest';
import { NOT_SENDABLE, type Expectation, type InvalidAnswers } from './expectations.js';
import type { OperationResult, Outcome } from './try-document.js';

const UPDATE = 'update its line in test/support/real-documents/expectations.ts';

/**
 * Asserts that `outcome` is what the expectation table says of the document today — a fix that changes it fails
 * here, saying what happens now — and returns a one-line summary for the test's name in reports.
 */
export function checkExpectation(file: string, expectation: Expectation | undefined, outcome: Outcome): void {
  expect(expectation, `${file} has no line in the expectation table`).toBeDefined();
  if (!expectation) return;
  if (expectation.today === 'refused' || expectation.today === 'fails to start') {
    expect(outcome.started, `${file} now starts (${summary(outcome)}): ${UPDATE}`).toBe(false);
    if (outcome.started) return;
    expect(outcome.message, `${file} is refused for another reason now: ${UPDATE}`).toMatch(
      expectation.today === 'refused' ? expectation.line : expectation.message,
    );
    const printed = expectation.today === 'refused' ? 0 : (expectation.printed ?? 0);
    expect(outcome.printed, `what the start printed besides the refusal: ${UPDATE}`).toHaveLength(printed);
    if (expectation.today === 'refused') expect(outcome.message, 'a refusal is one line').not.toContain('\n');
    return;
  }
  expect(outcome.started, `${file} is refused now: ${outcome.started ? '' : outcome.message}`).toBe(true);
  if (!outcome.started) return;
  expect(outcome.printed, `what the start printed: ${UPDATE}`).toHaveLength(expectation.printed ?? 0);
  expect(notSent(outcome.results), `operations sent no request: ${UPDATE}`).toEqual(
    Object.fromEntries(
      Object.entries(expectation.notSent ?? NOT_SENDABLE[file] ?? {}).map(([op, reason]) => [
        op,
        expect.stringMatching(reason),
      ]),
    ),
  );
  expect(absent(outcome.results), `items the harness could not create or list, answered 404: ${UPDATE}`).toEqual(
    expectation.absent ?? [],
  );
  const internal = expectation.today === 'invalid answers' ? expectation.internalErrors : undefined;
  if (internal) expect(outcome.internalErrors.length, `no internal error now: ${UPDATE}`).toBeGreaterThan(0);
  for (const error of outcome.internalErrors)
    expect(error, `an internal error of the mock: ${UPDATE}`).toMatch(internal ?? /^$(?!)/);
  const rules = expectation.today === 'invalid answers' ? expectation.invalid : [];
  expect(invalidByRule(outcome.results, rules), `invalid answers: ${UPDATE}`).toEqual(
    Object.fromEntries(rules.map((rule) => [ruleName(rule), rule.count])),
  );
}

type Rule = InvalidAnswers['invalid'][number];
const ruleName = (rule: Rule) => `${rule.operations.source} → ${rule.cause.source}`;

/** How many invalid answers each rule covers; an invalid answer no rule covers is listed by itself, with its causes. */
function invalidByRule(results: OperationResult[], rules: Rule[]): Record<string, number | string[]> {
  const counts: Record<string, number | string[]> = Object.fromEntries(rules.map((rule) => [ruleName(rule), 0]));
  for (const result of results) {
    if (result.causes.length === 0) continue;
    const rule = rules.find((r) => r.operations.test(result.operation) && result.causes.every((c) => r.cause.test(c)));
    if (rule) counts[ruleName(rule)] = (counts[ruleName(rule)] as number) + 1;
    else counts[result.operation] = result.causes;
  }
  return counts;
}

function absent(results: OperationResult[]): string[] {
  return results.filter((r) => r.absent).map((r) => r.operation);
}

function notSent(results: OperationResult[]): Record<string, string> {
  return Object.fromEntries(results.flatMap((r) => (r.notSent === undefined ? [] : [[r.operation, r.notSent]])));
}

/** In a few words: refused (the message), or how many answers were valid. */
export function summary(outcome: Outcome): string {
  if (!outcome.started) return `refused: ${outcome.message}`;
  const sent = outcome.results.filter((r) => r.notSent === undefined);
  const valid = sent.filter((r) => r.causes.length === 0).length;
  const absent = outcome.results.filter((r) => r.absent).length;
  return `started; ${valid} of ${sent.length} answers valid (${absent} of them a 404 for an item the harness could not create), ${outcome.results.length - sent.length} not sent, ${outcome.internalErrors.length} internal errors`;
}
