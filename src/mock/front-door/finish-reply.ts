import type { Cors } from '../base/cors.js';
import type { FinishedReply, Reply } from '../base/reply.js';
import { toJsonText } from '../base/json-text.js';
import { utf8Length } from '../../json/utf8.js';

const DROPPED: FinishedReply = Object.freeze({ status: 0, drop: true, headers: Object.freeze({}), payload: undefined });

/**
 * The one finishing step every reply passes, API, admin and docs alike: the base headers (a stateful mock must not
 * be cached, and nosniff keeps JSON from being sniffed as HTML), then the route's own, CORS and `extra` (deprecation
 * notices); the payload serialised once with its Content-Type and Content-Length; and for HEAD no content
 * (RFC 9110 §9.3.2: GET's headers without the content). The result is a new frozen value; `reply` is not touched.
 */
export function finishReply(
  reply: Reply,
  method: string,
  origin: string | undefined,
  cors: Cors,
  extra?: Readonly<Record<string, string>>,
): FinishedReply {
  if (reply.drop) return DROPPED;
  // One new object, filled without spreads: this runs on every request.
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (reply.headers) Object.assign(headers, reply.headers);
  const corsHeaders = cors.responseHeaders(origin);
  if (corsHeaders) Object.assign(headers, corsHeaders);
  if (extra) Object.assign(headers, extra);
  let payload: string | Uint8Array | undefined = reply.bytes;
  if (payload === undefined && reply.body !== undefined) {
    payload = toJsonText(reply.body);
    headers['Content-Type'] = 'application/json';
  }
  if (payload !== undefined)
    headers['Content-Length'] = String(typeof payload === 'string' ? utf8Length(payload) : payload.length);
  const finished: FinishedReply = {
    status: reply.status,
    headers: Object.freeze(headers),
    body: reply.body,
    payload: method === 'HEAD' ? undefined : payload,
  };
  return Object.freeze(finished);
}
