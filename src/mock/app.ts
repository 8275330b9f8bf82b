import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { Readable } from 'node:stream';
import type { Mock } from './create-mock.js';
import type { MockRequest } from './pipeline.js';
import type { Reply } from './context.js';
import { toApiError } from '../errors.js';
import { toJsonText } from './json-text.js';

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
  target.use(async function petstoreFrontDoor(req: Request, res: Response) {
    send(res, req.method, await mock.handle(toMockRequest(req)));
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

function toMockRequest(req: Request): MockRequest {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: bodyStream(req),
    mountPath: req.baseUrl,
  };
}

function bodyStream(req: Request): Readable {
  // Mounted after a host app's own body parser, the stream is spent: hand the parsed body on as JSON text.
  if (req.readableEnded && req.body !== undefined) return Readable.from([Buffer.from(JSON.stringify(req.body))]);
  return req;
}

function send(res: Response, method: string, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
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
