/** What a secret is replaced with. */
export const REDACTED = '***';

/**
 * Secrets shorter than this are never searched for in free text. A key of a few characters (`x`, `test`, `sek`,
 * `secret1`) cannot be told apart from ordinary text: masking it would rewrite words, numbers, field names and pet
 * names (`e***ample`), and make reports lie. Such a key is masked only where the program itself put it (the
 * `Authorization` header it sent, a header given with `-H`). Ten characters is where chance stops: a real key
 * (a UUID, 32 hex digits, a base64 token) is far longer, and text from a server essentially never contains a
 * ten-character key by accident.
 */
export const MIN_MASKED_SECRET_LENGTH = 10;

/** True when `secret` is long enough to be searched for in free text (see MIN_MASKED_SECRET_LENGTH). */
export function isMaskable(secret: string): boolean {
  return secret.length >= MIN_MASKED_SECRET_LENGTH;
}

/**
 * A function that masks every whole occurrence of the secrets in a text, in any encoding a server can echo them in:
 * as written, in any letter case, with any character JSON-escaped (`\u002B`, `\/`, double-escaped `\\u002b`),
 * percent-encoded in either case (once or twice: `%2b`, `%252B`), as an HTML/XML character reference (`&#43;`,
 * `&#x2b;`, `&amp;`), in base64 / base64url (at any byte alignment, so also inside a longer encoded token, such as
 * a Basic credential) and in hex. Mixtures of these in one occurrence are caught too, since every character is
 * matched in each of its forms. Secrets shorter than MIN_MASKED_SECRET_LENGTH are left alone (the caller masks them
 * by structure). Redact a whole text before cutting an excerpt from it: a cut can split an occurrence.
 *
 * The one redactor of the project: the mock's journal and request log, the proxy's log lines and HAR, and the
 * contract runner's reports all mask through it.
 * @example createSecretRedactor(['s3cret-key-0042'])('Bearer S3CRET-KEY-0042') // 'Bearer ***'
 */
export function createSecretRedactor(
  secrets: readonly string[],
  options: RedactOptions = {},
): (text: string) => string {
  const unique = [...new Set(secrets)].filter(Boolean);
  const list = unique.filter(isMaskable);
  const short = options.shortSecrets === 'as-written' ? unique.filter((secret) => !isMaskable(secret)) : [];
  if (list.length === 0 && short.length === 0) return (text) => text;
  const patterns = list.flatMap((secret) => [
    characterwise(secret),
    ...base64Forms(secret).map(escapeRegExp),
    hex(utf8(secret)),
  ]);
  // Longest first, so that an alternative containing another is replaced whole.
  patterns.sort((a, b) => b.length - a.length);
  const pattern = patterns.length > 0 ? new RegExp(patterns.join('|'), 'gi') : undefined;
  const shortPattern =
    short.length > 0
      ? new RegExp(
          short
            .sort((a, b) => b.length - a.length)
            .map(asWritten)
            .join('|'),
          'g',
        )
      : undefined;
  // Every form of a maskable secret is at least MIN_MASKED_SECRET_LENGTH characters long.
  return (text) => {
    let safe = pattern && text.length >= MIN_MASKED_SECRET_LENGTH ? text.replace(pattern, REDACTED) : text;
    if (shortPattern) safe = safe.replace(shortPattern, REDACTED);
    return safe;
  };
}

/** How createSecretRedactor treats secrets shorter than MIN_MASKED_SECRET_LENGTH. */
export interface RedactOptions {
  /**
   * `ignore` (the default; the contract runner): left to structure. `as-written` (the mock and the proxy, whose
   * free text is a request target a client wrote or an error message quoting it): masked where they occur exactly
   * as written or percent-encoded, in the case given — a client that puts the server's key in a URL never sees it
   * in a log, while the key's letters in other case, JSON or base64 are not searched for.
   */
  readonly shortSecrets?: 'ignore' | 'as-written';
}

// Redactors by secret list: the mock's keys are one list for its whole life, the proxy's are the client's token of
// each request (a few distinct ones). Compiling a pattern costs tens of microseconds; matching a line, one or two.
const cache = new Map<string, (text: string) => string>();
const CACHE_SIZE = 64;

/**
 * `text` with `secrets` masked as createSecretRedactor does, the compiled pattern reused across calls.
 * @example redactSecrets('/v1/pets?x=s3cret%2Dkey-0042', ['s3cret-key-0042']) // '/v1/pets?x=***'
 */
export function redactSecrets(text: string, secrets: readonly string[], options: RedactOptions = {}): string {
  if (secrets.length === 0 || text.length === 0) return text;
  const id = `${options.shortSecrets ?? 'ignore'}\u0000${secrets.join('\u0000')}`;
  let redact = cache.get(id);
  if (!redact) {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(id, (redact = createSecretRedactor(secrets, options)));
  }
  return redact(text);
}

/** A pattern matching `secret` as written, each character maybe percent-encoded (RFC 3986 §2.1), hex in either case. */
function asWritten(secret: string): string {
  return [...secret]
    .map((char) => {
      const bytes = [...utf8(char)].map(
        (b) => `%(?:25)*(?:${b.toString(16).padStart(2, '0')}|${b.toString(16).padStart(2, '0').toUpperCase()})`,
      );
      return `(?:${escapeRegExp(char)}|${bytes.join('')})`;
    })
    .join('');
}

/** A pattern matching `secret` character by character, each character in any of its textual encodings. */
function characterwise(secret: string): string {
  return [...secret].map(charForms).join('');
}

const entities: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

function charForms(char: string): string {
  const code = char.codePointAt(0)!;
  const bytes = [...utf8(char)].map((b) => b.toString(16).padStart(2, '0'));
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
  const bytes = utf8(secret);
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = base64([...new Uint8Array(offset), ...bytes]);
    // Characters touching the padding bytes before or the unknown bytes after are unstable: trim them.
    const start = offset === 0 ? 0 : offset === 1 ? 2 : 3;
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const stable = encoded.slice(start, end);
    if (stable.length >= 4) forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

// Plain Web-platform code (no Buffer): the journal that uses this runs in the browser too.
function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function base64(bytes: readonly number[]): string {
  return btoa(String.fromCharCode(...bytes));
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
