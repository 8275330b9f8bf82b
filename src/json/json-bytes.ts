/**
 * The bytes of JSON's structure (RFC 8259 §2), for the scanners that read JSON as UTF-8 bytes before or instead of
 * parsing it (json-depth.ts, compat's journal reader). All are ASCII, so none occurs inside a multi-byte UTF-8
 * sequence.
 */
export const SPACE = 0x20;
export const NEWLINE = 0x0a;
export const TAB = 0x09;
export const RETURN = 0x0d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
