/** The parts of an RFC 7240 `Prefer` header that a mock honours, in Prism's convention. */
export interface Preference {
  code?: number;
  example?: string;
  dynamic?: boolean;
  /** `delay=ms`: milliseconds to wait before answering (a petstore-kit extension of Prism's convention). */
  delay?: number;
  /** The first known preference whose value is malformed (`code=40`, `delay=soon`), as written. */
  invalid?: string;
}

/**
 * Parses `Prefer: code=404, example=notFound, dynamic=true` (RFC 7240 §2: preferences are comma-separated
 * `token[=value]`, values may be quoted). Unknown preferences are ignored, as RFC 7240 §2 asks.
 */
export function parsePrefer(header: string | string[] | undefined): Preference {
  const preference: Preference = {};
  if (header === undefined) return preference;
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const part of text.split(/[,;]/)) {
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    const key = part.slice(0, equals).trim().toLowerCase();
    const value = part.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1');
    if (key === 'code' && /^\d{3}$/.test(value)) preference.code = Number(value);
    else if (key === 'delay' && /^\d{1,9}$/.test(value)) preference.delay = Number(value);
    else if (key === 'code' || key === 'delay') preference.invalid ??= `${key}=${value}`;
    else if (key === 'example' && value) preference.example = value;
    else if (key === 'dynamic') preference.dynamic = value === 'true';
  }
  return preference;
}
