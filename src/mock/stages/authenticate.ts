import { apiError } from '../../errors.js';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const REALM = 'Bearer realm="petstore"';

/**
 * Builds the bearer-key check (interface section 5). The token is compared with every key in constant time over a
 * fixed width (the longest key's), lengths compared apart, so neither a key's content nor its length shows in the
 * timing; this costs a fraction of hashing both sides, which took 3–5 % of a request. No message repeats a key.
 * Keys and tokens are b64token (checked at start-up and below), so ASCII: one byte a character, no encoder needed,
 * and no `node:crypto`, so that the browser build runs the same check.
 */
export function createAuthenticator(keys: readonly string[]) {
  const width = Math.max(1, ...keys.map((key) => key.length));
  const padded = keys.map((key) => ({ bytes: asciiBytes(key, width), length: key.length }));
  // One scratch array: the check is synchronous, so no two requests ever use it at once.
  const candidate = new Uint8Array(width);

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
      throw invalid(
        'invalid_request',
        'the Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"',
      );
    }
    const token = space === -1 ? '' : header.slice(space + 1).trim();
    if (token === '') throw invalid('invalid_request', 'the Authorization header has the Bearer scheme but no API key');
    if (!B64TOKEN.test(token))
      throw invalid('invalid_request', 'the bearer token holds characters RFC 6750 does not allow');
    // The token is b64token syntax, so ASCII: one byte a character. Longer than every key, it is cut to the width
    // (and fails on length); the time taken depends on the token, which the client knows, and the fixed width.
    for (let i = 0; i < width; i++) candidate[i] = i < token.length ? token.charCodeAt(i) : 0;
    let known = 0;
    // Compare with every key, not stopping at a match and without branches, so the time does not say which matched.
    for (const key of padded) known |= sameBytes(key.bytes, candidate) & Number(key.length === token.length);
    if (!known) throw invalid('invalid_token', 'the API key is not valid');
  };
}

function asciiBytes(text: string, width: number): Uint8Array {
  const bytes = new Uint8Array(width);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** 1 when two arrays of the same length are equal, else 0; every byte is looked at whatever the first difference. */
function sameBytes(a: Uint8Array, b: Uint8Array): number {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return Number(difference === 0);
}

function invalid(error: string, message: string) {
  return apiError('unauthorized', message, { 'WWW-Authenticate': `${REALM}, error="${error}"` });
}
