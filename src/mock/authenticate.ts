import { createHash, timingSafeEqual } from 'node:crypto';
import { apiError } from '../errors.js';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const REALM = 'Bearer realm="petstore"';

/**
 * Builds the bearer-key check (interface section 5). Keys are compared as SHA-256 digests with
 * `timingSafeEqual`, so neither a key's content nor its length leaks through timing; no message repeats a key.
 */
export function createAuthenticator(keys: readonly string[]) {
  const digests = keys.map(digest);

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
    const candidate = digest(token);
    let known = false;
    // Compare with every key, not stopping at a match, so the time taken does not say which key matched.
    for (const key of digests) known = timingSafeEqual(key, candidate) || known;
    if (!known) throw invalid('invalid_token', 'the API key is not valid');
  };
}

function invalid(error: string, message: string) {
  return apiError('unauthorized', message, { 'WWW-Authenticate': `${REALM}, error="${error}"` });
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
