import type { Operation } from '../../openapi/operations.js';
import { toApiError } from '../../errors.js';
import { errorTemplate } from './error-template.js';

/**
 * What every route answers: a status, headers, and either a JSON value (`body`, sent as application/json) or raw
 * content (`bytes`, with its own Content-Type among the headers: the docs page and its assets). A reply is a value:
 * nothing changes it once it is made; the finishing step builds a new, frozen one.
 */
export interface Reply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON-able value, sent as `application/json`. */
  readonly body?: unknown;
  /** Raw content (text or bytes); `headers` carries its Content-Type. */
  readonly bytes?: string | Uint8Array;
  /** Destroy the connection instead of answering (a simulated network fault); `status` is then 0. */
  readonly drop?: true;
}

/** A reply after the one finishing step: every header set, the payload serialised. Frozen, so observers see what is sent. */
export interface FinishedReply extends Reply {
  readonly headers: Readonly<Record<string, string>>;
  /** What goes on the wire (undefined: no content); HEAD requests get the headers only. */
  readonly payload: string | Uint8Array | undefined;
}

/**
 * The 5xx codes that are no fault of this package's: an operation the mock has no answer for (a 3.1 operation that
 * declares no responses; the browser build's operations without a role), a shared store that is away (logged once per outage by the
 * store, not per request), a status a test asked for (`force` in /__admin/control), and what the proxy answers for
 * an upstream that failed or broke the contract, or for its own full answer budget (told to the operator by the
 * proxy, in its own words).
 */
const NOT_INTERNAL = new Set([
  'not_implemented',
  'store_unavailable',
  'forced',
  'upstream_unavailable',
  'upstream_violation',
  'upstream_outcome_unknown',
  'upstream_timeout',
  'proxy_overloaded',
]);

/**
 * The one error-to-reply function: any thrown value becomes an error answer. An ApiError keeps its own status, code
 * and headers; anything else is a 500 that reveals nothing, reported to `onInternalError`. Answered for `operation`,
 * the answer takes what the operation declares for its status (error-template.ts: the document's media type and
 * schema); without one, or where the document declares nothing for the status, the interface's Error shape
 * `{code, message, status}`.
 */
export function errorReply(
  error: unknown,
  onInternalError: (error: unknown) => void,
  redact?: (text: string) => string,
  operation?: Operation,
): Reply {
  const failure = toApiError(error);
  if (failure.status >= 500 && !NOT_INTERNAL.has(failure.code)) onInternalError(error);
  // A message may quote what the client sent (a path, a parameter): a key put there is never echoed back.
  const message = redact ? redact(failure.message) : failure.message;
  const template = operation && errorTemplate(operation, failure.status);
  if (template) return template.reply(failure, message);
  return {
    status: failure.status,
    headers: failure.headers,
    body: { code: failure.code, message, status: failure.status },
  };
}

/** A copy of `reply` with `headers` added (over its own); the original is left as it was. */
export function withHeaders(reply: Reply, headers: Readonly<Record<string, string>>): Reply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

/** Whether a stage answered later (a promise) rather than at once: the in-memory store answers at once. */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
