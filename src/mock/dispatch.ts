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
  return function dispatch(request: MockRequest): Promise<FinishedReply> {
    try {
      return Promise.resolve(new FrontDoorVisit(runtime, currentModel(), request).answer());
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/**
 * One request through the front door, its steps as named methods. Continuations instead of an async function: a
 * request whose stages all answer at once (the in-memory store) then costs no suspended frame and no promise of its
 * own here, only the one `dispatch` hands back.
 */
class FrontDoorVisit {
  private readonly observing: boolean;
  private readonly startedAt: number;
  private readonly path: string;
  private readonly route: Route;
  private readonly call: Call;
  private readonly cors: Cors;
  /** The state file a change waits for before it is acknowledged (none for a safe method). */
  private readonly stateFile: Runtime['stateFile'];
  private action: Action | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly model: DocumentModel,
    private readonly request: MockRequest,
  ) {
    this.observing = runtime.observers.size > 0;
    this.startedAt = this.observing ? performance.now() : 0;
    const { method, url } = request;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    this.path = path;
    this.route = model.routes.find(path);
    const { area } = this.route;
    this.call = {
      request,
      path,
      search: queryAt === -1 ? '' : url.slice(queryAt + 1),
      pathParams: this.route.pathParams,
      // A Prefer set through the admin API's control serves every API request that sends none of its own.
      preference: area.delayed ? runtime.control.preference(request.headers.prefer) : NO_PREFERENCE,
    };
    this.cors = area === ADMIN ? runtime.adminCors : runtime.cors;
    // --state: a change is acknowledged only once it is on disk (group commit, state-file.ts), so a crash right
    // after a 201 loses nothing and no id it handed out comes back.
    this.stateFile = SAFE_METHODS.has(method) ? undefined : runtime.stateFile;
  }

  answer(): FinishedReply | Promise<FinishedReply> {
    let outcome: Reply | Promise<Reply>;
    try {
      outcome = this.run();
    } catch (error) {
      outcome = this.failed(error);
    }
    // Only what the stages did is turned into an error reply; a fault of the finishing step or of an observer
    // rejects, as it did when this was one async function, and reaches the adapter's last resort.
    if (isPending(outcome)) {
      return outcome.then(
        (reply) => this.settle(reply),
        (error: unknown) => this.settle(this.failed(error)),
      );
    }
    return this.settle(outcome);
  }

  /** OPTIONS, or the route's action for the method (405 without one): what the stages answer, committed. */
  private run(): Reply | Promise<Reply> {
    const { method } = this.request;
    const { route, path } = this;
    if (method === 'OPTIONS') return answerOptions(route, this.request, this.cors, path);
    // RFC 9110 §9.3.2: HEAD is answered like GET, without the content (the finishing step drops it).
    this.action = route.actions.get(method) ?? (method === 'HEAD' ? route.actions.get('GET') : undefined);
    if (!this.action) throw routeError(route, method, path);
    // A status forced through the admin API's control answers before anything else looks at the request.
    const forced = route.area.delayed ? this.runtime.control.forced(path) : undefined;
    if (forced) throw forced;
    const ran = this.action.run(this.call);
    // Without a state file to wait for, the stage's answer is the outcome as it is: no extra turn of the queue.
    if (!this.stateFile) return ran;
    return isPending(ran) ? ran.then((reply) => this.committed(reply)) : this.committed(ran);
  }

  /** A change acknowledged once the state file has it. What the upstream answered changed nothing here. */
  private committed(reply: Reply): Reply | Promise<Reply> {
    if (!this.stateFile || reply.status < 200 || reply.status >= 400 || this.call.source === 'upstream') return reply;
    return this.stateFile.commit().then(
      () => reply,
      (error: NodeJS.ErrnoException) => {
        throw apiError(
          'store_unavailable',
          `the change could not be written to the state file (${error.code ?? error.message}): it is not acknowledged`,
          { 'Retry-After': '1' },
        );
      },
    );
  }

  /** The error's answer, in the words of the operation the request reached (none: a 404, a 405, admin, docs). */
  private failed(error: unknown): Reply {
    return errorReply(
      error,
      (failure) => this.runtime.onInternalError(failure, this.request),
      this.runtime.redactKeys,
      this.action?.operation,
    );
  }

  /**
   * Latency applies to every API answer, errors included (a slow network is slow for all of them), but not to a
   * CORS preflight. A malformed or too long `Prefer: delay` got its 400 and is not honoured.
   */
  private settle(reply: Reply): FinishedReply | Promise<FinishedReply> {
    if (this.route.area.delayed && this.request.method !== 'OPTIONS') {
      const { delay, invalid } = this.call.preference;
      const wait = this.runtime.faults.delay(invalid === undefined && (delay ?? 0) <= MAX_DELAY_MS ? delay : undefined);
      // The global setTimeout (not timers/promises), so that tests can drive latency with fake timers.
      if (wait > 0) return new Promise((resolve) => setTimeout(resolve, wait)).then(() => this.finish(reply));
    }
    return this.finish(reply);
  }

  /** The one finishing step, then the observers (API only) see the reply as sent. */
  private finish(reply: Reply): FinishedReply {
    const { request, action, call, runtime } = this;
    const finished = finishReply(
      reply,
      request.method,
      request.headers.origin,
      this.cors,
      action?.headersFor?.(request.mountPath),
    );
    if (this.observing && this.route.area.observed) {
      notifyObservers(
        runtime.observers,
        {
          request,
          spec: this.model.spec,
          operation: action?.operation,
          reply: finished,
          requestBody: call.body,
          requestBytes: call.requestBytes,
          durationMs: performance.now() - this.startedAt,
          violations: call.violations,
          source: call.source,
        },
        (error) => runtime.onInternalError(error, request),
      );
    }
    return finished;
  }
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
