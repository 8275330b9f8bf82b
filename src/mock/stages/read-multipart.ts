import { apiError } from '../../errors.js';
import { bytesText } from '../base/bytes-text.js';
import { essenceOf, kindOf } from '../../openapi/body-media.js';
import type { FormField } from './form-object.js';
import { quote } from './read-form.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ASCII = new TextEncoder();
const CRLF = ASCII.encode('\r\n');
const HEADERS_END = ASCII.encode('\r\n\r\n');

/**
 * The parts of a `multipart/form-data` body (RFC 7578; RFC 2046 §5.1.1 for the boundary), read from bytes already
 * bounded by the body size limit: each part's `Content-Disposition` name, its own `Content-Type`, and its content
 * as text (a field, or a file that is UTF-8) or as a binary string (any other file, bytes-text.ts). A body that is
 * not well formed (no boundary, a part without a name, no closing delimiter: a truncated upload) is a 400 saying
 * what is wrong; nothing of it is kept.
 */
export function readMultipart(raw: Uint8Array, contentType: string): FormField[] {
  const boundary = boundaryOf(contentType);
  const delimiter = ASCII.encode(`--${boundary}`);
  // The first delimiter starts the body or follows a preamble's CRLF (RFC 2046 §5.1.1); the others follow a CRLF.
  let at = startsWith(raw, delimiter, 0) ? 0 : indexOf(raw, ASCII.encode(`\r\n--${boundary}`), 0) + 2;
  if (at === 1) throw malformed(`it has no delimiter line "--${boundary}" of its boundary`);
  const between = ASCII.encode(`\r\n--${boundary}`);
  const fields: FormField[] = [];
  for (;;) {
    at += delimiter.length;
    if (raw[at] === 0x2d && raw[at + 1] === 0x2d) return fields; // "--": the close delimiter
    // Transport padding (linear white space) may follow a delimiter before its CRLF.
    while (raw[at] === 0x20 || raw[at] === 0x09) at++;
    if (!startsWith(raw, CRLF, at)) {
      throw malformed(
        at >= raw.length
          ? 'it ends before its closing delimiter (a truncated upload?)'
          : 'a delimiter line is not followed by CRLF',
      );
    }
    const start = at + 2;
    const end = indexOf(raw, between, start);
    if (end === -1)
      throw malformed(
        `part ${fields.length + 1} ends before the closing delimiter "--${boundary}--" (a truncated upload?)`,
      );
    fields.push(readPart(raw.subarray(start, end), fields.length + 1));
    at = end + 2;
  }
}

/** One part: its headers (up to the blank line) and content. */
function readPart(part: Uint8Array, index: number): FormField {
  const split = startsWith(part, CRLF, 0) ? 0 : indexOf(part, HEADERS_END, 0);
  if (split === -1) throw malformed(`part ${index}'s headers do not end in a blank line`);
  const headers = split === 0 ? [] : bytesText(part.subarray(0, split)).split('\r\n');
  const content = part.subarray(split + (split === 0 ? 2 : 4));
  let disposition: string | undefined;
  let type: string | undefined;
  for (const line of headers) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === 'content-disposition') disposition = line.slice(colon + 1);
    else if (name === 'content-type') type = line.slice(colon + 1).trim();
  }
  const parameters = disposition === undefined ? undefined : dispositionParameters(disposition);
  const name = parameters?.get('name');
  // RFC 7578 §4.2: each part has a Content-Disposition of form-data whose name parameter names the field.
  if (name === undefined)
    throw malformed(`part ${index} has no Content-Disposition: form-data with a name (RFC 7578 §4.2)`);
  const file = parameters!.has('filename') || parameters!.has('filename*');
  const kind = type === undefined ? undefined : kindOf(essenceOf(type));
  // A field (no file name, text or JSON) is UTF-8 text (RFC 7578 §5.1); a file is kept as whatever it is.
  const text = !file && (type === undefined || kind === 'json' || essenceOf(type).startsWith('text/'));
  if (!text) return { name, value: bytesText(content), type };
  try {
    return { name, value: UTF8.decode(content), type };
  } catch {
    throw apiError('invalid_body', `the multipart body's part ${quote(name)} is not UTF-8 text (RFC 7578 §5.1)`);
  }
}

/** `boundary=` of the Content-Type, quoted or not: 1 to 70 characters (RFC 2046 §5.1.1). */
function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^;\s]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined)
    throw apiError(
      'invalid_body',
      'Content-Type multipart/form-data needs a boundary parameter of 1 to 70 characters (RFC 2046 §5.1.1)',
    );
  return boundary;
}

/** `form-data; name="file"; filename="a.png"` → name, filename (lower-cased keys, unquoted values). */
function dispositionParameters(value: string): Map<string, string> | undefined {
  const [kind, ...rest] = value.split(';');
  if (kind!.trim().toLowerCase() !== 'form-data') return undefined;
  const parameters = new Map<string, string>();
  for (const match of rest.join(';').matchAll(/\s*([^=;\s]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]*)\s*;?/g)) {
    const quoted = match[3];
    parameters.set(match[1]!.toLowerCase(), quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : match[2]!.trim());
  }
  return parameters;
}

function malformed(what: string) {
  return apiError('invalid_body', `the multipart body is not well formed: ${what} (RFC 2046 §5.1.1, RFC 7578)`);
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Where `needle` first occurs in `bytes` from `from`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  for (
    let at = bytes.indexOf(first!, from);
    at !== -1 && at + needle.length <= bytes.length;
    at = bytes.indexOf(first!, at + 1)
  )
    if (startsWith(bytes, needle, at)) return at;
  return -1;
}
