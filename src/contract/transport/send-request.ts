import type { Exchange } from '../base/exchange.js';
import { request, errors as undiciErrors } from 'undici';
import { parseJson as parseJsonExactly } from '../../json/parse-json.js';
import type { Session } from '../base/session.js';
import { toCurl } from './to-curl.js';
import { sentKeyForms, showHeaderValue } from './shown-credentials.js';
import { RequestCapReached, SuiteError } from '../base/suite-error.js';
import { readBody } from './read-body.js';
import { jsonDepthExceeds, MAX_RESPONSE_JSON_DEPTH as MAX_JSON_DEPTH } from '../../json/json-depth.js';
import { excerpt } from '../../text/excerpt.js';
import { StopRun, stopAfter } from '../base/stop-run.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { pace, retryDelay, MAX_RETRIES } from './pacing.js';
import type { Operation } from '../../openapi/operations.js';
import { trackCreated } from './created-items.js';
import {
  applyCredentialHeaders,
  noCredentials,
  sendsValidCredentials,
  validCredentials,
  withCredentialQuery,
  type SentCredentials,
} from './credentials.js';

/** A request the suite sends, described in the document's terms: an operation and its parameters. */
export interface ProbeRequest {
  operation: string;
  /** Path parameters by name, e.g. `{ petId: 5 }`. */
  path?: Record<string, string | number>;
  /** Query parameters by name, sent as written (strings, so invalid values can be sent too). */
  /** One text per parameter, or one per occurrence (an exploded array: `tags=a&tags=b`, parameter-text.ts). */
  query?: Record<string, string | readonly string[]>;
  /**
   * The Authorization header, and then no other credential: undefined sends the operation's valid credentials
   * (`credentials`, else as its security says: credentials.ts), null sends none, a string is sent as is.
   */
  authorization?: string | null;
  /** Exactly these credentials instead of the operation's valid ones (an auth case's wrong or missing ones). */
  credentials?: SentCredentials;
  /** The word a valid bearer credential is sent under (RFC 9110 §11.1: `bearer`, `BEARER`); default `Bearer`. */
  scheme?: string;
  /** A JSON body, serialised with JSON.stringify and sent as application/json. */
  json?: unknown;
  /** A body sent verbatim as application/json (for text that is not JSON). */
  rawBody?: string;
  /** The Content-Type of a body: undefined sends application/json, null sends none, a string is sent as is. */
  contentType?: string | null;
  /** Extra request headers of this request only (e.g. the key in a header other than Authorization). */
  headers?: Record<string, string>;
}

/** After this many requests in a row without an HTTP answer the run stops (exit 2): the target is gone. */
export const MAX_CONSECUTIVE_NO_ANSWERS = 3;

/**
 * Sends one request built from the document's operation (method and path template) through the session's
 * dispatcher (proxy, CA, extra headers), with a per-request timeout bounded by the run's deadline, no redirects
 * followed (a 3xx is an answer to judge), the body read up to --max-body after decompression, and the run's
 * request budget enforced. Throws `StopRun` once the run must stop (deadline passed, target not answering).
 */
export async function sendRequest(session: Session, probe: ProbeRequest): Promise<Exchange> {
  const { config, spec, redact } = session;
  if (session.pacing.stopped) throw new StopRun(session.pacing.stopped);
  const operation = spec.operationById.get(probe.operation);
  if (!operation) throw new SuiteError(`the document has no operation "${probe.operation}"`);
  if (session.findings.exchanges.length >= config.maxRequests) throw new RequestCapReached(config.maxRequests);
  const remaining = config.deadlineAt - Date.now();
  if (remaining <= 0)
    stopAfter(session.pacing, `the run's deadline of ${Math.round(config.deadline / 1000)} s passed (--deadline)`);
  const outgoing = outgoingRequest(config, probe, operation);
  const exchange = newExchange(config, probe, operation, outgoing);
  session.findings.exchanges.push(exchange);
  const timeout = Math.min(config.timeout, remaining);
  await pace(session);
  const started = performance.now();
  try {
    const response = await sendWaitingOutRateLimits(session, outgoing, exchange, timeout);
    await readAnswer(session, response, exchange);
    trackCreated(session, exchange);
    session.pacing.consecutiveNoAnswers = 0;
  } catch (error) {
    if (error instanceof StopRun) throw error;
    if (exchange.status === undefined) {
      exchange.error = redact(describeFetchError(error, timeout));
      session.pacing.consecutiveNoAnswers++;
    } else {
      // The head came but the body did not finish: judged as the answer it is, with what was said.
      exchange.problems.encoding = redact(`the body broke off: ${describeFetchError(error, timeout)}`);
      session.pacing.consecutiveNoAnswers = 0;
    }
  }
  exchange.durationMs = Math.round(performance.now() - started);
  if (session.pacing.consecutiveNoAnswers >= MAX_CONSECUTIVE_NO_ANSWERS) {
    session.pacing.stopped = `${MAX_CONSECUTIVE_NO_ANSWERS} requests in a row got no answer (the last: ${exchange.error}); the target stopped answering`;
  } else if (exchange.error && Date.now() >= config.deadlineAt) {
    session.pacing.stopped = `the run's deadline of ${Math.round(config.deadline / 1000)} s passed (--deadline)`;
  }
  return exchange;
}

/** A probe's query as `application/x-www-form-urlencoded` text, an exploded array once per item. */
function queryText(query: ProbeRequest['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    for (const text of typeof value === 'string' ? [value] : value) search.append(name, text);
  return search.toString();
}

/** A request as it goes out on the wire. */
interface Outgoing {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The probe in HTTP terms: the operation's method and path template filled in, the headers and body it sends. */
function outgoingRequest(config: Session['config'], probe: ProbeRequest, operation: Operation): Outgoing {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(probe.path?.[name] ?? '')),
  );
  const credentials = credentialsOf(config, probe, operation);
  const query = withCredentialQuery(queryText(probe.query), credentials.query);
  const headers: Record<string, string> = {
    ...config.headers,
    ...probe.headers,
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate, br',
  };
  applyCredentialHeaders(headers, credentials);
  // stringifyJson: an int64 beyond ±(2^53−1), held as a bigint, leaves with exactly its digits.
  const body = probe.rawBody ?? (probe.json === undefined ? undefined : stringifyJson(probe.json));
  const contentType = probe.contentType === undefined ? 'application/json' : probe.contentType;
  if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  // A field value has no leading or trailing whitespace (RFC 9110 §5.5) and undici sends it trimmed (`Bearer\t` goes
  // out as `Bearer`): trimmed here, so that the curl shown sends what was sent.
  for (const [name, value] of Object.entries(headers)) headers[name] = value.replace(/^[ \t]+|[ \t]+$/g, '');
  return {
    url: `${config.baseUrl}${path}${query ? `?${query}` : ''}`,
    method: operation.method.toUpperCase(),
    headers,
    body,
  };
}

/** What a probe sends as credentials: its Authorization alone, its own set, or the operation's valid ones. */
function credentialsOf(config: Session['config'], probe: ProbeRequest, operation: Operation): SentCredentials {
  if (probe.authorization !== undefined) return { ...noCredentials(), authorization: probe.authorization };
  return probe.credentials ?? validCredentials(operation, config, probe.scheme);
}

/** True when a probe sends the operation's valid credentials as its security says, and the runner can send them. */
function sendsValidKey(config: Session['config'], probe: ProbeRequest, operation: Operation): boolean {
  const asIs = probe.authorization === undefined && probe.credentials === undefined && probe.scheme === undefined;
  return asIs && sendsValidCredentials(operation, config.apiKey);
}

/** The exchange's record before anything came back: what was sent, and the curl that sends it again. */
function newExchange(
  config: Session['config'],
  probe: ProbeRequest,
  operation: Operation,
  { url, method, headers, body }: Outgoing,
): Exchange {
  // Masked by structure: the key where the runner put it reads from $PETSTORE_API_KEY, an extra header (-H) from a
  // variable of its own; everything else the runner wrote is shown as sent, whatever the key.
  // Accept-Encoding is curl's `--compressed`, which also decompresses what comes back.
  const shown = Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name !== 'accept-encoding')
      .map(([name, value]) => [
        capitalise(name),
        showHeaderValue(name, value, config.apiKey, name in config.headers && probe.headers?.[name] === undefined),
      ]),
  );
  return {
    operation: operation.id,
    method,
    url,
    ...(probe.path
      ? { pathValues: Object.fromEntries(Object.entries(probe.path).map(([name, value]) => [name, String(value)])) }
      : {}),
    curl: toCurl(
      method,
      keyInQuery(url, config.apiKey) ? showHeaderValue('url', url, config.apiKey, false) : url,
      shown,
      body,
      { compressed: true },
    ),
    validKey: sendsValidKey(config, probe, operation),
    contentType: null,
    headers: {},
    body: undefined,
    text: '',
    excerpt: '',
    length: 0,
    problems: {},
    durationMs: 0,
  };
}

type ResponseData = Awaited<ReturnType<typeof request>>;

/**
 * Sends the request; a rate limit (429, or 503 with Retry-After) is waited out and the request sent again, a bounded
 * number of times, each wait noted on the exchange. Still limited after that, the run stops.
 */
async function sendWaitingOutRateLimits(
  session: Session,
  { url, method, headers, body }: Outgoing,
  exchange: Exchange,
  timeout: number,
): Promise<ResponseData> {
  const { config, redact } = session;
  let response = await requestResendingOnIdleClose(url, {
    method: method,
    headers,
    body,
    dispatcher: session.dispatcher,
    signal: AbortSignal.timeout(timeout),
  });
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const delay = retryDelay(response.statusCode, response.headers['retry-after'], config.deadlineAt - Date.now());
    if (delay === undefined) break;
    await response.body.dump();
    (exchange.retried ??= []).push({ status: response.statusCode, waitedMs: delay });
    await new Promise((resolve) => setTimeout(resolve, delay));
    await pace(session);
    response = await request(url, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: session.dispatcher,
      signal: AbortSignal.timeout(Math.max(1, Math.min(config.timeout, config.deadlineAt - Date.now()))),
    });
  }
  if (response.statusCode === 429 || (response.statusCode === 503 && response.headers['retry-after'] !== undefined)) {
    // Still limited: the interface lets a target limit, so this is no violation, but the run cannot go on (exit 2).
    await response.body.dump();
    const waited = exchange.retried?.length
      ? ` after ${exchange.retried.length} wait${exchange.retried.length === 1 ? '' : 's'}`
      : '';
    stopAfter(
      session.pacing,
      `the target still answered ${response.statusCode}${response.headers['retry-after'] !== undefined ? ` with Retry-After: ${redact(String(response.headers['retry-after']))}` : ''}${waited} (a rate limit): run again with --rate N below its limit`,
    );
  }
  return response;
}

/** The answer into the exchange: status, headers as sent, the body read within --max-body and decoded. */
async function readAnswer(session: Session, response: ResponseData, exchange: Exchange): Promise<void> {
  exchange.status = response.statusCode;
  // Kept as sent for judging; reports mask what they print (sanitize-report.ts).
  exchange.headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
  exchange.contentType = exchange.headers['content-type'] ?? null;
  // Every answer is read into bytes of its own: with examples in flight side by side, a buffer shared between
  // requests would let one answer's later chunks overwrite another's before it is decoded.
  const read = await readBody(response.body, exchange.headers['content-encoding'], session.config.maxBody);
  if (read.tooLarge) exchange.problems.tooLarge = true;
  readInto(exchange, read.bytes, session.redact);
  if (read.encodingError) exchange.problems.encoding = session.redact(read.encodingError);
}

/**
 * True when a value of the query carries the key (an apiKey sent in the query, or a wrong credential: the key where
 * no key belongs): the URL is then shown as a header with the key is, the key read from $PETSTORE_API_KEY. Other
 * URLs are shown as sent.
 */
function keyInQuery(url: string, key: string): boolean {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return false;
  const forms = sentKeyForms(key);
  const values = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => pair.slice(pair.indexOf('=') + 1));
  return values.some((value) => forms.some((form) => value.includes(form.text)));
}

/** How often a request swallowed by a connection the server closed while idle is sent again. */
const MAX_IDLE_CLOSE_RESENDS = 2;

/**
 * Sends the request; when the connection it went out on turns out to have been closed by the server while idle
 * (the server never read it), sends it again, at most MAX_IDLE_CLOSE_RESENDS times. RFC 9112 §9.3.1: connections
 * can be closed at any time, and a client ought to recover; a server that closes kept-alive connections after a
 * short idle time without a Keep-Alive hint (as nginx may) races every request sent as it closes. A server that
 * closes a connection on the request itself does so again on the resend, and is judged for it.
 */
async function requestResendingOnIdleClose(
  url: string,
  options: Parameters<typeof request>[1] & object,
): Promise<Awaited<ReturnType<typeof request>>> {
  for (let resends = 0; ; resends++) {
    try {
      return await request(url, options);
    } catch (error) {
      if (resends >= MAX_IDLE_CLOSE_RESENDS || !closedWhileIdle(error)) throw error;
    }
  }
}

/**
 * True for a connection closed before any answer to this request after it had carried earlier answers (undici's
 * "other side closed" with bytes read before), or reset under the request (the server closed with it unread).
 */
function closedWhileIdle(error: unknown): boolean {
  const failure = error as { code?: string; socket?: { bytesRead?: number }; cause?: { code?: string } };
  const code = failure.code ?? failure.cause?.code;
  if (code === 'UND_ERR_SOCKET') return (failure.socket?.bytesRead ?? 0) > 0;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** What of a body that is not judged (too large, too deep) is decoded for its excerpt; the key is masked first. */
const PREFIX_BYTES = 16 * 1024;

/**
 * Bytes → text (UTF-8, checked) → JSON when it is not too deep. Judging sees what the target sent; only the excerpt,
 * which reports print, has the key masked (a masked text compared with what was sent made false
 * failures). A body over the cap or too deep is not judged further, so only its beginning is decoded, for the excerpt.
 */
function readInto(exchange: Exchange, bytes: Buffer, redact: (text: string) => string): void {
  exchange.length = bytes.length;
  if (exchange.problems.tooLarge || jsonDepthExceeds(bytes, MAX_JSON_DEPTH)) {
    if (!exchange.problems.tooLarge) exchange.problems.tooDeep = true;
    const prefix = redact(new TextDecoder('utf-8').decode(bytes.subarray(0, PREFIX_BYTES)));
    exchange.excerpt = excerpt(prefix).replace(/ \(\d+ characters\)$/, ` (${bytes.length} bytes read)`);
    return;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('utf-8').decode(bytes);
    exchange.problems.invalidUtf8 = true;
  }
  exchange.text = text;
  exchange.excerpt = excerpt(redact(text));
  if (exchange.problems.invalidUtf8) return;
  exchange.body = parseJson(exchange.text);
}

/** One line for a request that got no HTTP answer: `connection refused (ECONNREFUSED)`, `no answer within 10000 ms`. */
export function describeFetchError(error: unknown, timeout: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeout} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    EPIPE: 'connection reset',
    UND_ERR_SOCKET: 'the connection closed before an answer',
    UND_ERR_CLOSED: 'the connection closed before an answer',
    UND_ERR_HEADERS_TIMEOUT: `no answer within ${timeout} ms`,
    UND_ERR_BODY_TIMEOUT: `the body stalled for ${timeout} ms`,
    UND_ERR_HEADERS_OVERFLOW: 'the response headers are larger than 16 KiB (the limit of Node and of most proxies)',
    DEPTH_ZERO_SELF_SIGNED_CERT:
      'self-signed certificate: pass its CA with --ca FILE (or --insecure for a test deployment)',
    SELF_SIGNED_CERT_IN_CHAIN:
      'a self-signed certificate in the chain: pass the CA with --ca FILE (or --insecure for a test deployment)',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate cannot be verified: pass the issuing CA with --ca FILE',
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the certificate's issuer is unknown: pass the issuing CA with --ca FILE",
    CERT_HAS_EXPIRED: 'the certificate has expired',
    ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is not for this host name',
    EPROTO: 'TLS handshake failed (is it http rather than https?)',
    // What OpenSSL says when the server answers plain HTTP to a TLS hello (`https://` to `petstore-kit mock`).
    ERR_SSL_WRONG_VERSION_NUMBER: 'the target speaks plain HTTP, not TLS: use http:// in --base-url',
  };
  if (code && known[code]) return `${known[code]} (${code})`;
  if (error instanceof undiciErrors.UndiciError || cause)
    return `${cause?.message ?? (error as Error).message}${code ? ` (${code})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    // int64 beyond ±(2^53−1) keeps its digits (a bigint), so the judge sees what the target sent (src/json/int64.ts).
    return parseJsonExactly(text);
  } catch {
    return undefined;
  }
}

function capitalise(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

export type { BodyProblems, Exchange } from '../base/exchange.js';
