/** A request as a report shows it: read back from the curl line the runner wrote (transport/to-curl.ts). */
export interface ShownRequest {
  method: string;
  url: string;
  headers: string[];
  body?: string;
}

/**
 * Reads a curl command written by `toCurl` back into its method, URL, headers and body, as written: a header that
 * reads the key from the environment stays `Authorization: Bearer ${PETSTORE_API_KEY}`. Undefined for a line that
 * is not a curl command (a script's comment).
 * @example readCurl("curl -sS -i -X POST http://h/v1/pets -H 'Accept: application/json'")
 */
export function readCurl(line: string): ShownRequest | undefined {
  let words = shellWords(line);
  // A body with control characters is piped in by printf (to-curl.ts): `printf 'FORMAT' | curl … --data-binary @-`.
  const piped = words[0] === 'printf' && words[2] === '|' ? printed(words[1] ?? '') : undefined;
  if (piped !== undefined) words = words.slice(3);
  if (words[0] !== 'curl') return undefined;
  const request: ShownRequest = { method: 'GET', url: '', headers: [] };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-X') request.method = words[++i] ?? request.method;
    else if (word === '-H') request.headers.push(words[++i] ?? '');
    else if (word === '--data-raw') request.body = words[++i] ?? '';
    else if (word === '--data-binary' && words[i + 1] === '@-' && piped !== undefined) {
      request.body = piped;
      i++;
    }
    else if (!word.startsWith('-') && request.url === '') request.url = word;
  }
  // An empty `Content-Type:` is curl's way of sending none: not a header of the request.
  request.headers = request.headers.filter((header) => header !== 'Content-Type:');
  return request;
}

/** What POSIX printf prints for a format of to-curl.ts's: `\\`, `%%` and octal bytes (`\177`), as UTF-8 text. */
function printed(format: string): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < format.length; i++) {
    const char = format[i]!;
    const octal = char === '\\' ? /^[0-7]{1,3}/.exec(format.slice(i + 1)) : null;
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += octal[0].length;
    } else if ((char === '\\' && format[i + 1] === '\\') || (char === '%' && format[i + 1] === '%')) {
      bytes.push(char.charCodeAt(0));
      i++;
    } else {
      const point = format.codePointAt(i)!;
      bytes.push(...encoder.encode(String.fromCodePoint(point)));
      if (point > 0xffff) i++;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * POSIX shell words of one line, quotes removed: `'…'` literal (with `'\''` for a quote), `"…"` with `\` escaping
 * `$`, `` ` ``, `"` and `\`; a `${…}` expansion is kept as written.
 */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end === -1 ? line.length : end;
      word = (word ?? '') + line.slice(i + 1, stop);
      i = stop;
    } else if (char === '"') {
      word = word ?? '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '$`"\\'.includes(line[i + 1]!)) i++;
        word += line[i];
      }
    } else if (char === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
