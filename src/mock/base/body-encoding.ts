import { apiError } from '../../errors.js';

/**
 * The checks on how a body is encoded, made from its headers before a byte of it is read (and before
 * `100 Continue` is sent), so that a body the mock cannot take is never uploaded:
 * - `Content-Encoding` other than `identity` → 415 with `Accept-Encoding: identity` (RFC 7694 §3). The mock does
 *   not decompress: a compressed body of 1 MiB can expand to gigabytes, and no client of this API needs it.
 * - a `charset` other than UTF-8 → 415 for a JSON body (`json`): JSON exchanged between systems must be UTF-8
 *   (RFC 8259 §8.1), and decoding `latin1` or `utf-16` as UTF-8 would store something the client never sent. (A
 *   form's is checked by its reader, body-readers.ts.)
 */
export function checkBodyEncoding(headers: Record<string, string | string[] | undefined>, json = true): void {
  const encoding = headerText(headers['content-encoding']);
  if (encoding !== undefined) {
    const codings = encoding
      .split(',')
      .map((coding) => coding.trim().toLowerCase())
      .filter(Boolean);
    const other = codings.find((coding) => coding !== 'identity');
    if (other !== undefined) {
      throw apiError(
        'unsupported_media_type',
        `Content-Encoding ${quote(other)} is not supported: send the body uncompressed (Content-Encoding: identity or none)`,
        {
          'Accept-Encoding': 'identity',
        },
      );
    }
  }
  if (!json) return;
  const charset = charsetOf(headerText(headers['content-type']));
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw apiError(
      'unsupported_media_type',
      `Content-Type charset ${quote(charset)} is not supported: JSON bodies must be UTF-8 (RFC 8259 §8.1)`,
    );
  }
}

/** The `charset` parameter of a media type, lower-cased and unquoted; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !contentType.includes(';')) return undefined;
  for (const parameter of contentType.split(';').slice(1)) {
    const equals = parameter.indexOf('=');
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    return parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return undefined;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A client's value in a message, quoted and cut short. */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
