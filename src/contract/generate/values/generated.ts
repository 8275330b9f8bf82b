/**
 * A keyword a generator could not honour: where it sits and why. Handed on as a value, never thrown past a case,
 * so that the case that needed the value is "not run" naming the keyword rather than sending a value that might
 * break the schema as a valid one (issue 53: "never a false failure").
 */
export interface Unhonoured {
  /** The schema keyword: `pattern`, `not`, `discriminator`, `oneOf` … */
  keyword: string;
  /** Where in the value, as a JSON pointer (`/category/name`); empty for the value itself. */
  at: string;
  /** Why, in words: `no string matching ^(?=…) found in 200 tries`. */
  reason: string;
  /**
   * Set when the schema itself admits no value there (a reason the document gives, not a limit of the generators):
   * the case then names the operation as not sent for that reason (issue 53).
   */
  noValue?: true;
}

/** What a generator made, or the keyword it could not honour. */
export type Generated<T> = { ok: true; value: T } | { ok: false; unhonoured: Unhonoured };

export function made<T>(value: T): Generated<T> {
  return { ok: true, value };
}

export function unhonoured<T>(keyword: string, at: string, reason: string): Generated<T> {
  return { ok: false, unhonoured: { keyword, at, reason } };
}

/** The schema admits no value at `at`, for `reason` (the document's, in its terms). */
export function noValue<T>(keyword: string, at: string, reason: string): Generated<T> {
  return { ok: false, unhonoured: { keyword, at, reason, noValue: true } };
}

/** How a report says it: `body/category/name: pattern not honoured (no string … found in 200 tries)`. */
export function describeUnhonoured(problem: Unhonoured, where = 'body'): string {
  if (problem.noValue) return `${where}${problem.at}: ${problem.keyword}: ${problem.reason}`;
  return `${where}${problem.at}: ${problem.keyword} not honoured (${problem.reason})`;
}

/**
 * Thrown by the generators' older entry points (validArbitrary, sampleBody keep their signatures) where a keyword
 * cannot be honoured; `problem` names it. New callers take the Generated value instead.
 */
export class UnhonouredKeyword extends Error {
  constructor(
    readonly problem: Unhonoured,
    where = 'body',
  ) {
    super(`cannot generate a valid value: ${describeUnhonoured(problem, where)}`);
    this.name = 'UnhonouredKeyword';
  }
}
