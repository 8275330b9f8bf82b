import { apiError } from '../../errors.js';

// Fields that must appear once: a second Authorization or Content-Type lets two parts of a chain (a proxy, the
// mock) read two different requests (Node keeps the first and drops the rest silently); Host is RFC 9112 §3.2.
const SINGLE = new Map([
  ['authorization', 'Authorization'],
  ['proxy-authorization', 'Proxy-Authorization'],
  ['content-type', 'Content-Type'],
  ['host', 'Host'],
]);

/**
 * Checks what Node's parser lets through but HTTP forbids, before anything else looks at the request; throws a
 * 400 `bad_request` ApiError (with `Connection: close`, as the other framing errors) naming the field:
 * - a field that is not a list given more than once (RFC 9110 §5.3: a sender must not, and the recipient cannot
 *   know which one was meant): Authorization, Proxy-Authorization, Content-Type, Host;
 * - an HTTP/1.1 request without Host (RFC 9112 §3.2: "A server MUST respond with a 400").
 * `rawHeaders` is Node's flat list of names and values as received.
 */
export function checkRequestHeaders(rawHeaders: readonly string[], httpVersion: string): void {
  let counts: Map<string, number> | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!SINGLE.has(name)) continue;
    counts ??= new Map();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, count] of counts ?? []) {
    if (count > 1) throw bad(`the request has ${count} ${SINGLE.get(name)} header fields; send exactly one (RFC 9110 §5.3)`);
  }
  if (httpVersion === '1.1' && !counts?.has('host')) throw bad('an HTTP/1.1 request must have a Host header (RFC 9112 §3.2)');
}

function bad(message: string) {
  return apiError('bad_request', message, { Connection: 'close' });
}
