import { apiError } from '../../errors.js';

// Fields that must appear once: a second Authorization or Content-Type lets two parts of a chain (a proxy, the
// mock) read two different requests (Node keeps the first and drops the rest silently); Host is RFC 9112 §3.2.
const SINGLE_NAMES = ['Authorization', 'Proxy-Authorization', 'Content-Type', 'Host'];
const SINGLE = SINGLE_NAMES.map((name) => name.toLowerCase());
const SINGLE_LENGTHS = new Set(SINGLE.map((name) => name.length));
const HOST = 1 << SINGLE.indexOf('host');

/**
 * Checks what Node's parser lets through but HTTP forbids, before anything else looks at the request; throws a
 * 400 `bad_request` ApiError (with `Connection: close`, as the other framing errors) naming the field:
 * - a field that is not a list given more than once (RFC 9110 §5.3: a sender must not, and the recipient cannot
 *   know which one was meant): Authorization, Proxy-Authorization, Content-Type, Host;
 * - an HTTP/1.1 request without Host (RFC 9112 §3.2: "A server MUST respond with a 400").
 * `rawHeaders` is Node's flat list of names and values as received.
 */
export function checkRequestHeaders(rawHeaders: readonly string[], httpVersion: string): void {
  // One bit per field seen; this runs on every request, so it allocates nothing and lower-cases only names as long
  // as one of the four.
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i]!;
    if (!SINGLE_LENGTHS.has(raw.length)) continue;
    const index = SINGLE.indexOf(raw.toLowerCase());
    if (index === -1) continue;
    if (seen & (1 << index)) {
      const count = rawHeaders.filter((name, at) => at % 2 === 0 && name.toLowerCase() === SINGLE[index]).length;
      throw bad(`the request has ${count} ${SINGLE_NAMES[index]} header fields; send exactly one (RFC 9110 §5.3)`);
    }
    seen |= 1 << index;
  }
  if (httpVersion === '1.1' && !(seen & HOST)) throw bad('an HTTP/1.1 request must have a Host header (RFC 9112 §3.2)');
}

function bad(message: string) {
  return apiError('bad_request', message, { Connection: 'close' });
}
