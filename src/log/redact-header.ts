import { redactKeys } from './redact-url.js';

/** What a credential is replaced with in a header. */
export const REDACTED_CREDENTIAL = '[redacted]';

// Authentication schemes (the IANA HTTP Authentication Scheme Registry, and a few in common use): the one word
// of an Authorization value that is kept, so a reader still sees *how* a client authenticated.
const SCHEMES = new Map(
  [
    'Basic',
    'Bearer',
    'Digest',
    'DPoP',
    'GNAP',
    'HOBA',
    'Mutual',
    'Negotiate',
    'NTLM',
    'OAuth',
    'PrivateToken',
    'SCRAM-SHA-1',
    'SCRAM-SHA-256',
    'vapid',
    'AWS4-HMAC-SHA256',
    'Token',
    'ApiKey',
    'Concealed',
  ].map((scheme) => [scheme.toLowerCase(), scheme]),
);
// Headers that carry credentials by their nature or by name (`X-Api-Key`, `X-Auth-Token`, `X-CSRF-Token`).
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const CREDENTIAL_NAME = /key|token|secret|passw|auth|session|signature|credential|cookie/i;

/**
 * A request header's value safe to show (the journal): `Authorization` and `Proxy-Authorization` keep their scheme
 * word only when it is a known scheme (`Bearer [redacted]`; `KEY please` → `[redacted]`, since an unknown first
 * word may be the key itself); `Cookie`, any header named like a credential and those in `secretHeaders` (lower
 * case: a document's apiKey headers) become `[redacted]` whole; every other header has any configured key redacted, as written or percent-encoded.
 * @example redactHeader('authorization', 'Bearer s3cret', []) // 'Bearer [redacted]'
 */
export function redactHeader(
  name: string,
  value: string | string[],
  keys: readonly string[],
  secretHeaders: readonly string[] = [],
): string | string[] {
  if (Array.isArray(value)) return value.map((one) => redactHeader(name, one, keys, secretHeaders) as string);
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return redactAuthorization(value);
  if (CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_NAME.test(lower) || secretHeaders.includes(lower))
    return REDACTED_CREDENTIAL;
  return redactKeys(value, keys);
}

function redactAuthorization(value: string): string {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  const scheme = SCHEMES.get((space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase());
  if (!scheme) return REDACTED_CREDENTIAL;
  return space === -1 ? scheme : `${scheme} ${REDACTED_CREDENTIAL}`;
}
