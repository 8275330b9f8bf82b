import type { Session } from '../session.js';

/** Requests kept back from the generated phase for what runs after it (the coverage case sends none; a margin). */
const RESERVE = 10;

/**
 * Every property tries at least this many examples (fewer only if it has fewer), whatever the time budget: the
 * time budget decides how many more. A property short of its minimum (request cap, deadline) leaves its case
 * "not run", never passed.
 */
export const MIN_EXAMPLES = 3;

/** The minimum examples of a property that plans `numRuns`. */
export function minimumExamples(numRuns: number): number {
  return Math.min(numRuns, MIN_EXAMPLES);
}

/**
 * Starts a case's share of the generated phase's clock: the time the phase has left, split evenly between this case
 * and the generated cases after it (`casesLeft`, itself included). A slow target makes every share smaller, but no
 * case can take another's: the first cases no longer starve the last (credentials, reads, stateful).
 */
export function startCaseShare(session: Session, casesLeft: number): void {
  const now = Date.now();
  session.generatedUntil ??= Math.min(now + session.config.timeBudget, session.config.deadlineAt);
  session.caseUntil = now + Math.max(0, session.generatedUntil - now) / Math.max(1, casesLeft);
}

/**
 * Why a property must try no more examples, or undefined. Past its minimum, the case's share of the time budget
 * ends it; the request cap ends it always (an example sends at most ~12 requests: it is not started without room).
 */
export function budgetLeft(session: Session, pastMinimum: boolean): string | undefined {
  if (session.exchanges.length + 12 + RESERVE > session.config.maxRequests) return `the request cap of ${session.config.maxRequests} (--max-requests) was reached`;
  if (pastMinimum && Date.now() >= (session.caseUntil ?? Infinity)) return `its share of the time budget of ${session.config.timeBudget / 1000} s (--time-budget) was spent`;
  return undefined;
}

/** A property's seed: the run's seed mixed with the property's id (FNV-1a), so properties differ and replay. */
export function seedFor(seed: number, id: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
