import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { Context, Handler } from './context.js';
import type { Action, Call } from './route-table.js';
import type { Reply } from '../base/reply.js';
import type { Runtime } from '../runtime.js';
import type { ScenarioTable } from '../base/scenario-tables.js';
import { apiError } from '../../errors.js';
import { isPending, withHeaders } from '../base/reply.js';
import { dropConnection } from '../stages/drop-connection.js';
import { parseParameters, type Parameters } from '../stages/parse-parameters.js';
import { readBody } from '../stages/read-body.js';
import { negotiatePrefer } from '../stages/negotiate-prefer.js';
import type { Authorizer } from '../stages/authorize.js';
import type { BodyReaders } from '../stages/body-readers.js';
import type { OperationSecurity } from '../../openapi/security.js';
import { deprecationHeaders } from './deprecation.js';

/** What the stages of one document's operations share: built with the document model, rebuilt on reload. */
export interface PipelineParts {
  spec: Spec;
  runtime: Runtime;
  tables: ReadonlyMap<string, ScenarioTable>;
  handlers: Readonly<Record<string, Handler>>;
  /** Serves operations without a handler (prism-http); undefined when every operation has one. */
  fallback: Handler | undefined;
  /**
   * Builds an operation's credential check (stages/authorize.ts), loaded for a document with a requirement other
   * than v1's bearer key; undefined for one without.
   */
  authorizerFor: ((security: OperationSecurity) => Authorizer | undefined) | undefined;
  /** `urlFor('getPet', { petId: 7 })` → `/v1/pets/7` (below the mount path). */
  urlFor: (operationId: string, values: Record<string, string | number>) => string;
  /** The readers of form and multipart bodies (stages/body-readers.ts), loaded for a document that declares one. */
  bodyReaders?: BodyReaders | undefined;
}

// Most requests carry no query; they share one empty (never mutated) parameter list instead of parsing ''.
const NO_QUERY = new URLSearchParams();

/**
 * The one place where the order of an API request's stages lives. The front door (dispatch.ts) has already routed
 * the request (404, 405, OPTIONS) and parsed `Prefer`; then, here:
 *
 *   drop connection (--fault-rate) → authenticate (authorize) → parse parameters → read body → negotiate Prefer
 *     → handler (keyed by operationId) | forced answer from the document | prism-http for operations without a handler
 *
 * and back at the front door: error → reply, latency (--delay, Prefer: delay), the finishing step, observers.
 * A dropped connection is decided before authentication and never reaches the handler. `Prefer` is negotiated after
 * every input check, so a request that is wrong anyway gets its real error, and before the handler, so a forced
 * answer never changes the store. Every stage passes or throws an ApiError.
 */
export function createOperationAction(operation: Operation, parts: PipelineParts): Action {
  const { spec, runtime, fallback, urlFor } = parts;
  const handler = parts.handlers[operation.id];
  const serve = handler ?? fallback;
  const table = parts.tables.get(operation.id)!;
  // v1's one bearer scheme keeps its own check, as it always answered; every other requirement is weighed whole.
  const bearerOnly = operation.security.bearerOnly;
  const authorize = bearerOnly ? undefined : parts.authorizerFor?.(operation.security);
  // A handler that makes a stored item of the body (create, replace, merge); prism-http's answers are made of the
  // document alone, and a read, list or delete ignores a body.
  const role = handler && spec.resources.operations.find((o) => o.operationId === operation.id)?.role;
  const stores = role === 'create' || role === 'replace' || role === 'merge';

  // Not async functions: a stage that answers at once (the in-memory store) costs no promise and no suspended frame.
  function run(call: Call): Reply | Promise<Reply> {
    const { request } = call;
    const dropped = dropConnection(runtime.faults);
    if (dropped) return dropped;
    if (bearerOnly) runtime.authenticate(request.headers.authorization);
    else authorize?.({ headers: request.headers, search: call.search });
    const params = parseParameters(operation, {
      query: call.search === '' ? NO_QUERY : new URLSearchParams(call.search),
      path: call.pathParams,
      headers: request.headers,
    });
    if (!operation.body) return serveCall(call, params);
    return readBody(operation.body, request.body, request.headers, {
      limit: runtime.bodyLimit,
      // Expect: 100-continue is answered only now, after the key and the parameters passed (RFC 9110 §10.1.1).
      beforeRead: request.sendContinue,
      onRead: (read) => (call.requestBytes = read),
      readers: parts.bodyReaders,
      stores,
    }).then((body) => {
      call.body = body;
      return serveCall(call, params);
    });
  }

  function serveCall(call: Call, params: Parameters): Reply | Promise<Reply> {
    const { request } = call;
    const negotiation = negotiatePrefer(operation, table, call.preference, handler !== undefined);
    if (operation.responses.size === 0) throw noResponses(operation);
    if (!serve) throw apiError('internal_error', `${operation.id} has no handler`);
    const reply =
      negotiation?.forced ??
      serve({
        operation,
        params,
        body: call.body,
        store: runtime.store,
        headers: request.headers,
        urlFor: (id, values) => request.mountPath + urlFor(id, values),
        prism: negotiation?.prism,
      } satisfies Context);
    const headers = negotiation?.headers;
    if (!headers) return reply;
    return isPending(reply) ? reply.then((served) => withHeaders(served, headers)) : withHeaders(reply, headers);
  }

  return { operation, run, headersFor: deprecationHeaders(operation, spec.operationById, spec.basePath) };
}

/**
 * OpenAPI 3.1 lets an operation declare no `responses` (OAS 3.1.0 §4.8.10: no longer required); the mock then has no
 * answer it may give. A 501 in our Error shape, as the document declares nothing for it, and no fault of the mock's:
 * nothing is printed for it.
 */
function noResponses(operation: Operation) {
  return apiError(
    'not_implemented',
    `${operation.method.toUpperCase()} ${operation.path} (${operation.id}) declares no responses, so the mock has no answer to give; declare one in the document`,
  );
}

type PathFiller = (values: Record<string, string | number>) => string;

/** `urlFor('getPet', { petId: 7 })` → `/v1/pets/7`; path templates split once, so a Location costs no regular expression. */
export function createUrlFor(spec: Spec) {
  const fillers = new Map<string, PathFiller>();
  return (operationId: string, values: Record<string, string | number>): string => {
    let filler = fillers.get(operationId);
    if (!filler) {
      filler = pathFiller(spec.operationById.get(operationId)?.path ?? '');
      fillers.set(operationId, filler);
    }
    return spec.basePath + filler(values);
  };
}

/** `/pets/{petId}` → a function of `{ petId: 7 }` giving `/pets/7`, each value percent-encoded. */
function pathFiller(template: string): PathFiller {
  // With a capturing group, split keeps the names: literal, name, literal, name, …, literal.
  const parts = template.split(/\{([^}]+)\}/);
  return (values) => {
    let path = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) path += encodeURIComponent(String(values[parts[i]!])) + parts[i + 1]!;
    return path;
  };
}
