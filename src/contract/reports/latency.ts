import type { ContractReport } from './build-report.js';
import { readCurl } from './read-curl.js';

/** An operation of the document, as far as filing a request under it needs. */
export interface OperationPath {
  id: string;
  method: string;
  /** The path template relative to the base URL, e.g. `/pets/{petId}`. */
  path: string;
}

/** How long one operation's answers took, over every request of the run sent to it. */
export interface OperationLatency {
  operation: string;
  requests: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * Each request of the run filed under the operation its method and path match (a request to no documented
 * operation under `other`), then the median and 95th percentile (nearest rank) of each operation's durations.
 * Requests without an answer count too: their duration is how long the runner waited.
 */
export function latencyByOperation(report: ContractReport, operations: OperationPath[]): OperationLatency[] {
  const matchers = operations.map((operation) => ({ operation, pattern: templatePattern(operation.path) }));
  const durations = new Map<string, number[]>();
  for (const result of report.cases) {
    for (const sent of result.requests) {
      const operation = operationOf(sent.request, report.baseUrl, matchers) ?? 'other';
      const list = durations.get(operation) ?? [];
      list.push(sent.durationMs);
      durations.set(operation, list);
    }
  }
  const order = [...operations.map((o) => o.id), 'other'];
  return [...durations]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([operation, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return {
        operation,
        requests: sorted.length,
        medianMs: percentile(sorted, 0.5),
        p95Ms: percentile(sorted, 0.95),
        maxMs: sorted[sorted.length - 1]!,
      };
    });
}

/** The nearest-rank percentile of sorted values: the smallest value with at least `p` of them at or below it. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function operationOf(
  curl: string,
  baseUrl: string,
  matchers: { operation: OperationPath; pattern: RegExp }[],
): string | undefined {
  const request = readCurl(curl);
  if (!request || !request.url.startsWith(baseUrl)) return undefined;
  const path = request.url.slice(baseUrl.length).split(/[?#]/)[0] || '/';
  return matchers.find((m) => m.operation.method.toUpperCase() === request.method && m.pattern.test(path))?.operation
    .id;
}

/** `/pets/{petId}` → `^/pets/[^/]+$`: a path parameter is one non-empty segment (OpenAPI 3.0 §4.7.8). */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}
