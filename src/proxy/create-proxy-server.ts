import { probeUpstream, type UpstreamProbe } from './probe-upstream.js';
import { createMockServer, type MockServer, type ServerOptions } from '../mock/http/server.js';
import type { Mock } from '../mock/create-mock.js';
import type { JournalEntry, JournalFilter } from '../mock/state/journal.js';
import type { MockRequest } from '../mock/mock-request.js';
import type { ServedRequest } from '../mock/front-door/observers.js';
import { createOutgoingDispatcher } from '../net/outgoing-agent.js';
import { UsageError } from '../input-errors.js';
import { createProxyAction, type ProxyContext } from './proxy-action.js';
import { UpstreamHealth } from './upstream-health.js';
import { dropInterimContinue } from './drop-continue.js';
import { HarRecorder, MAX_QUEUED } from './har-recorder.js';
import { ProxyTally, type ProxySummary, type ProxyViolation } from './proxy-summary.js';
import { redactUrl } from '../log/redact-url.js';

export const DEFAULT_UPSTREAM_TIMEOUT = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** The answers being read may hold at most this many of the largest size at once, and never less than MIN_HELD_BYTES. */
export const HELD_ANSWERS = 8;
export const MIN_HELD_BYTES = 64 * 1024 * 1024;

export interface ProxyOptions extends Omit<ServerOptions, 'watch' | 'onReload'> {
  /** The upstream's base URL, its base path included: `https://staging.example/v1`. */
  upstream: string;
  /** Answer an invalid request 400 without forwarding it, and a violating answer 502. Default false. */
  strict?: boolean;
  /** `mock` (default): the embedded stateful mock answers when the upstream is away, too slow, or answers 501. */
  fallback?: 'mock' | 'none';
  /** Write every exchange to this HAR 1.2 file, as it happens. */
  record?: string;
  /** PEM certificate authorities to trust for the upstream instead of Node's bundled ones. */
  ca?: string | Buffer;
  /** Accept any certificate from the upstream (a test deployment only). */
  insecure?: boolean;
  /** Milliseconds the upstream has to start answering, and between body chunks, before the fallback answers; default 10,000. */
  timeout?: number;
  /** Bytes of upstream answers held at once, all requests together; past it a 503 (default: 8 × maxResponseBytes, at least 64 MiB). */
  maxHeldBytes?: number;
  /** The largest upstream body read, after decompression; a longer one is a 502. Default 8 MiB. */
  maxResponseBytes?: number;
  /** Where the proxy's lines go (violations, the upstream going and coming); default: stderr. */
  onLog?: (line: string) => void;
}

/** A running proxy. */
export interface ProxyServer {
  /** The base URL to point clients at, base path included: `http://127.0.0.1:4010/v1`. */
  url: string;
  origin: string;
  port: number;
  /** The upstream as given (without credentials, should it carry any). */
  upstream: string;
  /** The embedded mock (fallback), its store, journal and observers. */
  readonly mock: Mock;
  /** Every violation seen so far (the last 1000), oldest first. */
  violations(): ProxyViolation[];
  /** Exchanges, violations by check id, the share answered by the embedded mock. */
  summary(): ProxySummary;
  /** The journal of `/__admin/journal`, newest first; entries carry `violations` and `source`. */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Asks the upstream once whether it serves the document's paths (see probeUpstream). */
  probeUpstream(): Promise<UpstreamProbe>;
  /** Stops listening, finishes the recording, closes the upstream connections. */
  close(): Promise<void>;
}

/**
 * A validating proxy in front of a real deployment, through the mock's own front door: each operation's action
 * forwards to `upstream` and judges both ways, with the embedded stateful mock's action as the fallback.
 * @example const proxy = await createProxyServer({ upstream: 'https://staging.example/v1' });
 * // … run the e2e suite against proxy.url …
 * expect(proxy.violations()).toEqual([]); await proxy.close();
 */
export async function createProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  const upstream = parseUpstream(options.upstream);
  const shown = redactUrl(upstream.replace(/\/\/[^/@]*@/, '//***@'), []);
  const say = options.onLog ?? ((line: string) => void process.stderr.write(`petstore-kit proxy: ${line}\n`));
  const fallback = (options.fallback ?? 'mock') === 'mock';
  if (options.fallback !== undefined && options.fallback !== 'mock' && options.fallback !== 'none') {
    throw new UsageError(`--fallback must be mock or none (got "${String(options.fallback)}")`);
  }
  const { timeout, maxBytes } = readLimits(options);
  // RFC 9110 §15.2: a 100 Continue the upstream sends unasked is skipped, and its final answer passed on.
  const dispatcher = createOutgoingDispatcher({
    ca: options.ca,
    insecure: options.insecure,
    timeout,
    onConnection: dropInterimContinue,
  });
  const rawBodies = new WeakMap<MockRequest, Buffer>();
  const { origin: upstreamOrigin, pathname } = new URL(upstream);
  const context: ProxyContext = {
    upstream,
    upstreamOrigin,
    upstreamPath: pathname.replace(/\/+$/, ''),
    strict: options.strict ?? false,
    fallback,
    // The whole answer within three timeouts (30 s by default; never under the timeout plus 2 s, since undici's own
    // timers are coarse); at most HELD_ANSWERS answers of the largest size held at once.
    forward: {
      dispatcher,
      timeout,
      maxBytes,
      answerMs: Math.max(3 * timeout, timeout + 2000),
      budget: { used: 0, max: options.maxHeldBytes ?? Math.max(HELD_ANSWERS * maxBytes, MIN_HELD_BYTES) },
    },
    health: new UpstreamHealth(shown, fallback, say),
    say,
    rawBodies,
  };
  let server: MockServer;
  try {
    server = await createMockServer({
      ...options,
      // Each operation forwards; the mock's own pipeline for it is the fallback (document-model.ts).
      wrapOperation: (operation, mockAction, { spec, runtime }) =>
        createProxyAction(operation, mockAction, spec, runtime, context),
    });
  } catch (error) {
    await dispatcher.close();
    throw error;
  }
  const tally = new ProxyTally();
  server.mock.observers.add(tally.observe);
  const recorder =
    options.record === undefined ? undefined : await startRecording(options.record, server, dispatcher, rawBodies, say);
  return {
    get url() {
      return server.url;
    },
    origin: server.origin,
    port: server.port,
    upstream: shown,
    mock: server.mock,
    violations: () => tally.violations(),
    summary: () => tally.summary(),
    journal: (filter) => server.journal(filter),
    probeUpstream: () => probeUpstream(upstream, server.mock.spec, dispatcher, Math.min(timeout, 5_000)),
    close: async () => {
      await server.close();
      await recorder?.close();
      if (recorder?.skipped)
        say(
          `recording: ${recorder.skipped} exchange${recorder.skipped === 1 ? '' : 's'} left out of ${options.record} (the file fell more than ${MAX_QUEUED / 1024 / 1024} MiB behind)`,
        );
      await dispatcher.close();
    },
  };
}

/** The upstream timeout and the largest body read, defaulted; anything but a whole number from 1 up is a RangeError. */
function readLimits(options: ProxyOptions): { timeout: number; maxBytes: number } {
  const timeout = options.timeout ?? DEFAULT_UPSTREAM_TIMEOUT;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(timeout) || timeout < 1)
    throw new RangeError(`timeout must be a whole number of milliseconds, at least 1 (got ${timeout})`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new RangeError(`maxResponseBytes must be a whole number, at least 1 (got ${maxBytes})`);
  return { timeout, maxBytes };
}

/** Opens the HAR recording and records every exchange but OPTIONS; a file that cannot be written closes the proxy. */
async function startRecording(
  record: string,
  server: MockServer,
  dispatcher: ReturnType<typeof createOutgoingDispatcher>,
  rawBodies: WeakMap<MockRequest, Buffer>,
  say: (line: string) => void,
): Promise<HarRecorder> {
  let recorder: HarRecorder;
  try {
    recorder = await HarRecorder.create(record, server.mock.apiKeys, (error) =>
      say(
        `cannot write the recording ${record}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; recording stopped`,
      ),
    );
  } catch (error) {
    await server.close();
    await dispatcher.close();
    throw new UsageError(
      `--record ${record}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const har = recorder;
  server.mock.observers.add((served: ServedRequest) => {
    if (served.request.method !== 'OPTIONS')
      har.record(served, rawBodies.get(served.request), Date.now() - served.durationMs);
  });
  return recorder;
}

/** `https://staging.example/v1/` → `https://staging.example/v1`; anything but an http(s) URL is a usage error. */
function parseUpstream(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--upstream must be an http:// or https:// URL with the API's base path, e.g. https://staging.example/v1 (got "${value.slice(0, 100)}")`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--upstream must be an http:// or https:// URL (got ${url.protocol})`);
  if (url.search || url.hash)
    throw new UsageError(
      '--upstream must not have a query or a fragment: give the base URL, e.g. https://staging.example/v1',
    );
  return url.href.replace(/\/+$/, '');
}
