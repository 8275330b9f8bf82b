import type { ServedRequest } from '../mock/front-door/observers.js';

/** What a proxy saw, for the summary printed at the end of a CI job. */
export interface ProxySummary {
  /** API requests answered (preflights and the admin API not counted). */
  exchanges: number;
  /** How many violations, all checks together. */
  violations: number;
  /** Of those, how many were the client's: requests that broke the document (`request.*` checks). */
  requestViolations: number;
  /** Violations by check id, most frequent first. */
  byCheck: Record<string, number>;
  /** Exchanges the embedded mock answered (the upstream away, or 501). */
  servedByMock: number;
  /** `servedByMock / exchanges`, 0 with no exchanges. */
  fallbackShare: number;
}

/** One violation as `violations()` lists it: the check, where, and what came back. */
export interface ProxyViolation {
  check: string;
  operation: string | null;
  method: string;
  path: string;
  status: number;
  message: string;
}

/** Counts exchanges and keeps the violations (the most recent `keep`; the counts stay exact). */
export class ProxyTally {
  #exchanges = 0;
  #servedByMock = 0;
  #total = 0;
  #inRequests = 0;
  readonly #byCheck = new Map<string, number>();
  readonly #kept: ProxyViolation[] = [];
  readonly #keep: number;

  constructor(keep = 1000) {
    this.#keep = keep;
  }

  observe = (served: ServedRequest): void => {
    if (served.request.method === 'OPTIONS') return;
    this.#exchanges += 1;
    if (served.source === 'mock') this.#servedByMock += 1;
    for (const violation of served.violations ?? []) {
      this.#total += 1;
      if (isRequestCheck(violation.check)) this.#inRequests += 1;
      this.#byCheck.set(violation.check, (this.#byCheck.get(violation.check) ?? 0) + 1);
      if (this.#kept.length >= this.#keep) this.#kept.shift();
      const queryAt = served.request.url.indexOf('?');
      this.#kept.push({
        check: violation.check,
        operation: served.operation?.id ?? null,
        method: served.request.method,
        path: served.request.mountPath + (queryAt === -1 ? served.request.url : served.request.url.slice(0, queryAt)),
        status: served.reply.status,
        message: violation.message,
      });
    }
  };

  violations(): ProxyViolation[] {
    return [...this.#kept];
  }

  summary(): ProxySummary {
    const byCheck = Object.fromEntries([...this.#byCheck].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
    return {
      exchanges: this.#exchanges,
      violations: this.#total,
      requestViolations: this.#inRequests,
      byCheck,
      servedByMock: this.#servedByMock,
      fallbackShare: this.#exchanges === 0 ? 0 : this.#servedByMock / this.#exchanges,
    };
  }
}

/** A check of what the client sent (`request.parameters`, `request.body`), not of what the upstream answered. */
export function isRequestCheck(check: string): boolean {
  return check.startsWith('request.');
}

/** The summary in a few lines, as the proxy prints it when stopped. */
export function formatSummary(summary: ProxySummary): string {
  const split =
    summary.requestViolations > 0
      ? ` (${summary.requestViolations} in requests, ${summary.violations - summary.requestViolations} in answers)`
      : '';
  const lines = [
    `petstore-kit proxy: ${summary.exchanges} exchange${summary.exchanges === 1 ? '' : 's'}, ${summary.violations} violation${summary.violations === 1 ? '' : 's'}${split}`,
  ];
  for (const [check, count] of Object.entries(summary.byCheck)) lines.push(`  ${check}: ${count}`);
  lines.push(`  served by the embedded mock: ${summary.servedByMock} (${(summary.fallbackShare * 100).toFixed(1)} %)`);
  return lines.join('\n');
}
