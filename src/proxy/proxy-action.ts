import { Readable } from 'node:stream';
import type { Spec } from '../openapi/load-spec.js';
import type { Operation } from '../openapi/operations.js';
import type { Action, Call } from '../mock/front-door/route-table.js';
import { errorReply, type Reply } from '../mock/base/reply.js';
import type { Runtime } from '../mock/runtime.js';
import type { MockRequest } from '../mock/mock-request.js';
import type { ContractViolation } from '../openapi/judge-observed.js';
import type { ProxyCheckId } from './proxy-checks.js';
import type { UpstreamHealth } from './upstream-health.js';
import { judgeObservedResponse } from '../openapi/judge-observed.js';
import { judgeAnswerBasics, NOT_UTF8_MESSAGE } from '../openapi/judge-answer-basics.js';
import { parseParameters } from '../mock/stages/parse-parameters.js';
import { bodyReaders } from '../mock/stages/body-readers.js';
import { readBody, TOO_DEEP } from '../mock/stages/read-body.js';
import { parsePrefer } from '../mock/stages/negotiate-prefer.js';
import { ApiError, apiError, isApiError } from '../errors.js';
import {
  connectionNamed,
  forwardRequest,
  headerText,
  isFailure,
  upstreamHeaders,
  type ForwardOptions,
  type UpstreamAnswer,
  type UpstreamFailure,
} from './forward-request.js';
import { jsonDepthExceeds, MAX_RESPONSE_JSON_DEPTH } from '../json/json-depth.js';
import { parseJson } from '../json/parse-json.js';
import { excerpt } from '../text/excerpt.js';
import { redactKeys } from '../log/redact-url.js';
import { credentialValues } from '../redact/credential-places.js';
import { bearerToken } from '../redact/request-secrets.js';

/** What every forwarding action of one proxy shares. */
export interface ProxyContext {
  /** The upstream's base URL (`https://staging.example/v1`), no trailing slash. */
  upstream: string;
  /** Its origin (`https://staging.example`) and base path (`/v1`, or ''), split once. */
  upstreamOrigin: string;
  upstreamPath: string;
  strict: boolean;
  /** Serve from the embedded mock when the upstream is away or answers 501. */
  fallback: boolean;
  forward: ForwardOptions;
  health: UpstreamHealth;
  /** One line to the operator (violations, the upstream going and coming). */
  say: (line: string) => void;
  /** The request bodies as read, for the recorder. */
  rawBodies: WeakMap<MockRequest, Buffer>;
}

export const SOURCE_HEADER = 'Petstore-Kit-Source';
export const VIOLATIONS_HEADER = 'Petstore-Kit-Violations';

const EMPTY = Buffer.alloc(0);
const NO_PREFERENCE = parsePrefer(undefined);
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// Response headers the proxy sets itself: the framing (the body is sent decoded, its length recomputed), the
// hop-by-hop ones, and CORS (the browser talks to the proxy, whose CORS settings apply).
const DROPPED_RESPONSE_HEADERS =
  /^(connection|keep-alive|proxy-connection|te|trailer|transfer-encoding|upgrade|content-length|content-encoding|access-control-.*)$/;

/** Methods whose semantics are read-only (RFC 9110 §9.2.1): safe to serve from the mock after the upstream failed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What one operation's action behind the proxy works with. */
interface ActionContext {
  operation: Operation;
  /** The stateful mock's own pipeline, with its keys: the fallback. */
  mockAction: Action;
  spec: Spec;
  runtime: Runtime;
  proxy: ProxyContext;
}

/** One request on its way through the proxy: what the steps below share. */
interface Proxied {
  context: ActionContext;
  call: Call;
  /** The request body as read, checked and forwarded. */
  raw: Buffer;
  violations: ContractViolation[];
  /** The client's `Prefer`, kept for the embedded mock (the upstream gets it in the headers). */
  preference: Call['preference'];
  /** Masks the mock's keys and the client's own in any text shown. */
  redact: (text: string) => string;
  /** The request body broke the document (not just the mock's nesting bound): a 2xx to it is a violation. */
  badBody?: ApiError;
}

/** A finding of the proxy's on the answer: a check id and one line. */
interface Finding {
  check: ProxyCheckId;
  message: string;
}

/**
 * An operation's action behind the proxy, in place of the mock's handler but inside the mock's front door (route,
 * 404/405, OPTIONS and CORS, the finishing step, the journal and logs): the request is checked against the
 * operation by the mock's own stages without stopping at the first problem, forwarded to the same path under the
 * upstream, and the answer judged by the contract runner's judge. `mockAction` (the stateful mock's own pipeline,
 * with its keys) answers when the upstream is away or answers 501, unless the fallback is off.
 */
export function createProxyAction(
  operation: Operation,
  mockAction: Action,
  spec: Spec,
  runtime: Runtime,
  proxy: ProxyContext,
): Action {
  const context: ActionContext = { operation, mockAction, spec, runtime, proxy };
  // No `headersFor`: the mock's deprecation notice goes on the mock's own answers only (serveFromMock), so the
  // upstream's answers show whether the upstream sends one.
  return { operation, run: (call) => runProxied(context, call) };
}

/** Checks the request, forwards it and answers with what came back (or with the mock, or an error). */
async function runProxied(context: ActionContext, call: Call): Promise<Reply> {
  const { request } = call;
  const { proxy, runtime } = context;
  const violations: ContractViolation[] = [];
  call.violations = violations;
  // `Prefer` (a delay, a forced status) is the upstream's to honour: the front door must not add the delay again.
  // The embedded mock gets it back when it answers (serveFromMock).
  const preference = call.preference;
  call.preference = NO_PREFERENCE;
  // The client's own key is redacted wherever the exchange is shown, as are the mock's keys.
  const token = bearerToken(headerText(request.headers.authorization));
  const own = [
    ...(token ? [token] : []),
    ...credentialValues(context.spec.security.places, request.url, request.headers),
  ];
  const redact = (text: string) => redactKeys(runtime.redactKeys(text), own);

  // Headers the client's Connection field names are not forwarded (RFC 9110 §7.6.1): nor are they judged, so that
  // the request checked is the request sent (a `Connection: content-type` body goes upstream without its type).
  for (const name of connectionNamed(request.headers))
    if (!['connection', 'host', 'content-length', 'transfer-encoding'].includes(name)) delete request.headers[name];

  // Read the body whole, within the mock's limit: it is checked before anything is forwarded.
  request.sendContinue?.();
  const raw = await readRaw(request, runtime.bodyLimit);
  proxy.rawBodies.set(request, raw);
  call.requestBytes = raw.length;
  const proxied: Proxied = { context, call, raw, violations, preference, redact };
  const firstProblem = await checkRequest(proxied);
  if (firstProblem && proxy.strict) {
    call.source = undefined;
    return markViolations(errorAnswer(proxied, firstProblem), violations);
  }
  return forwardAndAnswer(proxied);
}

/** Reports one violation: kept for the call's record and headers, and told to the operator in one line. */
function violate(
  { context, call, violations, redact }: Proxied,
  check: ProxyCheckId,
  message: string,
  cameBack?: string,
): void {
  const { request } = call;
  const safe = redact(message);
  violations.push({ check, message: safe });
  const shownRequest = redact(request.mountPath + request.url).slice(0, 200);
  context.proxy.say(
    `violation ${check} on ${context.operation.id} (${request.method} ${shownRequest})${cameBack ? ` → ${cameBack}` : ''}: ${excerpt(safe, 300)}`,
  );
}

/** The request checked by the mock's own stages; each failing stage is one violation. Returns the first. */
async function checkRequest(proxied: Proxied): Promise<ApiError | undefined> {
  const { context, call, raw } = proxied;
  const { operation, runtime } = context;
  let first: ApiError | undefined;
  const note = (check: ProxyCheckId, error: unknown) => {
    if (!isApiError(error)) throw error;
    violate(proxied, check, error.message);
    // The document's own rules only: the mock's nesting bound is not one an upstream must keep.
    if (check === 'request.body' && !error.message.startsWith(TOO_DEEP)) proxied.badBody = error;
    first ??= error;
  };
  try {
    parseParameters(operation, {
      query: new URLSearchParams(call.search),
      path: call.pathParams,
      headers: call.request.headers,
    });
  } catch (error) {
    note('request.parameters', error);
  }
  if (operation.body) {
    try {
      call.body = await readBody(operation.body, Readable.from(raw.length > 0 ? [raw] : []), call.request.headers, {
        limit: runtime.bodyLimit,
        readers: bodyReaders,
      });
    } catch (error) {
      note('request.body', error);
    }
  }
  return first;
}

/**
 * Sends the checked request upstream and answers with the outcome. The answer's bytes stay in the proxy's shared
 * budget until the client has them (written to its connection), or the connection is gone: a crowd of clients that
 * do not read cannot hold more than the budget.
 */
async function forwardAndAnswer(proxied: Proxied): Promise<Reply> {
  const { context, call, raw } = proxied;
  const { proxy, spec } = context;
  const { request } = call;
  const path = proxy.upstreamPath + call.path.slice(spec.basePath.length) + (call.search ? `?${call.search}` : '');
  const origin = {
    address: request.remoteAddress,
    host: headerText(request.headers.host),
    proto: request.protocol ?? 'http',
  };
  const held = { bytes: 0 };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (proxy.forward.budget) proxy.forward.budget.used -= held.bytes;
  };
  try {
    const headers = upstreamHeaders(request.headers, origin);
    const outcome = await forwardRequest({
      origin: proxy.upstreamOrigin,
      path,
      method: request.method,
      headers,
      body: raw,
      options: proxy.forward,
      signal: request.signal,
      held,
    });
    const reply = isFailure(outcome) ? await answerFailure(proxied, outcome) : await answerUpstream(proxied, outcome);
    if (request.whenSent) request.whenSent(release);
    else release();
    return reply;
  } catch (error) {
    release();
    throw error;
  }
}

/** No answer came (or one too big to read): the fallback, or an error that says whether the request may have acted. */
function answerFailure(proxied: Proxied, outcome: UpstreamFailure): Reply | Promise<Reply> {
  const { context, call, violations } = proxied;
  const { method } = call.request;
  // Nobody is left to answer, and the upstream did nothing wrong: no fallback, no outage line.
  if (outcome.kind === 'cancelled')
    return errorAnswer(proxied, apiError('upstream_outcome_unknown', 'the client went away before the answer'));
  if (outcome.kind === 'oversized') {
    // An answer came, too big to read: the upstream is there and acted; a fallback would answer for it.
    violate(proxied, 'response.bounded', `the upstream sent ${outcome.reason}`);
    call.source = 'upstream';
    const error = apiError(
      'upstream_violation',
      `the upstream's answer broke the contract (response.bounded): it sent ${outcome.reason}`,
    );
    return markViolations(withSource(errorAnswer(proxied, error), 'upstream'), violations);
  }
  context.proxy.health.failed(outcome.reason);
  // A fallback is for a request that changes nothing (RFC 9110 §9.2.1), or a write the upstream provably never
  // got: a connection refused, a name not found, TLS failing before the request was written. A write that may
  // have arrived is never replayed on the mock, where it would be done twice under two ids; nor is one that
  // timed out while connecting (withdrawn, but the client waited the whole deadline for it: 504 says so).
  const neverSent = !outcome.reached && outcome.kind === 'unreachable';
  if (context.proxy.fallback && (neverSent || SAFE_METHODS.has(method))) return serveFromMock(proxied);
  call.source = undefined;
  let error: ApiError;
  if (!outcome.reached && outcome.kind === 'timeout' && !SAFE_METHODS.has(method)) {
    error = apiError(
      'upstream_timeout',
      `the upstream did not take the connection in time: ${outcome.reason}; it was not carried out, and can be sent again`,
    );
  } else if (outcome.reached && !SAFE_METHODS.has(method)) {
    const kind = outcome.kind === 'timeout' ? 'upstream_timeout' : 'upstream_outcome_unknown';
    error = apiError(
      kind,
      `the upstream received this ${method} but did not answer (${outcome.reason}): whether it was carried out is unknown; it was not sent anywhere else, so check before sending it again`,
    );
  } else {
    error = apiError('upstream_unavailable', `the upstream did not answer: ${outcome.reason}`);
  }
  return markViolations(errorAnswer(proxied, error), violations);
}

/** The upstream answered: judged, then passed on (or refused when strict, or when it cannot be passed on). */
function answerUpstream(proxied: Proxied, outcome: UpstreamAnswer): Reply | Promise<Reply> {
  const { context, call, violations, redact, badBody } = proxied;
  const { proxy, spec } = context;
  if (outcome.overloaded) {
    // The proxy's own limit, not the upstream's fault: no violation, and a client can try again shortly.
    call.source = undefined;
    return errorAnswer(
      proxied,
      apiError(
        'proxy_overloaded',
        `the proxy is holding as many upstream answers as it may at once (${proxy.forward.budget!.max} bytes); try again shortly`,
        { 'Retry-After': '1' },
      ),
    );
  }
  proxy.health.answered();
  if (outcome.status === 501 && proxy.fallback) return serveFromMock(proxied);
  call.source = 'upstream';
  const judged = judgeAnswer(context, outcome, call.request.method, redact);
  if (badBody && outcome.status >= 200 && outcome.status < 300) {
    judged.findings.push({
      check: 'input.invalid-rejected',
      message: `the upstream answered ${outcome.status} to a request body that breaks the document (${badBody.message}); it must be refused with a 4xx`,
    });
  }
  for (const finding of judged.findings) violate(proxied, finding.check, finding.message, judged.cameBack);
  const first = judged.findings[0];
  // A body the proxy would not read whole cannot be passed on: the client learns why instead.
  if (first && (judged.unreadable || proxy.strict)) {
    const error = apiError(
      'upstream_violation',
      `the upstream's answer broke the contract (${first.check}): ${redact(first.message)}`,
    );
    return markViolations(withSource(errorAnswer(proxied, error), 'upstream'), violations);
  }
  const headers = {
    ...passedHeaders(outcome, call.request.mountPath, spec.basePath, proxy),
    [SOURCE_HEADER]: 'upstream',
  };
  return markViolations(
    { status: outcome.status, headers, bytes: outcome.bytes.length > 0 ? outcome.bytes : undefined },
    violations,
  );
}

/** The embedded stateful mock answers, with its own keys, stages and store; the body is handed on as read. */
async function serveFromMock(proxied: Proxied): Promise<Reply> {
  const { context, call, raw, violations, preference } = proxied;
  const { mockAction } = context;
  call.preference = preference;
  // Violations of the request stay reported; the mock's own answer is not judged (it is this package's).
  const request: MockRequest = {
    method: call.request.method,
    url: call.request.url,
    headers: call.request.headers,
    mountPath: call.request.mountPath,
    protocol: call.request.protocol,
    body: Readable.from(raw.length > 0 ? [raw] : []),
  };
  const inner: Call = { ...call, request };
  let reply: Reply;
  try {
    reply = await mockAction.run(inner);
  } catch (error) {
    if (!isApiError(error)) throw error;
    reply = errorAnswer(proxied, error);
  }
  call.body = inner.body;
  call.source = 'mock';
  const notice = mockAction.headersFor?.(call.request.mountPath);
  return markViolations(
    withSource(notice ? { ...reply, headers: { ...reply.headers, ...notice } } : reply, 'mock'),
    violations,
  );
}

/** The answer judged: bounds first (as the contract runner does), then the document's rules. */
function judgeAnswer(
  { spec, operation, proxy }: ActionContext,
  answer: UpstreamAnswer,
  method: string,
  redact: (text: string) => string,
) {
  const findings: Finding[] = [];
  const contentType = headerText(answer.headers['content-type']) ?? null;
  const cameBack = `${answer.status}${contentType ? ` ${contentType.split(';')[0]}` : ''}`;
  const readWhole = !answer.tooLarge && !answer.bodyProblem;
  const tooDeep = readWhole && jsonDepthExceeds(answer.bytes, MAX_RESPONSE_JSON_DEPTH);
  // Decoded only when it is judged further: a body cut short, undecodable or too deep is answered as unbounded.
  const decoded = readWhole && !tooDeep ? utf8Text(answer.bytes) : '';
  const invalidUtf8 = decoded === undefined;
  const text = decoded ?? '';
  const { unbounded, notUtf8Json, serverError } = judgeAnswerBasics(
    {
      status: answer.status,
      contentType,
      tooLarge: answer.tooLarge,
      encoding: answer.bodyProblem,
      tooDeep,
      invalidUtf8,
    },
    proxy.forward.maxBytes,
  );
  if (unbounded) {
    const message =
      unbounded.reason === 'too-large'
        ? `${unbounded.message} after decompression (reading stopped there)`
        : unbounded.message;
    return { findings: [{ check: 'response.bounded' as const, message }], cameBack, unreadable: true };
  }
  // Masked before it is cut: a cut through a key would leave the part before it unmasked.
  const shown = (length: number) => excerpt(redact(text), length);
  if (serverError) findings.push({ check: 'server.no-5xx', message: `status ${answer.status}: ${shown(200)}` });
  // HEAD has no content (RFC 9110 §9.3.2): only its status can be judged.
  const headOnly = method === 'HEAD';
  if (notUtf8Json && !headOnly) {
    findings.push({ check: 'content-type.json', message: NOT_UTF8_MESSAGE });
    return { findings, cameBack, unreadable: false };
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    body = undefined;
  }
  for (const finding of judgeObservedResponse(spec, operation, { status: answer.status, contentType, body, text })) {
    if (headOnly && finding.check !== 'status.documented') continue;
    findings.push({
      check: finding.check,
      message: `${finding.message}${body === undefined || finding.check === 'status.documented' ? '' : `; body: ${shown(200)}`}`,
    });
  }
  return { findings, cameBack, unreadable: false };
}

/** The body as sent (chunked or not), refused with the mock's 413 past `limit`. */
async function readRaw(request: MockRequest, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  if (!(declared > 0) && request.headers['transfer-encoding'] === undefined) {
    // Nothing to read; a server stream is let run to its end, so the connection can carry the next request.
    if ('resume' in request.body) request.body.resume();
    return EMPTY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (isApiError(error)) throw error;
    throw apiError('invalid_body', 'the request body could not be read to its end');
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

function tooLarge(limit: number) {
  return apiError('payload_too_large', `the request body is larger than the limit of ${limit} bytes`, {
    Connection: 'close',
  });
}

/** The bytes as text, or undefined when they are not valid UTF-8. */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** An error answered as the mock answers one (one error path): in the operation's declared words, the keys masked. */
function errorAnswer({ context, call }: Proxied, error: ApiError): Reply {
  return errorReply(
    error,
    (failure) => context.runtime.onInternalError(failure, call.request),
    context.runtime.redactKeys,
    context.operation,
  );
}

function withSource(reply: Reply, source: 'upstream' | 'mock'): Reply {
  return { ...reply, headers: { ...reply.headers, [SOURCE_HEADER]: source } };
}

/** `Petstore-Kit-Violations: 2; schema.response`: how many, and the first check id. */
function markViolations(reply: Reply, violations: readonly ContractViolation[]): Reply {
  if (violations.length === 0) return reply;
  return {
    ...reply,
    headers: { ...reply.headers, [VIOLATIONS_HEADER]: `${violations.length}; ${violations[0]!.check}` },
  };
}

/**
 * The upstream's headers as the client gets them: names in their usual case (so the finishing step's own headers
 * replace them rather than doubling them), the framing and CORS left to the proxy, and a `Location` under the
 * upstream pointed back at the proxy, so a client following it stays behind the proxy.
 */
function passedHeaders(
  answer: UpstreamAnswer,
  mountPath: string,
  basePath: string,
  { upstream, upstreamPath }: ProxyContext,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.test(name)) continue;
    // Set-Cookie is the one field that cannot be joined (RFC 9110 §5.3); Node writes an array as repeated lines.
    out[titleCase(name)] = (name === 'set-cookie' && Array.isArray(value) ? value : headerText(value)) as string;
  }
  const location = out.Location;
  if (location !== undefined) {
    if (location.startsWith(`${upstream}/`) || location === upstream)
      out.Location = mountPath + basePath + location.slice(upstream.length);
    else if (upstreamPath !== basePath && location.startsWith(`${upstreamPath}/`))
      out.Location = mountPath + basePath + location.slice(upstreamPath.length);
  }
  return out;
}

// Header names repeat from answer to answer: each is cased once (at most a few hundred kept).
const casedNames = new Map<string, string>([['www-authenticate', 'WWW-Authenticate']]);

function titleCase(name: string): string {
  let cased = casedNames.get(name);
  if (cased === undefined) {
    cased = name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
    if (casedNames.size < 512) casedNames.set(name, cased);
  }
  return cased;
}
