import { apiError } from '../../errors.js';
import type { FormField } from './form-object.js';

// fatal: a form is UTF-8 (WHATWG URL §5.1); a byte sequence that is not is refused, not read as U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The fields of an `application/x-www-form-urlencoded` body (WHATWG URL §5.1; OAS 3.0.3 §4.7.14, "Support for
 * x-www-form-urlencoded Request Bodies"): `name=value` pairs joined by `&`, `+` for a space, percent-encoded UTF-8.
 * Stricter than URLSearchParams, which keeps a stray `%` as it is and a bad byte as U+FFFD: a client that sends
 * either meant something else, so the answer is a 400 naming the field.
 */
export function readForm(raw: Uint8Array): FormField[] {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw apiError('invalid_body', 'the form body is not valid UTF-8 (WHATWG URL §5.1)');
  }
  const fields: FormField[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodePart(equals === -1 ? pair : pair.slice(0, equals), pair);
    const value = equals === -1 ? '' : decodePart(pair.slice(equals + 1), pair);
    fields.push({ name, value });
  }
  return fields;
}

function decodePart(part: string, pair: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw apiError(
      'invalid_body',
      `the form body's field ${quote(pair)} is not percent-encoded as a form must be: "%" and two hex digits, of UTF-8 bytes (RFC 3986 §2.1)`,
    );
  }
}

/** A client's text in a message, JSON-quoted and cut short (an error never grows with the input). */
export function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
