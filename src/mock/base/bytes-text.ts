// fatal: a body that is not UTF-8 is kept byte for byte instead of turned into U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body or a multipart file the mock keeps without reading it (`application/octet-stream`, `image/png`), as a
 * string its handler, journal and log can carry: the UTF-8 text when it is UTF-8, else a binary string of one
 * character per byte (U+0000–U+00FF), which loses nothing. A schema of `type: string, format: binary` (OAS 3.0.3
 * §4.7.14, "Considerations for File Uploads") takes either.
 */
export function bytesText(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let text = '';
    // In slices: String.fromCharCode takes its arguments on the stack.
    for (let at = 0; at < bytes.length; at += 8192)
      text += String.fromCharCode(...bytes.subarray(at, Math.min(at + 8192, bytes.length)));
    return text;
  }
}
