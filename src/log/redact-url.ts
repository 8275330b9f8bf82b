import { REDACTED, redactSecrets } from '../redact/redact-secrets.js';

export { REDACTED };

// Query parameter names that carry credentials by convention (`?api_key=`, `?access_token=`, `?sig=`).
const SECRET_NAME = /key|token|secret|password|passwd|auth|session|signature|^sig$|credential/i;
// The same words anywhere in a query: a superset of SECRET_NAME, for the fast path.
const SECRET_WORD = /key|token|secret|password|passwd|auth|session|sig|credential/i;

/**
 * A request target safe to print: values of credential-like query parameters (and of those named in `secretNames`,
 * a document's apiKey query parameters), and any configured key wherever it appears, become `***`. A key must never reach a log (keys are compared as digests and never echoed;
 * docs/decisions.md).
 * @example redactUrl('/v1/pets?api_key=abc&limit=2', []) // '/v1/pets?api_key=***&limit=2'
 */
export function redactUrl(url: string, keys: readonly string[], secretNames: readonly string[] = []): string {
  const safe = redactKeys(url, keys);
  const queryAt = safe.indexOf('?');
  if (queryAt === -1) return safe;
  // Most queries hold no escape and no credential-like word anywhere: then they are left as they are, unsplit.
  const raw = safe.slice(queryAt + 1);
  if (!raw.includes('%') && !SECRET_WORD.test(raw) && secretNames.length === 0) return safe;
  const query = raw
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = decodeName(pair.slice(0, equals));
      return SECRET_NAME.test(name) || secretNames.includes(name) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safe.slice(0, queryAt)}?${query}`;
}

/**
 * Any text (a header value, a URL, an error message) with every configured key in it replaced by `***`, in every
 * encoding a client or server can echo it in (as written, percent-encoded even across `/`, `?`, `&` or `=`,
 * JSON-escaped, base64): the project's one redactor (src/redact/redact-secrets.ts), so the request log, the
 * journal, the proxy and the contract runner mask alike. Keys too short to tell from ordinary text are masked as
 * written and percent-encoded only: what a server logs is a target a client wrote, and a key in it must not leak.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  return redactSecrets(text, keys, { shortSecrets: 'as-written' });
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
