import { apiError } from '../../errors.js';
import { createKeyMatcher } from './match-key.js';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const REALM = 'Bearer realm="petstore"';

/** Why a credential was refused: the message of the 401 and its `WWW-Authenticate` challenge (RFC 9110 §11.6.1). */
export interface AuthFailure {
  /** No credential of this kind was sent at all (RFC 6750 §3.1: then the challenge carries no error code). */
  missing: boolean;
  message: string;
  challenge: string;
}

/**
 * Builds the bearer-key check (interface section 5), which throws the 401. The token is compared with every key in
 * constant time (match-key.ts). No message repeats a key. Keys and tokens are b64token (checked at start-up and
 * below), so ASCII.
 */
export function createAuthenticator(keys: readonly string[]) {
  const check = createBearerCheck(createKeyMatcher(keys));
  return function authenticate(header: string | undefined): void {
    const failure = check(header);
    if (failure) throw apiError('unauthorized', failure.message, { 'WWW-Authenticate': failure.challenge });
  };
}

/**
 * The bearer check without throwing: undefined when `Authorization: Bearer <token>` carries an accepted key, else
 * why not, so that a check of alternatives (authorize.ts) can weigh it against the others. `realm` is the
 * challenge without an error code: v1's `Bearer realm="petstore"`, or one naming the scopes an operation lists.
 */
export function createBearerCheck(matchKey: (token: string) => boolean, realm = REALM) {
  const invalid = (error: string, message: string): AuthFailure => ({
    missing: false,
    message,
    challenge: `${realm}, error="${error}"`,
  });
  return function checkBearer(header: string | undefined): AuthFailure | undefined {
    if (header === undefined || header.trim() === '') {
      // RFC 6750 §3.1: a request without credentials gets the challenge but no error code.
      return {
        missing: true,
        message: 'the Authorization header is missing; send "Authorization: Bearer <API key>"',
        challenge: realm,
      };
    }
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header : header.slice(0, space);
    // RFC 9110 §11.1: the auth scheme is case-insensitive.
    if (scheme.toLowerCase() !== 'bearer') {
      return invalid(
        'invalid_request',
        'the Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"',
      );
    }
    const token = space === -1 ? '' : header.slice(space + 1).trim();
    if (token === '')
      return invalid('invalid_request', 'the Authorization header has the Bearer scheme but no API key');
    if (!B64TOKEN.test(token))
      return invalid('invalid_request', 'the bearer token holds characters RFC 6750 does not allow');
    if (!matchKey(token)) return invalid('invalid_token', 'the API key is not valid');
    return undefined;
  };
}
