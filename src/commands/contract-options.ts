import { UsageError } from './usage-error.js';

/**
 * The base URL, checked: http(s), a host, no credentials (they would be printed in every report: the key goes in
 * --api-key, a gateway's in -H), no query or fragment (the runner appends paths and queries of its own). The
 * messages never echo the URL's secret-bearing parts.
 */
export function parseBaseUrl(value: string | undefined): string {
  if (!value) throw new UsageError('--base-url is required (the API base URL, e.g. http://127.0.0.1:4010/v1)');
  if (!/^https?:\/\/[^/]/i.test(value) || !URL.canParse(value))
    throw new UsageError(`--base-url must be an http(s) URL (got "${shown(value)}")`);
  const url = new URL(value);
  if (url.username || url.password)
    throw new UsageError(
      '--base-url must not carry credentials (user:password@): pass the key with --api-key and other credentials with -H; the URL is not shown',
    );
  if (value.includes('?') || value.includes('#')) {
    throw new UsageError(
      `--base-url must not have a query or fragment (got ${url.origin}${url.pathname} followed by ${value.includes('?') ? 'a query' : 'a fragment'}): the runner adds each operation's path and query`,
    );
  }
  return value.replace(/\/+$/, '');
}

/** RFC 6750 §2.1: a bearer token is a b64token; anything else cannot be sent, and is not echoed. */
export function checkApiKey(key: string): void {
  if (!key.trim()) throw new UsageError(`an API key is required: --api-key KEY or PETSTORE_API_KEY${pluralKeyHint()}`);
  // The scheme is the runner's to add: `--api-key 'Bearer abc'` would send `Bearer Bearer abc`.
  if (/^bearer\s/i.test(key.trim()))
    throw new UsageError(
      'the API key starts with "Bearer ": give the key alone (--api-key abc, not --api-key \'Bearer abc\'); the runner sends "Authorization: Bearer <key>" itself; the key is not shown',
    );
  // RFC 7617 §2: `user:password`, a Basic credential, visible ASCII, the user id without a colon.
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(key) && !/^[\x21-\x39\x3b-\x7e]+:[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(
      'the API key is not a bearer token (RFC 6750 §2.1: letters, digits, "-._~+/", then any "="; no spaces, newlines or control characters) nor user:password for HTTP Basic (RFC 7617); it is not shown',
    );
  }
}

/** PETSTORE_API_KEYS (the mock's list of accepted keys) set where PETSTORE_API_KEY was meant is a common slip. */
function pluralKeyHint(): string {
  const keys = process.env.PETSTORE_API_KEYS;
  if (!keys?.trim()) return '';
  return ` (PETSTORE_API_KEYS is set, but that is the mock's list of accepted keys; this command reads PETSTORE_API_KEY, one key: PETSTORE_API_KEY=${keys.includes(',') ? '<one of them>' : '"$PETSTORE_API_KEYS"'})`;
}

// Set by the runner itself, or framing that a header of the user's must not change.
const reserved = new Set([
  'authorization',
  'accept',
  'accept-encoding',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'host',
  'proxy-authorization',
]);

/** `-H 'Name: value'` → headers; a bad one is a UsageError naming the header (never its value). */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    // RFC 9110 §5.1: a field name is a token.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(
        `-H/--header must be 'Name: value' with a token as the name (got a header whose name is "${shown(name || line.slice(0, 20))}")`,
      );
    const value = line.slice(colon + 1).trim();
    // RFC 9110 §5.5: no CR, LF, NUL or other control characters in a field value.
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value) || /[^\u0000-\u00ff]/.test(value))
      throw new UsageError(
        `-H ${name}: the value has a control character or a newline (RFC 9110 §5.5); it is not shown`,
      );
    if (reserved.has(name.toLowerCase()))
      throw new UsageError(
        `-H ${name}: the runner sets this header itself${name.toLowerCase() === 'authorization' ? ' (the key goes in --api-key)' : ''}`,
      );
    headers[name] = value;
  }
  return headers;
}

/** The range of `--max-body`: at least 1 KiB, at most 256 MiB. */
export const MAX_BODY_RANGE = { min: 1024, max: 256 * 1024 * 1024 } as const;

/** `4194304`, `512KiB`, `4MiB` (also `k`, `m`, `KB`, `MB`, as 1024-based) → bytes, within MAX_BODY_RANGE. */
export function parseSize(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*(k|kb|kib|m|mb|mib)?$/i.exec(value.trim());
  const bytes = match
    ? Number(match[1]) * (match[2] ? (match[2][0]!.toLowerCase() === 'k' ? 1024 : 1024 * 1024) : 1)
    : NaN;
  if (!(bytes >= MAX_BODY_RANGE.min && bytes <= MAX_BODY_RANGE.max))
    throw new UsageError(
      `--${flag} must be a size from ${MAX_BODY_RANGE.min / 1024}KiB to ${MAX_BODY_RANGE.max / (1024 * 1024)}MiB, in bytes or with KiB/MiB (got "${shown(value)}")`,
    );
  return bytes;
}

function shown(text: string): string {
  return text.slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
}
