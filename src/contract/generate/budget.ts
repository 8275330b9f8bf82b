import type { Session } from '../base/session.js';
import { examplesInFlight } from './slots.js';

/** Requests kept back from the generated phase for what runs after it (the coverage case sends none; a margin). */
const RESERVE = 10;
/** What one example may send, as far as the budgets reckon (a stateful sequence can send more: see RequestCapReached). */
const EXAMPLE_REQUESTS = 12;

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
 * Starts a case's share of what the generated phase has left — of its clock (--time-budget, or the run's deadline)
 * and of the request cap — split evenly between this case and the generated cases after it (`casesLeft`, itself
 * included); what a case leaves unused goes to the cases after it. Past its minimum examples a case stops at its
 * share, so no case can take another's: the first cases never starve the last (credentials, reads, stateful).
 */
export function startCaseShare(session: Session, casesLeft: number): void {
  const now = Date.now();
  const cases = Math.max(1, casesLeft);
  session.pacing.generatedUntil ??= Math.min(now + session.config.timeBudget, session.config.deadlineAt);
  session.pacing.caseUntil = now + Math.max(0, session.pacing.generatedUntil - now) / cases;
  const used = session.findings.exchanges.length;
  session.pacing.caseRequestsUntil = used + Math.max(0, session.config.maxRequests - RESERVE - used) / cases;
}

/**
 * Why a property must try no more examples, or undefined. Past its minimum, the case's share of the clock or of the
 * request cap ends it; the request cap itself ends it always (an example is not started without room for
 * EXAMPLE_REQUESTS more from it and from every example in flight).
 */
export function budgetLeft(session: Session, pastMinimum: boolean): string | undefined {
  // What the examples in flight (this one included) may still send counts as sent.
  const committed = session.findings.exchanges.length + EXAMPLE_REQUESTS * Math.max(1, examplesInFlight(session));
  if (committed + RESERVE > session.config.maxRequests)
    return `the request cap of ${session.config.maxRequests} (--max-requests) was reached`;
  if (pastMinimum && committed > (session.pacing.caseRequestsUntil ?? Infinity))
    return `its share of the request cap of ${session.config.maxRequests} (--max-requests) was spent`;
  if (pastMinimum && Date.now() >= (session.pacing.caseUntil ?? Infinity))
    return Number.isFinite(session.config.timeBudget)
      ? `its share of the time budget of ${session.config.timeBudget / 1000} s (--time-budget) was spent`
      : `its share of the time left before the run's deadline (--deadline) was spent`;
  return undefined;
}

/** Shrinking a failure takes at most a quarter of the time budget, and never more than this (a slow target). */
const MAX_SHRINK_MS = 10_000;

/** When shrinking a failure found now must stop: its own bounded share, whatever is left of the case's. */
export function shrinkDeadline(session: Session): number {
  return Date.now() + Math.min(session.config.timeBudget / 4, MAX_SHRINK_MS);
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
