import { timingSafeEqual } from 'node:crypto';
import { apiError } from '../../errors.js';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const REALM = 'Bearer realm="petstore"';

/**
 * Builds the bearer-key check (interface section 5). The token is compared with every key in constant time over a
 * fixed width (the longest key's), lengths compared apart, so neither a key's content nor its length shows in the
 * timing; this costs a fraction of hashing both sides, which took 3–5 % of a request. No message repeats a key.
 */
export function createAuthenticator(keys: readonly string[]) {
  const width = Math.max(1, ...keys.map((key) => Buffer.byteLength(key)));
  const padded = keys.map((key) => {
    const buffer = Buffer.alloc(width);
    buffer.write(key, 'utf8');
    return { buffer, length: Buffer.byteLength(key) };
  });
  // One scratch buffer: the check is synchronous, so no two requests ever use it at once.
  const candidate = Buffer.alloc(width);

  return function authenticate(header: string | undefined): void {
    if (header === undefined || header.trim() === '') {
      // RFC 6750 §3.1: a request without credentials gets the challenge but no error code.
      throw apiError('unauthorized', 'the Authorization header is missing; send "Authorization: Bearer <API key>"', {
        'WWW-Authenticate': REALM,
      });
    }
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header : header.slice(0, space);
    // RFC 9110 §11.1: the auth scheme is case-insensitive.
    if (scheme.toLowerCase() !== 'bearer') {
      throw invalid('invalid_request', 'the Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"');
    }
    const token = space === -1 ? '' : header.slice(space + 1).trim();
    if (token === '') throw invalid('invalid_request', 'the Authorization header has the Bearer scheme but no API key');
    if (!B64TOKEN.test(token)) throw invalid('invalid_request', 'the bearer token holds characters RFC 6750 does not allow');
    // The token is b64token syntax, so ASCII: one byte a character. Longer than every key, it is cut to the width
    // (and fails on length); the time taken depends on the token, which the client knows, and the fixed width.
    candidate.fill(0);
    candidate.write(token.length > width ? token.slice(0, width) : token, 'latin1');
    let known = 0;
    // Compare with every key, not stopping at a match and without branches, so the time does not say which matched.
    for (const key of padded) known |= Number(timingSafeEqual(key.buffer, candidate)) & Number(key.length === token.length);
    if (!known) throw invalid('invalid_token', 'the API key is not valid');
  };
}

function invalid(error: string, message: string) {
  return apiError('unauthorized', message, { 'WWW-Authenticate': `${REALM}, error="${error}"` });
}

