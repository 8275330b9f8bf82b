import { hasControls } from '../../text/excerpt.js';

/**
 * A header value partly made of shell expressions: literal text and `{ shell }` parts, such as the key read from
 * the environment (`${PETSTORE_API_KEY}`). Written inside double quotes, so the expressions are expanded.
 */
export interface ShellValue {
  readonly parts: readonly (string | { readonly shell: string })[];
}

/**
 * A request as a copy-pasteable curl command (POSIX shell quoting). Header values are shown as given: the caller
 * masks by structure (see shown-credentials.ts), so a value with the key is a ShellValue that reads it from the
 * environment.
 */
export function toCurl(
  method: string,
  url: string | ShellValue,
  headers: Record<string, string | ShellValue>,
  body: string | undefined,
  options: { compressed?: boolean } = {},
): string {
  const parts = ['curl', '-sS', '-i'];
  if (options.compressed) parts.push('--compressed');
  if (method !== 'GET' || body !== undefined) parts.push('-X', method);
  parts.push(typeof url === 'string' ? quote(url) : doubleQuote(url.parts));
  for (const [name, value] of Object.entries(headers))
    parts.push(
      '-H',
      typeof value === 'string' ? quote(`${name}: ${value}`) : doubleQuote([`${name}: `, ...value.parts]),
    );
  // curl labels --data-raw as a form (application/x-www-form-urlencoded); an empty header makes it send none, as sent.
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    parts.push('-H', "'Content-Type:'");
  // A body with a control character (a generated name with DEL, a newline) is piped through printf, whose format
  // names each such byte in octal (POSIX printf): every report shows control characters escaped, so a literal one
  // would be printed as `\x7f` and replayed as those four characters.
  if (body !== undefined && hasControls(body))
    return `printf ${quote(printfFormat(body))} | ${parts.join(' ')} --data-binary @-`;
  // --data-raw sends a literal body byte for byte (newlines included) and, unlike --data-binary, never reads a
  // body starting with @ as a file name.
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

/** `text` as a printf format that prints it exactly: `\` and `%` doubled, each control character's UTF-8 bytes in octal. */
function printfFormat(text: string): string {
  let format = '';
  for (const char of text) {
    if (char === '\\') format += '\\\\';
    else if (char === '%') format += '%%';
    else if (hasControls(char))
      for (const byte of new TextEncoder().encode(char)) format += `\\${byte.toString(8).padStart(3, '0')}`;
    else format += char;
  }
  return format;
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Inside double quotes `$`, `` ` ``, `"` and `\` keep a meaning (POSIX 2.2.3): escaped in literal parts. */
function doubleQuote(parts: ShellValue['parts']): string {
  return `"${parts.map((part) => (typeof part === 'string' ? part.replace(/[$`"\\]/g, '\\$&') : part.shell)).join('')}"`;
}
