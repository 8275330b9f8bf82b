import type { RequestHeaders } from '../mock-request.js';

/** What of a request carries credentials: its headers and its query string (without `?`). */
export interface CredentialSource {
  headers: RequestHeaders;
  search: string;
}

/** A header's value (RFC 9110 §5.1: names are case-insensitive; Node gives them in lower case). */
export function headerValue(source: CredentialSource, lowerName: string): string | undefined {
  const value = source.headers[lowerName];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The first value of a query parameter, percent-decoded (RFC 3986 §2.1). A `+` stays a `+`: no key holds a space,
 * and a key with a `+` (a b64token may have one) typed into a URL by hand must still match. Names are read as
 * URLSearchParams reads them, as the parameters stage does. Undefined when the parameter is absent.
 */
export function queryValue(source: CredentialSource, name: string): string | undefined {
  if (source.search === '') return undefined;
  for (const pair of source.search.split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    if (decode(rawName.replace(/\+/g, ' ')) !== name) continue;
    return equals === -1 ? '' : decode(pair.slice(equals + 1));
  }
  return undefined;
}

/**
 * The value of a cookie of the `Cookie` header (RFC 6265 §5.4: `name=value` pairs separated by `;`; §4.1.1: a value
 * may be in double quotes). Names are case-sensitive. The first pair of that name wins. Undefined when absent.
 */
export function cookieValue(source: CredentialSource, name: string): string | undefined {
  const header = headerValue(source, 'cookie');
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape is not a key: compared as written, it fails like any wrong value.
    return text;
  }
}
