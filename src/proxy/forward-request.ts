import { util, type Dispatcher } from 'undici';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';

/** What the upstream answered, its body read (decompressed) up to the proxy's bound. */
export interface UpstreamAnswer {
  status: number;
  /** Lower-cased names, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The body after decompression, at most `maxBytes`. */
  bytes: Buffer;
  /** The body was longer than `maxBytes` (reading stopped there). */
  tooLarge: boolean;
  /** An unknown Content-Encoding or a broken compressed stream, or a body that broke off or came too slowly. */
  bodyProblem?: string;
  /** Reading stopped because the proxy held too many answer bytes at once (`ForwardOptions.budget`): its fault. */
  overloaded?: boolean;
}

/** No answer at all: the upstream could not be reached, or said nothing in time. */
export interface UpstreamFailure {
  /** `oversized`: the answer's head was over the proxy's header limit (16 KiB): an answer, just not one to pass on. */
  kind: 'unreachable' | 'timeout' | 'oversized' | 'cancelled';
  /**
   * True once the request was handed to a connected socket: the upstream may have received it, and acted on it, even
   * though no answer came. False for a connection never made (refused, DNS, TLS), and for a request withdrawn while
   * it waited for one (a `timeout` or `cancelled` outcome): nothing of it reached the upstream, nor ever will.
   */
  reached: boolean;
  /** One line: `connection refused (ECONNREFUSED)`, `no answer within 10000 ms`. */
  reason: string;
}

export interface ForwardOptions {
  /** Made with `createOutgoingDispatcher({ timeout })`: its headers and body timeouts are the proxy's. */
  dispatcher: Dispatcher;
  /** Milliseconds for the answer's head, and between its body's chunks (for the message). */
  timeout: number;
  /** The largest upstream body read, after decompression. */
  maxBytes: number;
  /** The whole answer, head and body, must arrive within this many ms (a slow drip cannot hold a client for ever). */
  answerMs?: number;
  /**
   * Bytes of upstream answers all requests may hold at once (read, not yet passed on), shared by every call: past
   * it an answer stops being read and the client gets a 503, so a crowd of large answers cannot exhaust memory.
   * The caller gives back what `held` says once the answer is passed on.
   */
  budget?: { used: number; max: number };
}

// RFC 9110 §7.6.1: hop-by-hop fields are for one connection and never forwarded; `host` is the upstream's own
// (RFC 9110 §7.2), `content-length` is recomputed for the body sent, `expect` was answered by the proxy, and
// `proxy-authorization` is for a proxy in front of the client, not for the upstream.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
  'expect',
  'http2-settings',
]);

// What a client says about where a request came from cannot be checked: the proxy drops it and says it itself.
const FORWARDING = new Set([
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
]);

/** Where the proxy received a request: the client's address, the Host it asked for, the scheme. */
export interface ClientOrigin {
  address?: string | undefined;
  host?: string | undefined;
  proto: string;
}

/** The header names a request's `Connection` field lists (RFC 9110 §7.6.1): hop-by-hop for this connection only. */
export function connectionNamed(headers: IncomingHttpHeaders): Set<string> {
  return new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * The headers sent upstream: the client's, less the hop-by-hop ones (and those `Connection` names) and the
 * client's own forwarding claims, with `Accept-Encoding` limited to the codings the proxy decodes (the answer is
 * judged, so it must be read), `Via` (RFC 9110 §7.6.3), and, given the client's origin, the proxy's own
 * `Forwarded` (RFC 7239) and `X-Forwarded-For`/`-Host`/`-Proto`. `Authorization` goes on unchanged: the upstream
 * judges the key.
 */
export function upstreamHeaders(
  headers: IncomingHttpHeaders,
  client?: ClientOrigin,
): Record<string, string | string[]> {
  const named = connectionNamed(headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || FORWARDING.has(name)) continue;
    out[name] = value;
  }
  if (client) {
    const address = client.address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    if (address) out['x-forwarded-for'] = address;
    if (client.host) out['x-forwarded-host'] = client.host;
    out['x-forwarded-proto'] = client.proto;
    // RFC 7239 §4: an IPv6 node is bracketed and quoted; a host with a port is quoted (':' is not a token char).
    const node = address ? (address.includes(':') ? `"[${address}]"` : address) : undefined;
    out.forwarded = [
      node && `for=${node}`,
      client.host && `host="${client.host.replace(/["\\]/g, '')}"`,
      `proto=${client.proto}`,
    ]
      .filter(Boolean)
      .join(';');
  }
  out['accept-encoding'] = 'gzip, deflate, br';
  const via = headers.via ? `${String(headers.via)}, ` : '';
  out.via = `${via}1.1 petstore-kit`;
  return out;
}

/** One request to send upstream, and how. */
export interface UpstreamRequest {
  /** The upstream's origin (`https://staging.example`). */
  origin: string;
  /** The path under it, with the query. */
  path: string;
  method: string;
  headers: Record<string, string | string[]>;
  body?: Buffer | undefined;
  options: ForwardOptions;
  /** Aborted when the client goes away: the upstream request is then stopped. */
  signal?: AbortSignal | undefined;
  /** Counts the bytes this answer holds of `options.budget`, for the caller to give back. */
  held?: { bytes: number };
}

/**
 * Sends one request upstream through the command's one dispatcher (`--ca`, `--insecure`, `HTTPS_PROXY`: see
 * src/net/outgoing-agent.ts, whose headers and body timeouts are `--timeout`). Redirects are not followed (a 3xx
 * goes back to the client). The body is read up to `maxBytes`, and decompressed to at most `maxBytes`, so a huge,
 * endless or compressed-bomb answer costs at most the bound. Undici's `dispatch` with a handler rather than
 * `request()`: no stream per answer, half the CPU of a forwarded request on the client side (`npm run bench`).
 */
export function forwardRequest(request: UpstreamRequest): Promise<UpstreamAnswer | UpstreamFailure> {
  return new Promise((resolve) => new Forwarding(request, resolve).start());
}

/** One request in flight upstream: undici's handler, the deadline, the client going away, and the one outcome. */
class Forwarding {
  private answer: UpstreamAnswer | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private abortRequest: ((error?: Error) => void) | undefined;
  // undici calls onConnect on a connected socket just before it writes the first byte: from then on it may have
  // arrived. Before it, the request waits in undici's queue (connecting, or behind another request).
  private reached = false;
  // Given up before onConnect (the deadline, or the client gone): the request must then never be written, though
  // undici keeps it queued and would send it once the connection is made (an upstream slow to accept).
  private withdrawn = false;
  private deadline: NodeJS.Timeout | undefined;
  private readonly options: ForwardOptions;
  private readonly held: { bytes: number };

  constructor(
    private readonly request: UpstreamRequest,
    private readonly resolve: (outcome: UpstreamAnswer | UpstreamFailure) => void,
  ) {
    this.options = request.options;
    this.held = request.held ?? { bytes: 0 };
  }

  start(): void {
    const { signal } = this.request;
    if (signal?.aborted) return this.settle({ kind: 'cancelled', reached: false, reason: 'the client went away' });
    signal?.addEventListener('abort', this.onClientGone, { once: true });
    if (this.options.answerMs !== undefined) {
      this.deadline = setTimeout(this.onDeadline, this.options.answerMs);
      this.deadline.unref();
    }
    try {
      this.dispatch();
    } catch (error) {
      // A request undici refuses before sending (a header value it cannot write): no answer, as for a network error.
      this.settle(describeFailure(error, this.options.timeout, false));
    }
  }

  private giveUp(reason: string): void {
    if (this.abortRequest) this.abortRequest(new Error(reason));
    else this.withdrawn = true;
  }

  private readonly onClientGone = (): void => {
    // The client will never see the answer: stop the upstream request (and its connection) now.
    this.giveUp('the client went away');
    this.settle({ kind: 'cancelled', reached: this.reached, reason: 'the client went away' });
  };

  private readonly onDeadline = (): void => {
    const { answerMs } = this.options;
    // Settled first: the abort below reports an error of its own, which must not become the reason.
    if (!this.answer) {
      const reason = this.reached
        ? `no whole answer within ${answerMs} ms`
        : `no connection within ${answerMs} ms (the request was withdrawn before a byte of it was sent)`;
      this.settle({ kind: 'timeout', reached: this.reached, reason });
    } else {
      this.answer.bodyProblem = `the answer did not finish within ${answerMs} ms (a body sent too slowly)`;
      this.finish();
    }
    this.giveUp('the whole answer took too long');
  };

  private settle(outcome: UpstreamAnswer | UpstreamFailure): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.request.signal?.removeEventListener('abort', this.onClientGone);
    this.resolve(outcome);
  }

  private finish(): void {
    const { answer, chunks } = this;
    if (!answer) return;
    answer.bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size);
    decode(answer, this.options.maxBytes);
    this.settle(answer);
  }

  private dispatch(): void {
    const { origin, path, method, headers, body } = this.request;
    // The handler interface every undici 7 dispatcher accepts (EnvHttpProxyAgent's wrappers check for onConnect).
    this.options.dispatcher.dispatch(
      { origin, path, method, headers, body: body && body.length > 0 ? body : null },
      {
        onConnect: (abort: (error?: Error) => void) => this.onConnect(abort),
        onHeaders: (status: number, rawHeaders: Buffer[]) => this.onHeaders(status, rawHeaders),
        onData: (chunk: Buffer) => this.onData(chunk),
        onComplete: () => this.finish(),
        onError: (error: Error) => this.onError(error),
      },
    );
  }

  private onConnect(abort: (error?: Error) => void): void {
    // Aborted here, undici writes nothing and closes the connection.
    if (this.withdrawn) return abort(new Error('withdrawn before it was sent'));
    this.abortRequest = abort;
    this.reached = true;
  }

  private onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    // 1xx interim answers (100 Continue, 103 Early Hints) are not the answer.
    if (status < 200) return true;
    this.answer = { status, headers: util.parseHeaders(rawHeaders), bytes: EMPTY, tooLarge: false };
    return true;
  }

  private onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    const { budget, maxBytes } = this.options;
    if (budget) {
      if (budget.used + chunk.length > budget.max) {
        this.answer!.overloaded = true;
        this.answer!.bodyProblem = `the proxy holds its limit of ${budget.max} bytes of answers at once`;
        this.finish();
        this.abortRequest?.(new Error('the proxy is over its memory budget'));
        return false;
      }
      budget.used += chunk.length;
      this.held.bytes += chunk.length;
    }
    const room = maxBytes - this.size;
    if (chunk.length > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.size += room;
      this.answer!.tooLarge = true;
      this.finish();
      // The rest is not read: the connection is given up rather than drained.
      this.abortRequest?.(new Error('the upstream body is over the bound'));
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  private onError(error: Error): void {
    if (this.settled) return;
    if (!this.answer) {
      this.settle(describeFailure(error, this.options.timeout, this.reached));
      return;
    }
    this.answer.bodyProblem = `the body broke off: ${describeFailure(error, this.options.timeout, this.reached).reason}`;
    this.finish();
  }
}

const EMPTY = Buffer.alloc(0);

/** Undoes Content-Encoding (RFC 9110 §8.4: the last coding applied first), to at most `maxBytes` of output. */
function decode(answer: UpstreamAnswer, maxBytes: number): void {
  const codings = (headerText(answer.headers['content-encoding']) ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  if (codings.length === 0 || answer.tooLarge || answer.bodyProblem) return;
  let bytes = answer.bytes;
  for (const coding of codings.reverse()) {
    const options = { maxOutputLength: maxBytes };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes, options);
      else if (coding === 'deflate') bytes = inflateSync(bytes, options);
      else if (coding === 'br') bytes = brotliDecompressSync(bytes, options);
      else {
        answer.bodyProblem = `Content-Encoding "${coding}" is not one the proxy decodes (gzip, deflate, br)`;
        return;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') answer.tooLarge = true;
      else answer.bodyProblem = `the ${codings.join(', ')} body does not decompress (${(error as Error).message})`;
      answer.bytes = EMPTY;
      return;
    }
  }
  answer.bytes = bytes;
}

export function isFailure(outcome: UpstreamAnswer | UpstreamFailure): outcome is UpstreamFailure {
  return 'kind' in outcome;
}

function describeFailure(error: unknown, timeout: number, reached: boolean): UpstreamFailure {
  const failure = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (
    failure.name === 'TimeoutError' ||
    failure.name === 'AbortError' ||
    failure.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    failure.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return { kind: 'timeout', reached, reason: `no answer within ${timeout} ms` };
  }
  if (failure.code === 'UND_ERR_HEADERS_OVERFLOW')
    return { kind: 'oversized', reached: true, reason: 'an answer whose headers are over 16 KiB' };
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
  const text =
    code && words[code] ? `${words[code]} (${code})` : `${failure.message ?? String(error)}${code ? ` (${code})` : ''}`;
  return { kind: 'unreachable', reached, reason: text.replace(/\s+/g, ' ').slice(0, 200) };
}

/** A header's value as one string (repeated ones joined as RFC 9110 §5.3 allows). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
