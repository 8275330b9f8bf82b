import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions as ServerOptionsOfNode,
  type ServerResponse,
} from 'node:http';
import { capConnections, defaultMaxConnections } from './connection-cap.js';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { existsSync } from 'node:fs';
import { createMock, type Mock, type MockOptions } from '../create-mock.js';
import { createMockApp, shapeForExpress } from './express-adapter.js';
import { DOCS_PATH } from '../docs/docs-mount.js';
import { createRequestLog, type RequestLogOptions } from '../../log/create-request-log.js';
import type { StoreSnapshot } from '../store/collection-store.js';
import { defaultFixturesFile, defaultSpecFile } from '../../paths.js';
import { watchFiles } from '../document/watch-files.js';
import { isBundledDocument, ownFixturesFolder } from '../document/load-fixtures.js';
import type { Spec } from '../../openapi/load-spec.js';
import { apiError, type ApiError } from '../../errors.js';
import { errorReply } from '../base/reply.js';
import { finishReply } from '../front-door/finish-reply.js';
import type { Cors } from '../base/cors.js';

export interface ServerOptions extends MockOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A request log: `'text'` (one line a request), `'json'` (JSON Lines), or options; default `false`, no log. */
  log?: RequestLogOptions['format'] | RequestLogOptions | false;
  /** Reload the document and the fixtures when their files change (`--watch`); default false. */
  watch?: boolean;
  /** Told how each reload went; default: one line on stdout (reloaded) or stderr (kept the last good version). */
  onReload?: (event: ReloadEvent) => void;
  /** Milliseconds a client has to send a request's headers, then 408; default 10,000. */
  headersTimeout?: number;
  /** Milliseconds a client has to send a whole request, body included, then 408; default 30,000. */
  requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open; default 5,000. */
  keepAliveTimeout?: number;
  /**
   * Milliseconds an answer may take to be written to a client once it is ready; a client that reads it more slowly
   * is cut off (the connection closed), so it cannot hold the answer's memory for ever. Default 60,000.
   */
  writeTimeout?: number;
  /** Most connections open at once; one more is answered 503 and closed. Default: the open-file limit less 128 (connection-cap.ts). */
  maxConnections?: number;
}

/** Against slow clients (slowloris): a connection that will not finish its request is answered 408 and closed. */
export const DEFAULT_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  writeTimeout: 60_000,
} as const;

/** The outcome of a reload, in one line. */
export interface ReloadEvent {
  ok: boolean;
  message: string;
}

/** A running mock: the mock's handle (reset, journal, control, snapshot: see Mock) and where it listens. */
export interface MockServer extends Pick<
  Mock,
  'reset' | 'journal' | 'clearJournal' | 'control' | 'resetControl' | 'snapshot'
> {
  /** The API's base URL, base path included: `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The server's origin: `http://127.0.0.1:4010`. */
  origin: string;
  /** The docs page (Swagger UI): `http://127.0.0.1:4010/docs`. */
  docsUrl: string;
  port: number;
  /** The mock being served (a reload swaps its document model; the mock and its runtime stay). */
  readonly mock: Mock;
  /** Replaces the store's state with a snapshot (see Mock.restore). */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** Reloads the document and the fixtures from their files now; a failure keeps the running mock. */
  reload(): Promise<ReloadEvent>;
  /** Stops listening, stops watching, and writes pending state. */
  close(): Promise<void>;
}

/**
 * Starts the mock over HTTP and resolves once it is listening.
 * @example const server = await createMockServer(); await fetch(`${server.url}/pets`, { headers: { Authorization: 'Bearer petstore-dev-key' } }); await server.close();
 */
export async function createMockServer(options: ServerOptions = {}): Promise<MockServer> {
  const timeouts = checkTimeouts(options);
  const mock = await createMock(options);
  const log = options.log
    ? createRequestLog({
        keys: mock.apiKeys,
        ...(typeof options.log === 'string' ? { format: options.log } : options.log),
      })
    : undefined;
  // The observers belong to the runtime, which a reload keeps: the log hears of every request, before and after.
  if (log) mock.observers.add(log.observe);
  const app = createMockApp(mock, { writeTimeout: timeouts.writeTimeout });
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (cap.refuse(req, res)) return;
    shapeForExpress(req, res);
    app(req, res);
  };
  // One listening socket and one app for the server's life; a reload swaps the document model behind the front
  // door in one assignment, so requests in flight finish on the model they started on.
  const server = createServer(nodeServerOptions(timeouts), serve);
  // Before the descriptors run out: connections past the cap get a 503 answer and a log line, not ECONNRESET.
  const cap = capConnections(server, options.maxConnections ?? defaultMaxConnections());
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, mock.cors),
  );
  // With a listener, Node leaves `100 Continue` to the mock: sent only once the key and size checks passed.
  server.on('checkContinue', serve);
  // Any other expectation (RFC 9110 §10.1.1: 417 when it cannot be met) gets the Error shape, not Node's bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    answerExpectationFailed(req, res, mock.cors, mock.runtime.redactKeys),
  );
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1').catch(async (error: unknown) => {
    // Nothing listens, so nothing else will close the mock (and a Redis store's connection).
    await mock.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  const onReload = options.onReload ?? printReload;
  const stopWatching = options.watch
    ? watchFiles(watchedFiles(options, mock.spec), (changed) => void reload(mock, onReload, changed))
    : undefined;
  return {
    get url() {
      return origin + mock.spec.basePath;
    },
    origin,
    docsUrl: origin + DOCS_PATH,
    port: address.port,
    mock,
    reset: () => mock.reset(),
    journal: (filter) => mock.journal(filter),
    clearJournal: () => mock.clearJournal(),
    control: (changes) => mock.control(changes),
    resetControl: () => mock.resetControl(),
    snapshot: () => mock.snapshot(),
    restore: (snapshot) => mock.restore(snapshot),
    reload: () => reload(mock, onReload),
    close: async () => {
      stopWatching?.();
      await close(server);
      await mock.close();
      if (log) {
        mock.observers.delete(log.observe);
        log.flush();
      }
    },
  };
}

/** Node's server options: the timeouts, how often they are enforced, and a missing Host left to the mock. */
function nodeServerOptions(timeouts: ReturnType<typeof checkTimeouts>): ServerOptionsOfNode {
  return {
    headersTimeout: timeouts.headersTimeout,
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    // How often Node looks for connections past their timeouts; its default of 30 s would let them overstay.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersTimeout / 4))),
    // The mock answers a missing Host itself, in the Error shape (check-request-headers.ts), not Node's bare 400.
    requireHostHeader: false,
  };
}

/** Reloads the document and the fixtures (`changed`: the files that changed, for the message) and says how it went. */
async function reload(
  mock: Mock,
  onReload: (event: ReloadEvent) => void,
  changed: string[] = [],
): Promise<ReloadEvent> {
  const what = changed.length ? `${changed.map((file) => relative(process.cwd(), file)).join(', ')} changed: ` : '';
  let event: ReloadEvent;
  try {
    event = { ok: true, message: `${what}reloaded; ${await mock.reload()}` };
  } catch (error) {
    event = { ok: false, message: `${what}${oneLine(error)}; still serving the last good version` };
  }
  onReload(event);
  return event;
}

/**
 * The files `--watch` follows: the document and the fixtures, when they are files; without fixtures named, the
 * bundled ones for the bundled document, else the document's own fixtures folder's `<collection>.json` files
 * (load-fixtures.ts: defaultSeeds) in the folders that exist (a directory is watched, so it must be there).
 */
function watchedFiles(options: ServerOptions, spec: Spec): string[] {
  const files: string[] = [];
  if (typeof options.spec !== 'object') files.push(options.spec ?? defaultSpecFile);
  if (typeof options.fixtures === 'string') files.push(options.fixtures);
  if (options.fixtures !== undefined) return files;
  if (isBundledDocument(options.spec)) return [...files, defaultFixturesFile];
  const folder = ownFixturesFolder(options.spec);
  if (folder === undefined) return files;
  for (const collection of spec.resources.collections) {
    const file = join(folder, `${collection.name}.json`);
    if (collection.parent === undefined && existsSync(dirname(file))) files.push(file);
  }
  return files;
}

function printReload(event: ReloadEvent): void {
  if (event.ok) console.log(`petstore-kit: ${event.message}`);
  else console.error(`petstore-kit: ${event.message}`);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

function checkTimeouts(options: ServerOptions) {
  const timeouts = {
    headersTimeout: options.headersTimeout ?? DEFAULT_TIMEOUTS.headersTimeout,
    requestTimeout: options.requestTimeout ?? DEFAULT_TIMEOUTS.requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout ?? DEFAULT_TIMEOUTS.keepAliveTimeout,
    writeTimeout: options.writeTimeout ?? DEFAULT_TIMEOUTS.writeTimeout,
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a whole number of milliseconds, at least 1 (got ${value})`);
  }
  if (timeouts.headersTimeout > timeouts.requestTimeout) {
    throw new RangeError(
      `headersTimeout (${timeouts.headersTimeout}) must not be longer than requestTimeout (${timeouts.requestTimeout})`,
    );
  }
  return timeouts;
}

/**
 * Requests that never reach the front door (malformed HTTP, oversized headers, too slow) still get the interface's
 * Error shape instead of Node's bare status line: 400, 431 (RFC 6585 §5) or 408 (RFC 9110 §15.5.9), then close.
 * The reply comes from the same error-to-reply function and finishing step as every other answer; only the
 * writing is by hand, since there is no request object to answer through.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, cors: Cors): void {
  // A reset socket cannot be written, and a response already under way cannot be followed by another.
  const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  // RFC 9110 §9.3.2: a HEAD request gets no content, even when the rest of it could not be parsed.
  const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
  const method = rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ' ? 'HEAD' : 'GET';
  const reply = finishReply(
    errorReply(clientFailure(error.code), () => undefined),
    method,
    undefined,
    cors,
    { Connection: 'close' },
  );
  let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n`;
  for (const [name, value] of Object.entries(reply.headers)) head += `${name}: ${value}\r\n`;
  socket.write(`${head}\r\n`);
  socket.end(reply.payload ?? '');
}

/**
 * RFC 9110 §10.1.1: an `Expect` the server cannot meet (anything but `100-continue`) is answered 417, before the
 * body is read; the connection is closed, since the client may still send the body it announced.
 */
function answerExpectationFailed(
  req: IncomingMessage,
  res: ServerResponse,
  cors: Cors,
  redact: (text: string) => string,
): void {
  const expected = String(req.headers.expect ?? '')
    .slice(0, 64)
    .replace(/[^\x20-\x7e]/g, '?');
  const error = apiError(
    'expectation_failed',
    `header.Expect "${expected}" cannot be met: the only expectation the mock knows is 100-continue`,
  );
  const reply = finishReply(
    errorReply(error, () => undefined, redact),
    req.method ?? 'GET',
    req.headers.origin,
    cors,
    { Connection: 'close' },
  );
  res.writeHead(reply.status, reply.headers as Record<string, string>);
  res.end(reply.payload);
}

function clientFailure(code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return apiError('request_timeout', 'the request was not received in time; the connection is closed');
    case 'HPE_HEADER_OVERFLOW':
      return apiError('headers_too_large', 'the request headers are larger than the server accepts');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return apiError('payload_too_large', 'the chunk extensions of the request body are too large');
    default:
      return apiError('bad_request', 'the request is not valid HTTP/1.1');
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections would hold close() open until they time out.
    server.closeAllConnections();
  });
}
