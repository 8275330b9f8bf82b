/** How deep a response's JSON may nest before it is refused unparsed: a list of pets is 3 levels deep. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON bytes nest deeper than `limit`, found without parsing (strings skipped) and stopping as soon as
 * they do: 5 million `[` cost one linear scan instead of a parser's or a validator's stack. Works on UTF-8 bytes,
 * since no byte of a multi-byte UTF-8 sequence is an ASCII bracket, quote or backslash.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes[i]!;
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
