import type { MockRequest, RequestHeaders } from '../mock-request.js';
import type { FinishedReply } from '../base/reply.js';

/**
 * The Web platform's side of the front door, as express-adapter.ts is Express's: a `Request` in as a MockRequest,
 * a finished reply out as a `Response`. No socket: what a server would learn from one (Host, Content-Length) is
 * taken from the request itself, so the pipeline sees what it would see over HTTP. Web platform only (no Buffer,
 * no stream module): the same file serves the in-process mock in Node and in a browser.
 */
export async function fromFetchRequest(request: Request, url: URL, mountPath: string): Promise<MockRequest> {
  const headers: RequestHeaders = { host: url.host };
  // Headers iterates lower-cased names, values of a repeated header joined with ", " (as Node joins them).
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  // A body of known length goes with Content-Length, as fetch sends it over HTTP.
  if (bytes !== undefined) headers['content-length'] = String(bytes.length);
  return {
    method: request.method.toUpperCase(),
    url: `${url.pathname.slice(mountPath.length) || '/'}${url.search}`,
    headers,
    body: bodyOf(bytes),
    mountPath,
    protocol: url.protocol.replace(/:$/, ''),
    signal: request.signal,
  };
}

async function* bodyOf(bytes: Uint8Array | undefined): AsyncIterable<Uint8Array> {
  if (bytes !== undefined && bytes.length > 0) yield bytes;
}

/** RFC 9110 §15.3.5, §15.4.5: these statuses never carry content (and `Response` refuses one). */
const NO_CONTENT = new Set([101, 103, 204, 205, 304]);

/** The finished reply as a `Response`; a dropped connection (a simulated fault) is undefined: a network error. */
export function toFetchResponse(reply: FinishedReply): Response | undefined {
  if (reply.drop) return undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) headers.set(name, value);
  const body = NO_CONTENT.has(reply.status) || reply.payload === undefined ? null : reply.payload;
  return new Response(body, { status: reply.status, headers });
}
