import { request, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { readBody } from '../contract/read-body.js';

/** What the upstream answered, its body read (decompressed) up to the proxy's bound. */
export interface UpstreamAnswer {
  status: number;
  /** Lower-cased names, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The body after decompression, at most `maxBytes`. */
  bytes: Buffer;
  /** The body was longer than `maxBytes` (reading stopped there). */
  tooLarge: boolean;
  /** An unknown Content-Encoding or a broken compressed stream, or a body that broke off. */
  bodyProblem?: string;
}

/** No answer at all: the upstream could not be reached, or said nothing in time. */
export interface UpstreamFailure {
  kind: 'unreachable' | 'timeout';
  /** One line: `connection refused (ECONNREFUSED)`, `no answer within 10000 ms`. */
  reason: string;
}

export interface ForwardOptions {
  dispatcher: Dispatcher;
  /** Milliseconds for the whole answer, head and body. */
  timeout: number;
  /** The largest upstream body read, after decompression. */
  maxBytes: number;
}

// RFC 9110 §7.6.1: hop-by-hop fields are for one connection and never forwarded; `host` is the upstream's own
// (RFC 9110 §7.2), `content-length` is recomputed for the body sent, `expect` was answered by the proxy, and
// `proxy-authorization` is for a proxy in front of the client, not for the upstream.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host', 'content-length', 'expect', 'http2-settings']);

/**
 * The headers sent upstream: the client's, less the hop-by-hop ones (and those `Connection` names), with
 * `Accept-Encoding` limited to the codings the proxy decodes (the answer is judged, so it must be read), and `Via`
 * (RFC 9110 §7.6.3). `Authorization` goes on unchanged: the upstream judges the key.
 */
export function upstreamHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  out['accept-encoding'] = 'gzip, deflate, br';
  const via = headers.via ? `${String(headers.via)}, ` : '';
  out.via = `${via}1.1 petstore-kit`;
  return out;
}

/**
 * Sends one request upstream through the command's one dispatcher (`--ca`, `--insecure`, `HTTPS_PROXY`: see
 * src/net/outgoing-agent.ts). Redirects are not followed (a 3xx goes back to the client). The body is read up to
 * `maxBytes` after decompression, so a huge, endless or compressed-bomb answer costs at most the bound.
 */
export async function forwardRequest(url: string, method: string, headers: Record<string, string | string[]>, body: Buffer | undefined, options: ForwardOptions): Promise<UpstreamAnswer | UpstreamFailure> {
  const signal = AbortSignal.timeout(options.timeout);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, { method: method as Dispatcher.HttpMethod, headers, body: body && body.length > 0 ? body : undefined, dispatcher: options.dispatcher, signal });
  } catch (error) {
    return describeFailure(error, options.timeout);
  }
  const answer: UpstreamAnswer = { status: response.statusCode, headers: response.headers, bytes: Buffer.alloc(0), tooLarge: false };
  try {
    const read = await readBody(response.body, headerText(response.headers['content-encoding']), options.maxBytes);
    answer.bytes = read.bytes;
    answer.tooLarge = read.tooLarge;
    if (read.encodingError) answer.bodyProblem = read.encodingError;
  } catch (error) {
    response.body.destroy();
    answer.bodyProblem = `the body broke off: ${describeFailure(error, options.timeout).reason}`;
  }
  return answer;
}

export function isFailure(outcome: UpstreamAnswer | UpstreamFailure): outcome is UpstreamFailure {
  return 'kind' in outcome;
}

function describeFailure(error: unknown, timeout: number): UpstreamFailure {
  const failure = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError' || failure.code === 'UND_ERR_HEADERS_TIMEOUT' || failure.code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'timeout', reason: `no answer within ${timeout} ms` };
  }
  const code = failure.code ?? failure.cause?.code;
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host lookup failed',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_SOCKET: 'the connection closed',
  };
  const text = code && words[code] ? `${words[code]} (${code})` : `${failure.message ?? String(error)}${code ? ` (${code})` : ''}`;
  return { kind: 'unreachable', reason: text.replace(/\s+/g, ' ').slice(0, 200) };
}

/** A header's value as one string (repeated ones joined as RFC 9110 §5.3 allows). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
