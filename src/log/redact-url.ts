/** What a redacted value is replaced with. */
export const REDACTED = '***';

// Query parameter names that carry credentials by convention (`?api_key=`, `?access_token=`, `?sig=`).
const SECRET_NAME = /key|token|secret|password|passwd|auth|session|signature|^sig$|credential/i;
// The same words anywhere in a query: a superset of SECRET_NAME, for the fast path.
const SECRET_WORD = /key|token|secret|password|passwd|auth|session|sig|credential/i;

/**
 * A request target safe to print: values of credential-like query parameters, and any configured key wherever it
 * appears, become `***`. A key must never reach a log (keys are compared as digests and never echoed; README,
 * Decisions).
 * @example redactUrl('/v1/pets?api_key=abc&limit=2', []) // '/v1/pets?api_key=***&limit=2'
 */
export function redactUrl(url: string, keys: readonly string[]): string {
  const safe = redactKeys(url, keys);
  const queryAt = safe.indexOf('?');
  if (queryAt === -1) return safe;
  // Most queries hold no escape and no credential-like word anywhere: then they are left as they are, unsplit.
  const raw = safe.slice(queryAt + 1);
  if (!raw.includes('%') && !SECRET_WORD.test(raw)) return safe;
  const query = raw
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return SECRET_NAME.test(decodeName(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safe.slice(0, queryAt)}?${query}`;
}

/**
 * Any text (a header value, a URL, an error message) with every configured key in it replaced by `***`: as written,
 * and as a server decodes it, so a key partly or wholly percent-encoded (`abc%2Fdef%3D` for `abc/def=`), even
 * across `/`, `?`, `&` or `=`, is found too; the whole written span of each occurrence is replaced.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  let safe = text;
  for (const key of keys) if (key && safe.includes(key)) safe = safe.split(key).join(REDACTED);
  return safe.includes('%') ? redactEncoded(safe, keys) : safe;
}

/** Finds keys in the percent-decoded text (one char per escape; keys are ASCII) and redacts their written spans. */
function redactEncoded(text: string, keys: readonly string[]): string {
  let decoded = '';
  const starts: number[] = [];
  for (let i = 0; i < text.length; ) {
    starts.push(i);
    if (text.charCodeAt(i) === 0x25 && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      decoded += String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      decoded += text[i];
      i += 1;
    }
  }
  starts.push(text.length);
  const spans: [number, number][] = [];
  for (const key of keys) {
    if (!key) continue;
    for (let at = decoded.indexOf(key); at !== -1; at = decoded.indexOf(key, at + 1)) spans.push([starts[at]!, starts[at + key.length]!]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    result += text.slice(from, Math.max(from, start)) + (start >= from ? REDACTED : '');
    from = end;
  }
  return result + text.slice(from);
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
