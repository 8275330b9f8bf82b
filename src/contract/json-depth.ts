/** How deep a response's JSON may nest before it is refused unparsed: a list of pets is 3 levels deep. */
export const MAX_JSON_DEPTH = 64;

/**
 * The nesting depth of JSON text, counted without parsing (strings skipped), stopping as soon as it passes
 * `limit`: 5 million `[` cost one linear scan instead of a parser's or a validator's stack.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
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
