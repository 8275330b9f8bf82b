import type { DocumentModel } from './document/document-model.js';
import type { MockRequest } from './mock-request.js';
import type { Runtime } from './runtime.js';
import type { Action, Call, Route } from './front-door/route-table.js';
import type { FinishedReply, Reply } from './base/reply.js';
import { errorReply, isPending } from './base/reply.js';
import { ADMIN, routeError } from './front-door/route-table.js';
import { ADMIN_PREFIX } from './admin/admin.js';
import type { Cors } from './base/cors.js';
import { finishReply } from './front-door/finish-reply.js';
import { notifyObservers } from './front-door/observers.js';
import { parsePrefer } from './stages/negotiate-prefer.js';
import { MAX_DELAY_MS } from './base/faults.js';
import { apiError } from '../errors.js';

const NO_PREFERENCE = parsePrefer(undefined);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one front door. Every request, the document's operations, `/__admin` and `/docs` alike, goes:
 *
 *   route table → OPTIONS (Allow or CORS preflight) | 405 | action (for an operation: pipeline.ts's stages)
 *     → error → reply (one function) → latency (API only) → finishing step (base headers, CORS, HEAD)
 *     → observers (API only)
 *
 * The document model is read once per request, so a reload swapping it leaves requests in flight on the model
 * they started with.
 */
export function createDispatch(runtime: Runtime, currentModel: () => DocumentModel) {
  /**
   * Continuations instead of an async function: a request whose stages all answer at once (the in-memory store)
   * then costs no suspended frame and no promise of its own here, only the one `dispatch` hands back.
   */
  function answer(request: MockRequest): FinishedReply | Promise<FinishedReply> {
    const model = currentModel();
    const observing = runtime.observers.size > 0;
    const startedAt = observing ? performance.now() : 0;
    const { method, url } = request;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const route = model.routes.find(path);
    const { area } = route;
    const call: Call = {
      request,
      path,
      search: queryAt === -1 ? '' : url.slice(queryAt + 1),
      pathParams: route.pathParams,
      // A Prefer set through the admin API's control serves every API request that sends none of its own.
      preference: area.delayed ? runtime.control.preference(request.headers.prefer) : NO_PREFERENCE,
    };
    const cors = area === ADMIN ? runtime.adminCors : runtime.cors;
    let action: Action | undefined;

    const failed = (error: unknown): Reply => errorReply(error, (failure) => runtime.onInternalError(failure, request), runtime.redactKeys);

    // --state: a change is acknowledged only once it is on disk (group commit, state-file.ts), so a crash right
    // after a 201 loses nothing and no id it handed out comes back. What the upstream answered changed nothing here.
    const stateFile = SAFE_METHODS.has(method) ? undefined : runtime.stateFile;
    const committed = (reply: Reply): Reply | Promise<Reply> => {
      if (!stateFile || reply.status < 200 || reply.status >= 400 || call.source === 'upstream') return reply;
      return stateFile.commit().then(
        () => reply,
        (error: NodeJS.ErrnoException) => {
          throw apiError('store_unavailable', `the change could not be written to the state file (${error.code ?? error.message}): it is not acknowledged`, { 'Retry-After': '1' });
        },
      );
    };

    const finish = (reply: Reply): FinishedReply => {
      const finished = finishReply(reply, method, request.headers.origin, cors, action?.headersFor?.(request.mountPath));
      if (observing && area.observed) {
        notifyObservers(
          runtime.observers,
          { request, spec: model.spec, operation: action?.operation, reply: finished, requestBody: call.body, requestBytes: call.requestBytes, durationMs: performance.now() - startedAt, violations: call.violations, source: call.source },
          (error) => runtime.onInternalError(error, request),
        );
      }
      return finished;
    };

    // Latency applies to every API answer, errors included (a slow network is slow for all of them), but not to a
    // CORS preflight. A malformed or too long `Prefer: delay` got its 400 and is not honoured.
    const settle = (reply: Reply): FinishedReply | Promise<FinishedReply> => {
      if (area.delayed && method !== 'OPTIONS') {
        const { delay, invalid } = call.preference;
        const wait = runtime.faults.delay(invalid === undefined && (delay ?? 0) <= MAX_DELAY_MS ? delay : undefined);
        // The global setTimeout (not timers/promises), so that tests can drive latency with fake timers.
        if (wait > 0) return new Promise((resolve) => setTimeout(resolve, wait)).then(() => finish(reply));
      }
      return finish(reply);
    };

    let outcome: Reply | Promise<Reply>;
    try {
      if (method === 'OPTIONS') outcome = answerOptions(route, request, cors, path);
      else {
        // RFC 9110 §9.3.2: HEAD is answered like GET, without the content (the finishing step drops it).
        action = route.actions.get(method) ?? (method === 'HEAD' ? route.actions.get('GET') : undefined);
        if (!action) throw routeError(route, method, path);
        // A status forced through the admin API's control answers before anything else looks at the request.
        const forced = area.delayed ? runtime.control.forced(path) : undefined;
        if (forced) throw forced;
        const ran = action.run(call);
        // Without a state file to wait for, the stage's answer is the outcome as it is: no extra turn of the queue.
        outcome = !stateFile ? ran : isPending(ran) ? ran.then(committed) : committed(ran);
      }
    } catch (error) {
      outcome = failed(error);
    }
    // Only what the stages did is turned into an error reply; a fault of the finishing step or of an observer
    // rejects, as it did when this was one async function, and reaches the adapter's last resort.
    if (isPending(outcome)) return outcome.then(settle, (error: unknown) => settle(failed(error)));
    return settle(outcome);
  }

  return function dispatch(request: MockRequest): Promise<FinishedReply> {
    try {
      return Promise.resolve(answer(request));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatch>;

/** OPTIONS on a known path: 204 with `Allow`, or a CORS preflight's answer; needs no key (browsers send none). */
function answerOptions(route: Route, request: MockRequest, cors: Cors, path: string): Reply {
  if (route.allow === undefined) throw routeError(route, 'OPTIONS', path);
  const { headers } = request;
  if (headers['access-control-request-method']) {
    const answer = cors.preflightHeaders(headers.origin, route.allow, headers['access-control-request-headers']);
    // A refused preflight is a 403 that says why (a 204 without CORS headers looked like success in every log).
    if (!answer['Access-Control-Allow-Origin']) throw apiError('cors_refused', refusal(headers.origin, path), answer);
    return { status: 204, headers: answer };
  }
  return { status: 204, headers: { Allow: route.allow } };
}

/** Why a browser on `origin` may not call `path`, and what allows it. */
function refusal(origin: string | undefined, path: string): string {
  const admin = path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
  return admin
    ? `the admin API answers browsers only on origins named with --cors-origin (any web page could otherwise wipe the store); ${origin ?? 'this origin'} is not one`
    : `CORS does not allow ${origin ?? 'this origin'}: only the origins named with --cors-origin may call the mock from a browser (none with --no-cors)`;
}
