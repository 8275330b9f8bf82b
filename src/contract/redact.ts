/** What a secret is replaced with. */
export const REDACTED = '***';

/**
 * A function that removes every occurrence of the secrets from a text, in any encoding a target can echo them in:
 * as written, in any letter case, with any character JSON-escaped (`\u002B`, `\/`, double-escaped `\\u002b`),
 * percent-encoded in either case (once or twice: `%2b`, `%252B`), as an HTML/XML character reference (`&#43;`,
 * `&#x2b;`, `&amp;`), or in base64 / base64url (at any byte alignment, so also inside a longer encoded token) and
 * hex. Mixtures of these in one occurrence are caught too, since every character is matched in each of its forms.
 * Redact a whole text before cutting an excerpt from it: a cut can split an occurrence into parts no pass finds.
 * @example createRedactor('s3cret')('Authorization: Bearer S3CRET') // 'Authorization: Bearer ***'
 */
export function createRedactor(secrets: string | readonly string[]): (text: string) => string {
  const list = [...new Set(typeof secrets === 'string' ? [secrets] : secrets)].filter((secret) => secret.length > 0);
  if (list.length === 0) return (text) => text;
  const patterns = list.flatMap((secret) => [characterwise(secret), ...base64Forms(secret).map(escapeRegExp), escapeRegExp(Buffer.from(secret).toString('hex'))]);
  // Longest first, so that an alternative containing another is replaced whole.
  patterns.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(patterns.join('|'), 'gi');
  return (text) => (text.length === 0 ? text : text.replace(pattern, REDACTED));
}

/** A pattern matching `secret` character by character, each character in any of its textual encodings. */
function characterwise(secret: string): string {
  return [...secret].map(charForms).join('');
}

const entities: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

function charForms(char: string): string {
  const code = char.codePointAt(0)!;
  const bytes = [...Buffer.from(char)].map((b) => b.toString(16).padStart(2, '0'));
  const hex4 = code.toString(16).padStart(4, '0');
  const forms = [
    escapeRegExp(char),
    // JSON (RFC 8259 §7), possibly escaped again by a JSON-in-JSON echo.
    `\\\\+u${hex4}`,
    // Percent-encoding (RFC 3986 §2.1), hex digits in either case (the regex is case-insensitive), maybe twice.
    bytes.map((b) => `%(?:25)*${b}`).join(''),
    `&#0*${code};?`,
    `&#x0*${code.toString(16)};?`,
  ];
  if (char === '/' || char === '"' || char === '\\') forms.push(`\\\\+${escapeRegExp(char)}`);
  if (entities[char]) forms.push(`&${entities[char]};`);
  return `(?:${forms.join('|')})`;
}

/**
 * The parts of the base64 and base64url encodings of `secret` that stay the same wherever it sits in a longer
 * encoded byte string: for each of the three byte alignments, the characters that depend on the secret's bytes only.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters touching the padding bytes before or the unknown bytes after are unstable: trim them.
    const start = offset === 0 ? 0 : offset === 1 ? 2 : 3;
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const stable = encoded.slice(start, end);
    if (stable.length >= 4) forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
