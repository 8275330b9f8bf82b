import type { Operation } from '../../openapi/operations.js';
import type { RequiredScheme, SecurityRequirement } from '../../openapi/security.js';

/**
 * What a request carries as credentials, place by place: the `Authorization` header, apiKey headers (a null value
 * leaves out a header the run would otherwise send, such as one given with -H), query parameters and cookies.
 */
export interface SentCredentials {
  authorization: string | null;
  headers: Record<string, string | null>;
  query: Record<string, string>;
  cookies: Record<string, string | null>;
}

/** What the sender needs of the run's configuration: the key, and the -H headers (names in lower case). */
export interface KeySource {
  apiKey: string;
  headers: Readonly<Record<string, string>>;
}

/** No credentials at all. */
export function noCredentials(): SentCredentials {
  return { authorization: null, headers: {}, query: {}, cookies: {} };
}

/** A key written `user:password` (RFC 7617 §2): a Basic credential, which no other scheme can send. */
export function isBasicKey(key: string): boolean {
  return /^[^:]+:./.test(key) && !/^[A-Za-z0-9\-._~+/]+=*$/.test(key);
}

/**
 * Why a `user:password` key cannot serve the document, or undefined: an operation whose every requirement the
 * runner can send needs a scheme other than Basic, which takes a token.
 */
export function basicKeyMisfit(operations: readonly Operation[], key: string): string | undefined {
  if (!isBasicKey(key)) return undefined;
  for (const operation of operations) {
    const requirement = chosenRequirement(operation, key);
    const other = requirement?.find((r) => r.scheme.kind !== 'basic' && sendable(r));
    if (other && !operation.security.anonymous)
      return `the API key is user:password, an HTTP Basic credential (RFC 7617), but ${operation.id} requires the scheme "${other.scheme.name}", which takes a token: give a key that is a token (it is not shown)`;
  }
  return undefined;
}

/** Whether the runner can send a scheme at all: not mutualTLS, nor an HTTP scheme that answers a challenge. */
export function sendable({ scheme }: RequiredScheme): boolean {
  return scheme.kind !== 'unenforced';
}

/**
 * The requirement whose credentials the runner sends for an operation: the first alternative (OpenAPI §4.8.30, any
 * one satisfies) whose every scheme the key can be sent as (a `user:password` key only as Basic, any other key as
 * anything), else the first it can send whole, else the first with a scheme it can send (mutualTLS beside an apiKey:
 * the apiKey is sent, the certificate is TLS's business). Undefined when nothing is required or nothing can be sent;
 * an empty requirement (`{}`) is passed over while another can be sent, so that a target is asked as a client with a
 * key would ask it.
 */
export function chosenRequirement(operation: Operation, key: string): SecurityRequirement | undefined {
  const alternatives = operation.security.alternatives.filter((a) => a.length > 0);
  const whole = alternatives.filter((a) => a.every(sendable) && authorizationClash(a, key) === undefined);
  const basicKey = isBasicKey(key);
  const fits = (a: SecurityRequirement) => !basicKey || a.every((r) => r.scheme.kind === 'basic');
  return whole.find(fits) ?? whole[0] ?? alternatives.find((a) => a.some(sendable));
}

/**
 * True when a request with the run's valid credentials must be served as far as security goes: nothing is required,
 * an empty requirement allows it, or the chosen requirement is sent whole. False when the operation needs what the
 * runner cannot send (mutualTLS): a 401 is then not the target's fault.
 */
export function sendsValidCredentials(operation: Operation, key: string): boolean {
  const { alternatives } = operation.security;
  if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return true;
  const chosen = chosenRequirement(operation, key);
  return chosen?.every(sendable) === true && authorizationClash(chosen, key) === undefined;
}

/**
 * Why no request can carry the valid credentials of `operation`, in the document's terms, or undefined: every one
 * of its requirements (OpenAPI 3.0.3 §4.7.30: a requirement naming several schemes "all schemes MUST be satisfied") puts two different
 * credentials in `Authorization` (Basic and Bearer: readme's security-multiple.yaml, `apiKey_header`, `basic` and
 * `oauth2` in one requirement), and a request has one: RFC 9110 §11.6.2, `Authorization = credentials`, one value,
 * which §5.3 does not let a sender repeat (it is not a list).
 */
export function unsendableSecurity(operation: Operation, key: string): string | undefined {
  const { alternatives } = operation.security;
  if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) return undefined;
  const clashes = alternatives.map((a) => authorizationClash(a, key));
  if (clashes.some((clash) => clash === undefined)) return undefined;
  return `its security requirement${alternatives.length === 1 ? ' needs' : 's each need'} two credentials in the one Authorization header a request has (${clashes.join('; ')}; RFC 9110 §11.6.2)`;
}

/** The schemes of a requirement that need different `Authorization` values (`Basic (basic) and Bearer (oauth2)`). */
function authorizationClash(requirement: SecurityRequirement, key: string): string | undefined {
  const byValue = new Map<string, string[]>();
  for (const required of requirement) {
    const value = credentialOf(required, { apiKey: key, headers: {} }).authorization;
    if (!value) continue;
    // RFC 9110 §11.1: the scheme word is case-insensitive; bearer, oauth2 and openIdConnect all send `Bearer <key>`.
    const [word = '', ...rest] = value.split(' ');
    const normal = `${word.toLowerCase()} ${rest.join(' ')}`;
    byValue.set(normal, [...(byValue.get(normal) ?? []), `${word} (${required.scheme.name})`]);
  }
  if (byValue.size < 2) return undefined;
  return [...byValue.values()].map((names) => names[0]).join(' and ');
}

/**
 * The valid credentials of an operation, as each scheme of its chosen requirement says: `Authorization: Bearer
 * <key>` (http bearer, oauth2, openIdConnect; RFC 6750 §2.1), `<Scheme> <key>` for another token scheme, `Basic`
 * (RFC 7617), and an apiKey as the whole value of its header, query parameter or cookie. A header or cookie given
 * with -H is left to -H (it is sent with every request). `authScheme`: the Bearer word as a generated case writes
 * it (RFC 9110 §11.1: case-insensitive).
 */
export function validCredentials(operation: Operation, source: KeySource, authScheme = 'Bearer'): SentCredentials {
  const requirement = chosenRequirement(operation, source.apiKey);
  // Nothing to send (a public operation, or one needing mutualTLS): the key as a bearer token, as the runner always
  // sent it; an operation that requires nothing ignores it.
  if (!requirement) {
    const key = source.apiKey;
    return { ...noCredentials(), authorization: isBasicKey(key) ? basicAuthorization(key) : `${authScheme} ${key}` };
  }
  let sent = noCredentials();
  for (const required of requirement) sent = mergeCredentials(sent, credentialOf(required, source, authScheme));
  return sent;
}

/**
 * The valid credential of one scheme alone. An apiKey header or cookie given with -H is left to -H, or, when
 * `explicit`, given here as -H has it (for a request that leaves out the other -H credentials).
 */
export function credentialOf(
  { scheme }: RequiredScheme,
  source: KeySource,
  authScheme = 'Bearer',
  explicit = false,
): Partial<SentCredentials> {
  const key = source.apiKey;
  switch (scheme.kind) {
    case 'bearer':
      return { authorization: `${authScheme} ${key}` };
    case 'token':
      return { authorization: `${scheme.authScheme} ${key}` };
    case 'basic':
      return { authorization: basicAuthorization(key) };
    case 'apiKey': {
      const name = scheme.parameter;
      if (scheme.in === 'query') return { query: { [name]: key } };
      if (scheme.in === 'header') {
        const given = source.headers[name.toLowerCase()];
        return given === undefined ? { headers: { [name]: key } } : explicit ? { headers: { [name]: given } } : {};
      }
      const given = fromHeaderCookie(source, name);
      return given === undefined ? { cookies: { [name]: key } } : explicit ? { cookies: { [name]: given } } : {};
    }
    case 'unenforced':
      return {};
  }
}

/**
 * `Authorization: Basic base64(user-id ":" password)` (RFC 7617 §2): a `user:password` key as it is, any other key
 * as the password of an empty user id (the mock takes any user name; a real target wants `--api-key user:password`).
 */
export function basicAuthorization(key: string, password?: string): string {
  const pair = password !== undefined ? `${key}:${password}` : isBasicKey(key) ? key : `:${key}`;
  return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
}

/** `b` over `a`, place by place. */
export function mergeCredentials(a: SentCredentials, b: Partial<SentCredentials>): SentCredentials {
  return {
    authorization: b.authorization !== undefined ? b.authorization : a.authorization,
    headers: { ...a.headers, ...b.headers },
    query: { ...a.query, ...b.query },
    cookies: { ...a.cookies, ...b.cookies },
  };
}

/**
 * The credentials' headers and cookies into the request's headers (names in lower case): a null value leaves out
 * a header or cookie -H would send; cookies join any -H `Cookie` (RFC 6265 §5.4: one header, pairs joined by `; `).
 */
export function applyCredentialHeaders(headers: Record<string, string>, credentials: SentCredentials): void {
  if (credentials.authorization !== null) headers.authorization = credentials.authorization;
  for (const [name, value] of Object.entries(credentials.headers)) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const cookies = Object.entries(credentials.cookies);
  if (cookies.length === 0) return;
  const named = new Set(cookies.map(([name]) => name));
  const kept = (headers.cookie ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !named.has(pair.slice(0, Math.max(0, pair.indexOf('='))).trim()));
  const sent = cookies.filter(([, value]) => value !== null).map(([name, value]) => `${name}=${value}`);
  const joined = [...kept, ...sent].join('; ');
  if (joined) headers.cookie = joined;
  else delete headers.cookie;
}

/**
 * The query with the credentials' parameters after the probe's own: the value percent-encoded but for the
 * characters a query may hold as they are (RFC 3986 §3.4: "/", "=", ":"), so that a b64token key goes out as
 * written except its "+", sent as %2B, which form decoding would read as a space.
 */
export function withCredentialQuery(query: string, credentials: Record<string, string>): string {
  const pairs = Object.entries(credentials).map(
    ([name, value]) =>
      `${encodeURIComponent(name)}=${encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3D/gi, '=').replace(/%3A/gi, ':')}`,
  );
  return [query, ...pairs].filter(Boolean).join('&');
}

/** The value of a cookie in a `Cookie` header given with -H, if any (RFC 6265 §5.4). */
function fromHeaderCookie(source: KeySource, name: string): string | undefined {
  for (const pair of (source.headers.cookie ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/**
 * Whether `sent` holds the valid credential of every scheme of `requirement`, as the target would read it: the
 * check that a request meant to be refused satisfies no alternative of its operation by accident (an apiKey header
 * two requirements share, a bearer token oauth2 and http bearer both take).
 */
export function satisfies(sent: SentCredentials, requirement: SecurityRequirement, source: KeySource): boolean {
  return requirement.every((required) => {
    const valid = credentialOf(required, source);
    if (required.scheme.kind === 'unenforced') return false;
    if (required.scheme.kind !== 'apiKey') return sameAuthorization(sent.authorization, valid.authorization);
    const { in: where, parameter } = required.scheme;
    if (where === 'query') return sent.query[parameter] === source.apiKey;
    if (where === 'header') {
      const given = source.headers[parameter.toLowerCase()];
      const value = parameter in sent.headers ? sent.headers[parameter] : given;
      return value === (given ?? source.apiKey);
    }
    const given = fromHeaderCookie(source, parameter);
    const value = parameter in sent.cookies ? sent.cookies[parameter] : given;
    return value === (given ?? source.apiKey);
  });
}

/** Two Authorization values the same credential: the scheme word compared without case (RFC 9110 §11.1). */
function sameAuthorization(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const [schemeA = '', ...restA] = a.split(' ');
  const [schemeB = '', ...restB] = b.split(' ');
  return schemeA.toLowerCase() === schemeB.toLowerCase() && restA.join(' ') === restB.join(' ');
}
