import type { Spec } from '../../openapi/load-spec.js';
import type { CaseResult } from '../base/case-result.js';

/**
 * An operation of the document as the reports list it, and what the document alone says of reaching it: the reason
 * given when no case sent it a request and no case said why.
 */
export interface OperationPlan {
  /** The operationId (`METHOD /path` where the document gives none); a webhook's `webhook NAME METHOD`. */
  operation: string;
  /** Upper case: `GET`. */
  method: string;
  /** The path template (`/pets/{petId}`), or for a webhook `webhooks.NAME`. */
  path: string;
  /** Why the runner has no request for it, as the document shapes it, when no case says otherwise. */
  unsent: string;
}

/** What a run sent to one operation of the document. */
export interface OperationRun {
  operation: string;
  method: string;
  path: string;
  /** Every request sent to it, wrong credentials included. */
  requests: number;
  /**
   * The requests that carried the valid credentials (all but the auth checks' wrong ones): its answers to them are
   * what the run judged of it.
   */
  judged: number;
  /** Set when no request with valid credentials reached it: why, from the cases that would have sent one or the document. */
  notRun?: string;
}

/** The cases whose every request carries wrong credentials, or none: they judge an operation's authentication only. */
const AUTH_CHECKS = new Set(['auth.required', 'generated.auth-rejected']);

/** Why a webhook is not run (docs/contract.md quotes it, and a test holds the two together). */
export const WEBHOOK_REASON =
  'a webhook (OpenAPI 3.1 `webhooks`): the API sends it; the runner sends requests to the API only';
/** Why an operation no case is written for is not run: the runner's limit, said as such. */
export const NO_CASE_REASON = 'no case of the runner sends it a request (a limit of the runner, not of the document)';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every operation of the document, its webhooks included (OpenAPI 3.1 §4.8.1: requests the API sends, which a
 * runner of requests to the API never sends), each with the reason the document gives for leaving it without a
 * request: a webhook; path parameters that name no item of a collection the run can create (the resource model's
 * words for it); else that no case of the runner sends one, which is the runner's limit, said as such.
 */
export function planOperations(spec: Pick<Spec, 'operations' | 'resources' | 'document'>): OperationPlan[] {
  const roles = new Map(spec.resources.operations.map((o) => [o.operationId, o]));
  const creatable = new Set(spec.resources.collections.filter((c) => c.operations.create).map((c) => c.name));
  const plans: OperationPlan[] = spec.operations.map((operation) => {
    const parameters = operation.parameters.filter((p) => p.in === 'path').map((p) => `{${p.name}}`);
    const role = roles.get(operation.id);
    const reachable = role?.collection !== undefined && creatable.has(role.collection);
    const unsent =
      parameters.length > 0 && !reachable
        ? `its path parameter${parameters.length === 1 ? '' : 's'} ${parameters.join(', ')} ${parameters.length === 1 ? 'names' : 'name'} no item of a collection the run can create (${role?.role === 'none' || !role ? role?.reason ?? 'no resource role' : `no create beside its ${role.role}`})`
        : NO_CASE_REASON;
    return { operation: operation.id, method: operation.method.toUpperCase(), path: operation.path, unsent };
  });
  return [...plans, ...webhooksOf(spec.document)];
}

/** The document's webhooks (OpenAPI 3.1 §4.8.1), each method of each as one operation no request of the run is for. */
function webhooksOf(document: object): OperationPlan[] {
  const webhooks = (document as { webhooks?: Record<string, Record<string, unknown> | undefined> }).webhooks ?? {};
  return Object.entries(webhooks).flatMap(([name, item]) =>
    METHODS.filter((method) => item?.[method] !== undefined).map((method) => ({
      operation: `webhook ${name} ${method.toUpperCase()}`,
      method: method.toUpperCase(),
      path: `webhooks.${name}`,
      unsent: WEBHOOK_REASON,
    })),
  );
}

/**
 * What the run sent to each planned operation, from the cases' requests: how many, how many with the valid
 * credentials, and for one no such request reached, why: the reason of a case about it that was skipped or not run
 * (`read-only: …`, `the generated phase is off`), else the document's (planOperations). A request without valid
 * credentials (the auth checks') judges the operation's authentication only, so it is said but does not count.
 */
export function operationRuns(plans: OperationPlan[], cases: CaseResult[]): OperationRun[] {
  return plans.map((plan) => {
    const sent = cases.flatMap((result) =>
      result.requests.filter((r) => r.operation === plan.operation).map(() => !AUTH_CHECKS.has(result.check)),
    );
    const judged = sent.filter(Boolean).length;
    const run: OperationRun = {
      operation: plan.operation,
      method: plan.method,
      path: plan.path,
      requests: sent.length,
      judged,
    };
    if (judged > 0) return run;
    const left = cases.find(
      (result) =>
        (result.status === 'skipped' || result.status === 'notRun') &&
        result.reason !== undefined &&
        result.operation.split('+').includes(plan.operation),
    );
    const why = left ? `${left.reason} (${left.id})` : plan.unsent;
    const unkeyed = sent.length === 0 ? '' : `only ${sent.length} request${sent.length === 1 ? '' : 's'} without valid credentials; `;
    return { ...run, notRun: `${unkeyed}${why}` };
  });
}

/** Whether a run judged nothing: no operation of the document got a request with the valid credentials. */
export function judgedNothing(runs: OperationRun[] | undefined): boolean {
  return runs !== undefined && runs.every((run) => run.notRun !== undefined);
}

/** Why a run judged nothing, in one line: `nothing judged: …`. */
export function nothingJudgedLine(runs: OperationRun[]): string {
  if (runs.length === 0) return 'nothing judged: the document declares no operation to send a request to';
  const first = runs[0]!;
  return `nothing judged: no request with valid credentials reached any of the document's ${runs.length} operation${runs.length === 1 ? '' : 's'} (${first.operation}: ${first.notRun}${runs.length > 1 ? '; each is listed as not run, with why' : ''})`;
}
