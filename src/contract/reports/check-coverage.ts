import type { CaseResult, CoverageRow } from '../base/case-result.js';
import type { CheckId } from '../base/check-ids.js';

/** One operation × check: the operation's role in the resource model, and how the cases that judged it went. */
export interface CheckCoverageRow {
  operation: string;
  /** The operation's role (create, list, read, replace, merge, delete), `none`, or undefined when not known. */
  role: string | undefined;
  check: CheckId;
  passed: number;
  failed: number;
  /** Cases of this check that could not try it (deadline, cap): never passed. */
  notRun: number;
  /** Cases of this check left out (read-only, the phase off, a premise broken). */
  skipped: number;
}

/**
 * Coverage per operation × role × check, from the cases: a check a case evaluated counts on each operation the case
 * is about (`createPet+getPet` on both), a failure on the operation it names; a case skipped or not run counts its
 * own check as such, never as passed. Roles come from the coverage table (the resource model, by operation).
 */
export function checkCoverage(cases: CaseResult[], coverage: CoverageRow[]): CheckCoverageRow[] {
  const roles = new Map(coverage.map((row) => [row.operation, row.role]));
  const rows = new Map<string, CheckCoverageRow>();
  const row = (operation: string, check: CheckId) => {
    const key = `${operation}\u0000${check}`;
    let found = rows.get(key);
    if (!found) rows.set(key, (found = { operation, role: roles.get(operation), check, passed: 0, failed: 0, notRun: 0, skipped: 0 }));
    return found;
  };
  for (const result of cases) {
    const operations = result.operation === '*' ? [] : result.operation.split('+');
    for (const [check, outcome] of Object.entries(result.checks) as [CheckId, string][])
      if (outcome === 'passed') for (const operation of operations) row(operation, check).passed++;
    for (const check of new Set(result.failures.map((f) => `${f.operation}\u0000${f.check}`))) {
      const [operation, id] = check.split('\u0000') as [string, CheckId];
      row(operation, id).failed++;
    }
    if (result.status === 'notRun' || result.status === 'skipped')
      for (const operation of operations) row(operation, result.check)[result.status]++;
  }
  const order = [...new Set(coverage.map((r) => r.operation))];
  const place = (operation: string) => (order.includes(operation) ? order.indexOf(operation) : order.length);
  return [...rows.values()].sort((a, b) => place(a.operation) - place(b.operation) || a.operation.localeCompare(b.operation) || a.check.localeCompare(b.check));
}

/** An operation's checks in one line: `createPet (create): 14 passed; failed: create.echo; not run: …`. */
export function checkCoverageLines(rows: CheckCoverageRow[]): string[] {
  const operations = [...new Set(rows.map((r) => r.operation))];
  return operations.map((operation) => {
    const mine = rows.filter((r) => r.operation === operation);
    const named = (state: 'failed' | 'notRun' | 'skipped', label: string) => {
      const checks = mine.filter((r) => r[state] > 0).map((r) => r.check);
      return checks.length ? `; ${label}: ${checks.join(', ')}` : '';
    };
    const passed = mine.filter((r) => r.passed > 0 && r.failed === 0).length;
    return `${operation}${mine[0]!.role ? ` (${mine[0]!.role})` : ''}: ${passed} check${passed === 1 ? '' : 's'} passed${named('failed', 'failed')}${named('notRun', 'not run')}${named('skipped', 'skipped')}`;
  });
}
