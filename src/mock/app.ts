import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { Readable } from 'node:stream';
import type { Mock } from './create-mock.js';
import type { MockRequest } from './pipeline.js';
import type { Reply } from './context.js';
import { toApiError } from '../errors.js';
import { createDocs, DOCS_PATH } from './docs/create-docs.js';
import { createAdmin, isAdminPath } from './admin/admin.js';
import { toJsonText } from './json-text.js';
import { checkRequestHeaders } from './check-request-headers.js';
import { expectContinue } from './expect-continue.js';

/**
 * The only file that knows Express: one front door converts Express's request in once, runs the pipeline, and
 * writes the reply out once. Routing stays with the document (the pipeline's router), not Express's route table.
 */
export function createMockRouter(mock: Mock): Router {
  return mountMock(express.Router(), mock);
}

/**
 * Registers the mock's layers on a router or straight on an app: `createMockApp` uses the app itself, since a nested
 * Router costs a second routing pass on every request (a measurable share of the throughput in
 * `npm run bench`). Every layer of the mock belongs here, so that both ways of serving it stay the same.
 */
function mountMock<T extends Router | express.Express>(target: T, mock: Mock): T {
  const docs = createDocs(mock);
  const admin = createAdmin(mock);
  // One layer, dispatching by prefix: the API's requests pay for no second route match.
  target.use(async function petstoreFrontDoor(req: Request, res: Response) {
    try {
      // What Node lets through but HTTP forbids (a second Authorization, no Host): answered before anything else.
      checkRequestHeaders(req.rawHeaders, req.httpVersion);
    } catch (error) {
      const failure = toApiError(error);
      send(res, req.method, { status: failure.status, headers: { ...BASE_HEADERS, ...failure.headers }, body: failure.toBody() });
      return;
    }
    const docsPath = belowDocs(req.path);
    if (docsPath !== undefined) {
      // The docs page sits beside the API's base path and needs no key (the page is public; its requests are not).
      const reply = await docs({ method: req.method, path: docsPath, mountPath: req.baseUrl, protocol: req.protocol, host: req.headers.host, acceptEncoding: req.headers['accept-encoding'] });
      res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)) });
      res.end(req.method === 'HEAD' ? undefined : reply.body);
      return;
    }
    // The admin API sits beside the pipeline, not in it: its requests are not the API's and are not journaled.
    const handle = isAdminPath(req.path) ? admin : mock.handle;
    const expectation = expectContinue(req, res);
    const reply = await handle(toMockRequest(req, expectation.sendContinue));
    if (expectation.mustClose()) reply.headers = { ...reply.headers, Connection: 'close' };
    send(res, req.method, reply);
  });
  target.use(renderUnexpected);
  return target;
}

/** A whole Express app serving the mock at its document's base path. */
export function createMockApp(mock: Mock): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The pipeline sets its own headers; Express's ETag would hash every body on the hot path.
  app.set('etag', false);
  return mountMock(app, mock);
}

/** The path below `/docs` (`/` for the page itself), or undefined for a path outside it. */
function belowDocs(path: string): string | undefined {
  if (!path.startsWith(DOCS_PATH)) return undefined;
  const rest = path.slice(DOCS_PATH.length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : undefined;
}

function toMockRequest(req: Request, sendContinue: (() => void) | undefined): MockRequest {
  return {
    method: req.method,
    url: originForm(req.url),
    headers: req.headers,
    body: bodyStream(req),
    mountPath: req.baseUrl,
    sendContinue,
  };
}

const BASE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

/** RFC 9112 §3.2.2: a server must accept the absolute form (`GET http://host/v1/pets`); the pipeline routes on the origin form. */
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

function send(res: Response, method: string, reply: Reply): void {
  if (reply.drop) {
    res.destroy();
    return;
  }
  // Every reply's headers object is built for that reply alone, so it is completed in place rather than copied.
  const headers: Record<string, string> = reply.headers ?? {};
  let payload: string | undefined;
  if (reply.body !== undefined) {
    payload = toJsonText(reply.body);
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  res.writeHead(reply.status, headers);
  // RFC 9110 §9.3.2: HEAD gets GET's headers without the content.
  res.end(method === 'HEAD' ? undefined : payload);
}

/** Anything the pipeline did not turn into a reply still leaves as an Error body, never Express's HTML page. */
const renderUnexpected: ErrorRequestHandler = (error, req, res, _next) => {
  console.error('petstore-kit: internal error:', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const failure = toApiError(error);
  send(res, req.method, { status: failure.status, headers: failure.headers, body: failure.toBody() });
};
