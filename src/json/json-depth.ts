import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-bytes.js';

/**
 * The deepest nesting of arrays and objects a request body may have. A `NewPet` needs 1; the limit keeps a small
 * body of brackets (`[[[[…`) from costing the parser and validator stack depth and time out of proportion to its size.
 */
export const MAX_REQUEST_JSON_DEPTH = 32;

/**
 * How deep a response's JSON may nest before it is refused unparsed (by the contract runner and the proxy): a list
 * of pets is 3 levels deep. Looser than the request bound: a target's answer is judged, not served.
 */
export const MAX_RESPONSE_JSON_DEPTH = 64;

/**
 * The deepest nesting of `{` and `[` outside strings, found in one pass over the bytes before anything is parsed;
 * stops counting once past `stopAbove`, so 5 million `[` cost one short scan instead of a parser's or a validator's
 * stack. Works on UTF-8 bytes, since no byte of a multi-byte UTF-8 sequence is an ASCII bracket, quote or backslash.
 * Malformed text is left for the JSON parser to reject.
 */
export function nestingDepth(raw: Uint8Array, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

/** Whether JSON bytes nest deeper than `limit` (see `nestingDepth`). */
export function jsonDepthExceeds(bytes: Uint8Array, limit = MAX_RESPONSE_JSON_DEPTH): boolean {
  return nestingDepth(bytes, limit) > limit;
}
