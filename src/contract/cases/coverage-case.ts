import { findResponse } from '../../openapi/operations.js';
import type { CoverageRow } from '../base/case-result.js';
import type { ContractCase } from '../engine/run-case.js';
import type { Session } from '../base/session.js';
import { writes } from '../engine/build-request.js';
import { cleanUpRun } from './clean-up-run.js';

/**
 * Every documented operation × status and whether the run saw it, plus statuses seen that the document does not
 * list (e.g. a 400 for a bad listPets limit, which the interface allows). A documented response no request
 * produced is a gap in the evidence, not a violation, unless the run requires coverage.
 */
export function coverageOf(session: Session): CoverageRow[] {
  const counts = new Map<string, number>();
  const undocumented = new Map<string, number>();
  for (const exchange of session.findings.exchanges) {
    const operation = session.spec.operationById.get(exchange.operation);
    if (!operation || exchange.status === undefined) continue;
    const documented = findResponse(operation, exchange.status);
    const key = documented
      ? [...operation.responses].find(([, spec]) => spec === documented)![0]
      : String(exchange.status);
    const into = documented ? counts : undocumented;
    into.set(`${operation.id} ${key}`, (into.get(`${operation.id} ${key}`) ?? 0) + 1);
  }
  const rows: CoverageRow[] = [];
  const roles = new Map(session.spec.resources.operations.map((o) => [o.operationId, o.role]));
  for (const operation of session.spec.operations) {
    for (const status of operation.responses.keys()) {
      const count = counts.get(`${operation.id} ${status}`) ?? 0;
      const skipped = count === 0 && session.config.readOnly && writes(operation);
      rows.push({
        operation: operation.id,
        // As the document writes it: `default` is the one key it writes in lower case (OpenAPI 3.0.3 §4.7.16).
        status: status === 'DEFAULT' ? 'default' : status,
        documented: true,
        count,
        ...(roles.has(operation.id) ? { role: roles.get(operation.id)! } : {}),
        state: count > 0 ? 'exercised' : skipped ? 'skipped' : 'missing',
      });
    }
    for (const [key, count] of undocumented) {
      const [id, status] = key.split(' ') as [string, string];
      if (id === operation.id) rows.push({ operation: id, status, documented: false, count, state: 'undocumented' });
    }
  }
  return rows;
}

export const coverageCase: ContractCase = {
  id: 'coverage.operation-status',
  check: 'coverage.operation-status',
  operation: '*',
  // True as printed when it passes: a read-only run cannot reach the statuses of writes, and says so in the title.
  title: 'every documented operation × status was exercised (in read-only mode, every one without a write)',
  writes: false,
  async run(ctx) {
    const rows = coverageOf(ctx.session);
    ctx.setCoverage(rows);
    // After the table is made (its deletes exercise nothing the run judged), before any verdict ends the case.
    await cleanUpRun(ctx);
    const missing = rows.filter((row) => row.state === 'missing');
    const documented = rows.filter((row) => row.documented);
    const exercised = documented.filter((row) => row.state === 'exercised').length;
    const skipped = documented.filter((row) => row.state === 'skipped').map((row) => `${row.operation} ${row.status}`);
    ctx.note(
      'coverage.operation-status',
      `${exercised} of ${documented.length} documented operation × status pairs exercised${skipped.length ? `; skipped (read-only): ${skipped.join(', ')}` : ''}`,
    );
    // An operation no request reached at all is named first: the gap --require-coverage exists for.
    const idle = [...new Set(documented.map((row) => row.operation))].filter((operation) =>
      documented.every((row) => row.operation !== operation || row.state === 'missing'),
    );
    const gaps = `${idle.length ? `operation${idle.length === 1 ? '' : 's'} ${idle.join(', ')} not once; ` : ''}${missing.map((row) => `${row.operation} ${row.status}`).join(', ')}`;
    if (missing.length === 0) return;
    if (ctx.session.config.requireCoverage)
      return ctx.fail(
        'coverage.operation-status',
        'every documented operation × status exercised (--require-coverage)',
        `never exercised: ${gaps}`,
      );
    ctx.note('coverage.operation-status', `never exercised: ${gaps} (use --require-coverage to fail the run on this)`);
    // Not a failure without --require-coverage, but never a ✓ either: the line would claim what the table denies.
    ctx.skip(`only ${exercised} of ${documented.length} documented pairs exercised; never exercised: ${gaps}`);
  },
};
