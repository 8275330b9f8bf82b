import type { Session } from '../session.js';

/** Requests kept back from the generated phase for what runs after it (the coverage case sends none; a margin). */
const RESERVE = 10;

/** Starts the generated phase's clock (once, at its first case). */
export function startGeneratedPhase(session: Session): void {
  session.generatedUntil ??= Math.min(Date.now() + session.config.timeBudget, session.config.deadlineAt);
}

/** Why the generated phase must send no more (time or request budget spent), or undefined. */
export function budgetLeft(session: Session): string | undefined {
  if (Date.now() >= (session.generatedUntil ?? Infinity)) return `the time budget of ${session.config.timeBudget / 1000} s (--time-budget) was spent`;
  // An example sends at most ~12 requests: it is not started without room for them.
  if (session.exchanges.length + 12 + RESERVE > session.config.maxRequests) return `the request budget of ${session.config.maxRequests} (--max-requests) was spent`;
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
