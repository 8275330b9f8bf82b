import { parseJson as parseJsonExactly } from '../json/parse-json.js';
import type { Session } from './session.js';
import { toCurl } from './to-curl.js';
import { SuiteError } from './suite-error.js';

/** A request the suite sends, described in the document's terms: an operation and its parameters. */
export interface ProbeRequest {
  operation: string;
  /** Path parameters by name, e.g. `{ petId: 5 }`. */
  path?: Record<string, string | number>;
  /** Query parameters by name, sent as written (strings, so invalid values can be sent too). */
  query?: Record<string, string>;
  /** The Authorization header: undefined sends the valid key, null sends none, a string is sent as is. */
  authorization?: string | null;
  /** A JSON body, serialised with JSON.stringify and sent as application/json. */
  json?: unknown;
  /** A body sent verbatim as application/json (for text that is not JSON). */
  rawBody?: string;
}

/** One request and what came back, with the key already redacted from everything kept. */
export interface Exchange {
  operation: string;
  method: string;
  url: string;
  curl: string;
  /** True when the request carried the valid key. */
  validKey: boolean;
  /** Absent when no HTTP answer came (see `error`). */
  status?: number;
  contentType: string | null;
  headers: Record<string, string>;
  /** The body parsed as JSON whatever the Content-Type said (that is judged separately); undefined if not JSON. */
  body: unknown;
  text: string;
  /** Why no HTTP answer came: a timeout or a network error. */
  error?: string;
  durationMs: number;
}

/**
 * Sends one request built from the document's operation (method and path template), with a per-request timeout,
 * no redirects followed (a 3xx is an answer to judge) and the run's request budget enforced.
 */
export async function sendRequest(session: Session, probe: ProbeRequest): Promise<Exchange> {
  const { config, spec, redact } = session;
  const operation = spec.operationById.get(probe.operation);
  if (!operation) throw new SuiteError(`the document has no operation "${probe.operation}"`);
  if (session.exchanges.length >= config.maxRequests) throw new SuiteError(`the budget of ${config.maxRequests} requests is spent`);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(probe.path?.[name] ?? '')));
  const query = new URLSearchParams(probe.query ?? {}).toString();
  const url = `${config.baseUrl}${path}${query ? `?${query}` : ''}`;
  const method = operation.method.toUpperCase();
  const headers: Record<string, string> = { accept: 'application/json' };
  const authorization = probe.authorization === undefined ? `Bearer ${config.apiKey}` : probe.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const body = probe.rawBody ?? (probe.json === undefined ? undefined : JSON.stringify(probe.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const shown = Object.fromEntries(Object.entries(headers).map(([name, value]) => [capitalise(name), redact(value)]));
  const exchange: Exchange = {
    operation: operation.id,
    method,
    url: redact(url),
    curl: toCurl(method, redact(url), shown, body === undefined ? undefined : redact(body)),
    validKey: probe.authorization === undefined,
    contentType: null,
    headers: {},
    body: undefined,
    text: '',
    durationMs: 0,
  };
  session.exchanges.push(exchange);
  const started = performance.now();
  try {
    const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(config.timeout) });
    exchange.text = redact(await response.text());
    exchange.status = response.status;
    exchange.contentType = response.headers.get('content-type');
    exchange.headers = Object.fromEntries([...response.headers].map(([name, value]) => [name, redact(value)]));
    exchange.body = parseJson(exchange.text);
  } catch (error) {
    exchange.error = redact(describeFetchError(error, config.timeout));
  }
  exchange.durationMs = Math.round(performance.now() - started);
  return exchange;
}

/** One line for a request that got no HTTP answer: `connection refused (ECONNREFUSED)`, `no answer within 10000 ms`. */
export function describeFetchError(error: unknown, timeout: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeout} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    UND_ERR_SOCKET: 'the connection closed before an answer',
    UND_ERR_HEADERS_TIMEOUT: `no answer within ${timeout} ms`,
  };
  if (code && known[code]) return `${known[code]} (${code})`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
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
