import type { Spec } from './load-spec.js';
import type { Operation } from './operations.js';
import type { Violation } from './describe-errors.js';
import { checkResponse, type ObservedResponse } from './check-response.js';

/** The check ids a response alone can break; the contract runner's ids (src/contract/base/check-ids.ts) of the same name. */
export type ResponseCheckId = 'status.documented' | 'content-type.json' | 'error.shape' | 'schema.response';

/** One broken rule as the proxy reports it: the check id and one line saying what came. */
export interface ContractViolation {
  check: string;
  message: string;
}

/** What one check found wrong with one response. */
export interface CheckFinding {
  check: ResponseCheckId;
  /** The violations in the order found, at least one. */
  violations: Violation[];
  /** The first three violations' messages in one line, and how many more there were. */
  message: string;
}

/**
 * The pure part of judging a response, shared by the contract runner (`judgeResponse`) and the proxy: the
 * document's rules (`checkResponse`) applied, each violation filed under its check id, one finding per check in
 * the order first seen. An empty array means the response keeps the contract.
 */
export function judgeObservedResponse(
  spec: Spec,
  operation: Operation | undefined,
  response: ObservedResponse,
): CheckFinding[] {
  const byCheck = new Map<ResponseCheckId, Violation[]>();
  for (const violation of checkResponse(spec, operation, response)) {
    const check = checkOf(violation, response.status);
    const found = byCheck.get(check);
    if (found) found.push(violation);
    else byCheck.set(check, [violation]);
  }
  return [...byCheck].map(([check, violations]) => ({
    check,
    violations,
    message:
      violations
        .slice(0, 3)
        .map((v) => v.message)
        .join('; ') + (violations.length > 3 ? `; and ${violations.length - 3} more` : ''),
  }));
}

function checkOf(violation: Violation, status: number): ResponseCheckId {
  if (violation.rule === 'documented-status') return 'status.documented';
  if (violation.rule === 'content-type' || violation.rule === 'json') return 'content-type.json';
  return status >= 400 ? 'error.shape' : 'schema.response';
}
