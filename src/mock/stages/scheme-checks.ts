import type { ApiKeyScheme, RequiredScheme } from '../../openapi/security.js';
import { challengeOf } from './challenges.js';
import { B64TOKEN, createBearerCheck, type AuthFailure } from './authenticate.js';
import { cookieValue, headerValue, queryValue, type CredentialSource } from './read-credential.js';
import { createKeyMatcher } from './match-key.js';

/** The accepted keys as the checks compare them, built once for the mock's life (runtime.ts). */
export interface KeyMatchers {
  /** A key sent whole: a bearer or other token, an apiKey value. */
  matchKey: (candidate: string) => boolean;
  /** A Basic `user:password` (RFC 7617): see createKeyMatchers for what is accepted. */
  matchBasic: (user: string, password: string) => boolean;
}

/**
 * The matchers of the configured keys. A key that is a b64token (RFC 6750 §2.1) is sent whole: as a bearer or other
 * token, as an apiKey's value, and as a Basic password with any user name (`curl -u me:KEY`). A key written
 * `user:password` is a Basic credential only, for that user alone. Both tests always run, so the time taken does
 * not say which kind of key matched.
 * @example createKeyMatchers(['k3y', 'alice:s3cret']).matchBasic('alice', 's3cret') // true
 */
export function createKeyMatchers(keys: readonly string[]): KeyMatchers {
  const tokens = keys.filter((key) => B64TOKEN.test(key));
  const pairs = keys.filter((key) => !B64TOKEN.test(key));
  const matchKey = createKeyMatcher(tokens);
  const matchPair = createKeyMatcher(pairs);
  return {
    matchKey,
    matchBasic: (user, password) => (Number(matchKey(password)) | Number(matchPair(`${user}:${password}`))) === 1,
  };
}

/** The check of one scheme of a requirement, and what a client is told to send for it. */
export interface SchemeCheck {
  /** Undefined when the request carries a valid credential for the scheme. */
  check: (source: CredentialSource) => AuthFailure | undefined;
  /** `"X-API-Key: <API key>"`: how to send it, for a message. */
  how: string;
  /** The scheme's challenge without an error (RFC 9110 §11.6.1), for `WWW-Authenticate`. */
  challenge: string;
}

/** The check of one scheme (never an unenforced one: those are left out of a requirement before). */
export function schemeCheck(required: RequiredScheme, keys: KeyMatchers): SchemeCheck {
  const { scheme } = required;
  const challenge = challengeOf(required);
  switch (scheme.kind) {
    case 'bearer': {
      const checkBearer = createBearerCheck(keys.matchKey, challenge);
      return {
        check: (source) => checkBearer(headerValue(source, 'authorization')),
        how: '"Authorization: Bearer <API key>"',
        challenge,
      };
    }
    case 'token':
      return {
        check: tokenCheck(scheme.authScheme, keys.matchKey, challenge),
        how: `"Authorization: ${scheme.authScheme} <API key>"`,
        challenge,
      };
    case 'basic':
      return {
        check: basicCheck(keys.matchBasic, challenge),
        how: '"Authorization: Basic <base64 of user:API key>"',
        challenge,
      };
    case 'apiKey':
      return apiKeyCheck(scheme, keys.matchKey, challenge);
    case 'unenforced':
      throw new Error(`scheme ${scheme.name} is not enforced`);
  }
}

/** An apiKey credential (OpenAPI §4.8.27): the key is the whole value of the header, query parameter or cookie. */
function apiKeyCheck(scheme: ApiKeyScheme, matchKey: (candidate: string) => boolean, challenge: string): SchemeCheck {
  const { parameter } = scheme;
  const place = {
    header: { where: `the header ${parameter}`, how: `"${parameter}: <API key>"` },
    query: { where: `the query parameter ${parameter}`, how: `"?${parameter}=<API key>"` },
    cookie: { where: `the cookie ${parameter}`, how: `"Cookie: ${parameter}=<API key>"` },
  }[scheme.in];
  const lower = parameter.toLowerCase();
  const read =
    scheme.in === 'header'
      ? (source: CredentialSource) => headerValue(source, lower)
      : scheme.in === 'query'
        ? (source: CredentialSource) => queryValue(source, parameter)
        : (source: CredentialSource) => cookieValue(source, parameter);
  const refused = (missing: boolean, message: string): AuthFailure => ({ missing, message, challenge });
  return {
    how: place.how,
    challenge,
    check(source) {
      const value = read(source);
      if (value === undefined) return refused(true, `${place.where} is missing; send ${place.how}`);
      if (value.trim() === '') return refused(false, `${place.where} is empty; send ${place.how}`);
      if (!matchKey(value)) return refused(false, `the API key in ${place.where} is not valid`);
      return undefined;
    },
  };
}

/** Another HTTP scheme with one token68 (RFC 9110 §11.4), `Authorization: Token <key>`: like Bearer, in its words. */
function tokenCheck(authScheme: string, matchKey: (candidate: string) => boolean, challenge: string) {
  const how = `"Authorization: ${authScheme} <API key>"`;
  const refused = (missing: boolean, message: string): AuthFailure => ({ missing, message, challenge });
  return function checkToken(source: CredentialSource): AuthFailure | undefined {
    const header = headerValue(source, 'authorization');
    if (header === undefined || header.trim() === '')
      return refused(true, `the Authorization header is missing; send ${how}`);
    const [scheme = '', ...rest] = header.trim().split(/\s+/);
    // RFC 9110 §11.1: the auth scheme is case-insensitive.
    if (scheme.toLowerCase() !== authScheme.toLowerCase())
      return refused(false, `the Authorization header must use the ${authScheme} scheme: ${how}`);
    const token = rest.join(' ');
    if (token === '') return refused(false, `the Authorization header has the ${authScheme} scheme but no API key`);
    if (!B64TOKEN.test(token))
      return refused(false, `the ${authScheme} credential holds characters a token68 does not allow (RFC 9110 §11.4)`);
    if (!matchKey(token)) return refused(false, 'the API key is not valid');
    return undefined;
  };
}

/** HTTP Basic (RFC 7617): `Authorization: Basic base64(user-id ":" password)`, UTF-8 (§2.1 charset). */
function basicCheck(matchBasic: (user: string, password: string) => boolean, challenge: string) {
  const how = '"Authorization: Basic <base64 of user:API key>"';
  const refused = (missing: boolean, message: string): AuthFailure => ({
    missing,
    message,
    challenge,
  });
  return function checkBasic(source: CredentialSource): AuthFailure | undefined {
    const header = headerValue(source, 'authorization');
    if (header === undefined || header.trim() === '')
      return refused(true, `the Authorization header is missing; send ${how}`);
    const [scheme = '', token = '', ...more] = header.trim().split(/\s+/);
    if (scheme.toLowerCase() !== 'basic')
      return refused(false, `the Authorization header must use the Basic scheme: ${how}`);
    if (token === '') return refused(false, 'the Authorization header has the Basic scheme but no credentials');
    const decoded = more.length === 0 ? decodeBasic(token) : undefined;
    const colon = decoded === undefined ? -1 : decoded.indexOf(':');
    if (colon === -1) return refused(false, 'the Basic credentials are not the base64 of user:password (RFC 7617)');
    if (!matchBasic(decoded!.slice(0, colon), decoded!.slice(colon + 1)))
      return refused(false, 'the user name and password are not valid');
    return undefined;
  };
}

/** base64 (RFC 4648 §4) → UTF-8 text; undefined when it is neither. No Buffer: the browser build runs this. */
function decodeBasic(token: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
  try {
    const binary = atob(token);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
