// Node's Buffer when there is one (native, no copy); elsewhere the Web platform's encoder. No `node:` import, so
// the browser build shares this file with the server.
const NodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;
const encoder = new TextEncoder();

/** The length of `text` in UTF-8 bytes: a Content-Length, or a pet's size in the store's byte budget. */
export const utf8Length: (text: string) => number = NodeBuffer
  ? (text) => NodeBuffer.byteLength(text, 'utf8')
  : (text) => encoder.encode(text).length;

const decoder = new TextDecoder();

/** Bytes as UTF-8 text, a malformed sequence as U+FFFD (for showing a payload, never for judging a request body). */
export function utf8Text(payload: string | Uint8Array): string {
  return typeof payload === 'string' ? payload : decoder.decode(payload);
}
