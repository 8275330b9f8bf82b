import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Spec } from '../openapi/load-spec.js';
import type { Operation } from '../openapi/operations.js';
import type { Context, Handler, Reply } from './context.js';
import type { Cors } from './cors.js';
import type { PetStore } from './store.js';
import { apiError, toApiError, type ApiError } from '../errors.js';
import { createRouter } from './router.js';
import { createAuthenticator } from './authenticate.js';
import { parseParameters } from './parse-parameters.js';
import { readBody } from './read-body.js';
import { deprecationHeaders } from './deprecation.js';
import { parsePrefer, type Preference } from './prefer.js';
import { createScenarios } from './scenarios.js';
import { createFaults, MAX_DELAY_MS, type Faults } from './faults.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { redactKeys } from '../log/redact-url.js';

/** A request as the pipeline sees it: no Express, just what HTTP carries. */
export interface MockRequest {
  method: string;
  /** The request target relative to where the mock is mounted, query included: `/v1/pets?limit=5`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  /** Where a host app mounted the mock (`/api`), or ''. */
  mountPath: string;
  /**
   * Sends `100 Continue` to a client that asked for it (`Expect: 100-continue`); called by the body stage only once
   * the key, the parameters and the body's declared size and type have passed (see express-adapter's use).
   */
  sendContinue?: () => void;
}

/** One finished request, for observers such as a request log or a journal. */
export interface Exchange {
  request: MockRequest;
  /** The operation the request matched, if any. */
  operation: Operation | undefined;
  reply: Reply;
  /** The request body as parsed and validated, when the request got that far. */
  requestBody?: unknown;
  /** Bytes of request body actually read (0 when none was read). */
  requestBytes?: number;
  /** From the pipeline's start to the reply, in milliseconds. */
  durationMs: number;
}

export interface PipelineOptions {
  spec: Spec;
  store: PetStore;
  apiKeys: readonly string[];
  bodyLimit: number;
  cors: Cors;
  handlers: Record<string, Handler>;
  /** Serves operations without a handler; undefined when every operation has one. */
  fallback: Handler | undefined;
  /** Told about failures of the mock itself (never about a client's mistakes). */
  onInternalError: (error: unknown, request: MockRequest) => void;
  /** Told about every finished request; kept cheap when empty, since it sits on the hot path. */
  observers: Set<(exchange: Exchange) => void>;
  /** Global latency and fault rate; default: none. */
  faults?: Faults;
}

// A stateful mock must not be cached by browsers or proxies; nosniff keeps JSON from being sniffed as HTML.
const BASE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;
// Most requests carry no query; they share one empty (never mutated) parameter list instead of parsing ''.
const NO_QUERY = new URLSearchParams();

/**
 * The one place where the order of a request's stages lives:
 * CORS preflight → route → fault → authenticate → parameters → body → scenario (`Prefer`) → handler (or prism
 * fallback) → latency → reply headers. The scenario stage sits after every input check, so a request that is wrong
 * anyway (no key, a bad parameter or body) gets its real error, and before the handler, so a forced answer never
 * changes the store; a dropped connection is decided before authentication and never reaches the handler either.
 * Every stage either passes or throws an ApiError; the result is always a Reply, errors in the Error shape.
 */
export function createPipeline(options: PipelineOptions) {
  const { spec, store, cors, handlers, fallback, bodyLimit } = options;
  const router = createRouter(spec.operations, spec.basePath);
  const authenticate = createAuthenticator(options.apiKeys);
  const deprecations = new Map<string, (mountPath: string) => Record<string, string>>();
  for (const operation of spec.operations) {
    const headersFor = deprecationHeaders(operation, spec.operationById, spec.basePath);
    if (headersFor) deprecations.set(operation.id, headersFor);
  }
  const forceScenario = createScenarios(spec, (id) => handlers[id] !== undefined);
  const faults = options.faults ?? createFaults();
  const byOperation = new Map<string, Handler>();
  for (const operation of spec.operations) {
    const handler = handlers[operation.id] ?? fallback;
    if (handler) byOperation.set(operation.id, handler);
  }

  async function run(request: MockRequest, path: string, search: string, preference: Preference): Promise<Result> {
    const { operation, pathParams } = router.match(request.method, path);
    let body: unknown;
    let bytes = 0;
    try {
      if (faults.drop()) return { reply: { status: 0, drop: true }, operation };
      if (operation.requiresBearer) authenticate(request.headers.authorization);
      const params = parseParameters(operation, { query: search === '' ? NO_QUERY : new URLSearchParams(search), path: pathParams, headers: request.headers });
      if (operation.body) {
        body = await readBody(operation.body, request.body, request.headers, {
          limit: bodyLimit,
          beforeRead: request.sendContinue,
          onRead: (read) => (bytes = read),
        });
      }
      const forced = forceScenario(operation, preference);
      if (forced) return { reply: forced, operation, body, bytes };
      const handler = byOperation.get(operation.id);
      if (!handler) throw apiError('internal_error', `${operation.id} has no handler`);
      const context: Context = {
        operation,
        params,
        body,
        store,
        headers: request.headers,
        urlFor: (id, values) => request.mountPath + spec.basePath + fillerFor(id)(values),
      };
      return { reply: await handler(context), operation, body, bytes };
    } catch (error) {
      return { reply: errorReply(error, request), operation, body, bytes };
    }
  }

  function errorReply(error: unknown, request: MockRequest): Reply {
    const failure: ApiError = toApiError(error);
    if (failure.status >= 500) options.onInternalError(error, request);
    // A message may quote what the client sent (a path, a parameter): a key put there is never echoed back.
    const body = failure.toBody();
    body.message = redactKeys(body.message, options.apiKeys);
    return { status: failure.status, headers: failure.headers, body };
  }

  function preflight(request: MockRequest, path: string): Reply {
    const allow = router.allowed(path);
    if (!allow) return errorReply(apiError('not_found', `no operation at ${path}`), request);
    const requestHeaders = request.headers['access-control-request-headers'];
    const headers = request.headers['access-control-request-method']
      ? cors.preflightHeaders(request.headers.origin, allow, requestHeaders)
      : { Allow: allow, ...cors.responseHeaders(request.headers.origin) };
    return { status: 204, headers };
  }

  function observe(request: MockRequest, operation: Operation | undefined, reply: Reply, startedAt: number, requestBody?: unknown, requestBytes = 0): Reply {
    if (options.observers.size === 0) return reply;
    const exchange: Exchange = { request, operation, reply, requestBody, requestBytes, durationMs: performance.now() - startedAt };
    for (const observer of options.observers) {
      // An observer's failure must not turn an answer the store already acted on into a 500 (a client would retry
      // a create that succeeded), nor keep the observers after it from hearing of the request.
      try {
        observer(exchange);
      } catch (error) {
        options.onInternalError(error, request);
      }
    }
    return reply;
  }

  // Path templates split once per operation, so that building a Location costs no regular expression per request.
  const fillers = new Map<string, PathFiller>();
  function fillerFor(operationId: string): PathFiller {
    let filler = fillers.get(operationId);
    if (!filler) {
      filler = pathFiller(spec.operationById.get(operationId)?.path ?? '');
      fillers.set(operationId, filler);
    }
    return filler;
  }

  return async function handle(request: MockRequest): Promise<Reply> {
    const startedAt = options.observers.size === 0 ? 0 : performance.now();
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
    if (request.method === 'OPTIONS') {
      const answer = preflight(request, path);
      // nosniff and no-store on every answer, preflights and their errors included (the CORS preflight cache
      // follows Access-Control-Max-Age, not Cache-Control).
      answer.headers = replyHeaders(answer.headers);
      return observe(request, undefined, answer, startedAt);
    }
    const preference = parsePrefer(request.headers.prefer);
    let result: Result;
    try {
      result = await run(request, path, search, preference);
    } catch (error) {
      result = { reply: errorReply(error, request) };
    }
    const { reply, operation } = result;
    // Latency applies to every answer, errors included: a slow network is slow for all of them.
    // A malformed or too long `Prefer: delay` got its 400 and is not honoured.
    const honoured = preference.invalid === undefined && (preference.delay ?? 0) <= MAX_DELAY_MS;
    const wait = faults.delay(honoured ? preference.delay : undefined);
    if (wait > 0) await sleep(wait);
    const deprecation = operation && deprecations.get(operation.id)?.(request.mountPath);
    reply.headers = replyHeaders(reply.headers, cors.responseHeaders(request.headers.origin), deprecation);
    return observe(request, operation, reply, startedAt, result.body, result.bytes);
  };
}

interface Result {
  reply: Reply;
  operation?: Operation;
  body?: unknown;
  bytes?: number;
}

export type Pipeline = ReturnType<typeof createPipeline>;

/** The base headers, then the reply's own, CORS and deprecation: one new object, no spreads on the hot path. */
function replyHeaders(own?: Record<string, string>, cors?: Record<string, string>, deprecation?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': BASE_HEADERS['Cache-Control'], 'X-Content-Type-Options': BASE_HEADERS['X-Content-Type-Options'] };
  if (own) Object.assign(headers, own);
  if (cors) Object.assign(headers, cors);
  if (deprecation) Object.assign(headers, deprecation);
  return headers;
}

type PathFiller = (values: Record<string, string | number>) => string;

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
