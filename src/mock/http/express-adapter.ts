import express, {
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type Response,
  type Router,
} from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Mock } from '../create-mock.js';
import type { MockRequest } from '../mock-request.js';
import type { FinishedReply } from '../base/reply.js';
import { errorReply } from '../base/reply.js';
import { finishReply } from '../front-door/finish-reply.js';
import { checkRequestHeaders } from './check-request-headers.js';
import { expectContinue } from './expect-continue.js';

/**
 * The only file that knows Express: convert Express's request in once, hand it to the mock's one front door
 * (`mock.dispatch`), write the finished reply out once. Routing stays with the route table, not Express's.
 */
export function createMockRouter(mock: Mock, options: AdapterOptions = {}): Router {
  return mountMock(express.Router(), mock, options);
}

/** How answers are written out. */
export interface AdapterOptions {
  /** Milliseconds an answer may take to be written once ready; a client reading more slowly is cut off. Default: none. */
  writeTimeout?: number | undefined;
}

/** A whole Express app serving the mock at its document's base path, with `/__admin` and `/docs` beside it. */
export function createMockApp(mock: Mock, options: AdapterOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The finishing step sets every header; Express's ETag would hash every body on the hot path.
  app.set('etag', false);
  return mountMock(app, mock, options);
}

/**
 * Registers the mock's one layer on a router or straight on an app: `createMockApp` uses the app itself, since a
 * nested Router costs a second routing pass on every request (a measurable share of the throughput in
 * `npm run bench`).
 */
function mountMock<T extends Router | express.Express>(target: T, mock: Mock, { writeTimeout }: AdapterOptions): T {
  // Not an async function: Express would chain a handler onto its promise on every request.
  target.use(function petstoreFrontDoor(req: Request, res: Response, next: NextFunction) {
    try {
      // What Node lets through but HTTP forbids (a second Authorization, no Host): answered before anything else.
      checkRequestHeaders(req.rawHeaders, req.httpVersion);
    } catch (error) {
      writeErrorReply(req, res, error, mock);
      return;
    }
    const expectation = expectContinue(req, res);
    // Written once the dispatch promise settles, never before: a reply written while Node's parser is still inside
    // this request's bytes (a body it cannot frame) would let them be read as the next request.
    mock.dispatch(toMockRequest(req, res, expectation.sendContinue)).then((reply) => {
      try {
        // A client still waiting to send the body it announced cannot use this connection for another request.
        writeReply(
          res,
          expectation.mustClose() ? { ...reply, headers: { ...reply.headers, Connection: 'close' } } : reply,
          writeTimeout,
        );
      } catch (error) {
        next(error);
      }
    }, next);
  });
  // Only a fault of the adapter itself gets here (dispatch turns every failure into a reply): still an Error body.
  const renderUnexpected: ErrorRequestHandler = (error, req, res, _next) => {
    mock.runtime.onInternalError(error, undefined);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeErrorReply(req, res, error, mock);
  };
  target.use(renderUnexpected);
  return target;
}

/**
 * Gives a request and its response, before Express sees them, every own property that Express 5, its router and
 * Node add to them while the mock answers. Express first changes their prototypes, and V8 cannot share a hidden
 * class for properties added after a prototype change: without this, every request got a hidden class of its own,
 * and every property read on it or on its response (Express's, Node's, the mock's) missed its inline cache. That was
 * most of the server's work: callgrind counted about 540k instructions for a create before, 120k after. The values
 * are the ones the properties have until they are set (`undefined`, or the prototype's default), so nothing reads
 * differently. For a server that hands its requests to an app of `createMockApp`; express-adapter.test.ts holds
 * the lists to what Express and Node add.
 */
export function shapeForExpress(req: IncomingMessage, res: ServerResponse): void {
  // Plain assignments in one order, so that every request takes the same hidden-class transitions.
  const request = req as unknown as Record<PropertyKey, unknown>;
  // Express (app.handle) and its router.
  request.res = undefined;
  request.next = undefined;
  request.baseUrl = undefined;
  request.originalUrl = undefined;
  request._parsedUrl = undefined;
  request.params = undefined;
  if (MATCHED_ROUTE !== undefined) request[MATCHED_ROUTE] = undefined;
  // Node: the count of listener kinds, inherited (0) until the first listener; assigned to itself to become an own
  // property now, as Express would make it later.
  // eslint-disable-next-line no-self-assign -- the inherited value made an own property, on purpose
  request._eventsCount = request._eventsCount;
  const response = res as unknown as Record<PropertyKey, unknown>;
  response.locals = undefined;
  // Node: writeHead sets them; until then the prototype's 200 and undefined show through.
  /* eslint-disable no-self-assign -- the inherited values made own properties, on purpose */
  response.statusCode = response.statusCode;
  response.statusMessage = response.statusMessage;
  /* eslint-enable no-self-assign */
}

/** The router's key for the matched route (router 2.3, under Express 5), from the router Express itself loads. */
const MATCHED_ROUTE = ((): symbol | undefined => {
  try {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const { matchedRoute } = fromExpress('router/lib/symbols') as { matchedRoute?: unknown };
    return typeof matchedRoute === 'symbol' ? matchedRoute : undefined;
  } catch {
    // Another router: the requests keep working, only slower; the shape test names what it adds.
    return undefined;
  }
})();

function toMockRequest(req: Request, res: Response, sendContinue: (() => void) | undefined): MockRequest {
  return new ExpressRequest(req, res, sendContinue);
}

/** Express's request as the front door sees it; a class, so that the lazy `protocol` costs no accessor per request. */
class ExpressRequest implements MockRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Request['headers'];
  readonly body: Readable;
  readonly mountPath: string;
  readonly sendContinue: (() => void) | undefined;
  readonly #req: Request;
  readonly #res: Response;
  #signal: AbortSignal | undefined;

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  whenSent(done: () => void): void {
    const res = this.#res;
    // 'close' follows 'finish' (the last byte handed to the socket), and comes alone when the connection is cut.
    if (res.closed) done();
    else res.once('close', done);
  }

  /** Made on first use only (the proxy's): aborted when the connection closes before the answer was written. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      this.#signal = controller.signal;
      const res = this.#res;
      if (res.destroyed && !res.writableFinished) controller.abort();
      else res.once('close', () => !res.writableFinished && controller.abort());
    }
    return this.#signal;
  }

  constructor(req: Request, res: Response, sendContinue: (() => void) | undefined) {
    this.sendContinue = sendContinue;
    this.#res = res;
    this.method = req.method;
    this.url = originForm(req.url);
    this.headers = req.headers;
    this.body = bodyStream(req);
    this.mountPath = req.baseUrl;
    this.#req = req;
  }

  /** Read only by the docs (Express works it out from `trust proxy` on every read): not on the API's path. */
  get protocol(): string {
    return this.#req.protocol;
  }
}

/** RFC 9112 §3.2.2: a server must accept the absolute form (`GET http://host/v1/pets`); routing uses the origin form. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

function bodyStream(req: Request): Readable {
  // Mounted after a host app's own body parser, the stream is spent: hand the parsed body on as JSON text.
  if (req.readableEnded && req.body !== undefined) return Readable.from([Buffer.from(JSON.stringify(req.body))]);
  return req;
}

/** An error answered before or outside dispatch: still the Error shape, with the mock's CORS headers. */
function writeErrorReply(req: Request, res: Response, error: unknown, mock: Mock): void {
  writeReply(
    res,
    finishReply(
      errorReply(error, () => undefined),
      req.method,
      req.headers.origin,
      mock.cors,
    ),
  );
}

/**
 * Writes a finished reply as it is: its headers are complete, its payload already serialised (none for HEAD). An
 * answer the client has not taken within `writeTimeout` (what is left of it still queued in this process) is given
 * up: the connection is closed, and what it held is let go.
 */
function writeReply(res: Response, reply: FinishedReply, writeTimeout?: number): void {
  if (reply.drop) {
    res.destroy();
    return;
  }
  res.writeHead(reply.status, reply.headers as Record<string, string>);
  res.end(reply.payload);
  if (writeTimeout === undefined || res.writableFinished) return;
  // A reset, not a FIN: the kernel drops what it still holds for the client at once, rather than waiting on it.
  const timer = setTimeout(() => (res.socket ? res.socket.resetAndDestroy() : res.destroy()), writeTimeout);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
