import { apiError } from '../../errors.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { attachedJsonText, freezeWithJsonText } from './json-text.js';
import { utf8Length } from '../../json/utf8.js';

/**
 * The largest `--max-store-bytes`: the whole store must fit one JSON text (`GET /__admin/state`, `snapshot()`),
 * and V8 strings stop at about 512 MiB. The state file itself is streamed and has no such ceiling.
 */
export const MAX_STORE_BYTES = 384 * 1024 * 1024;

/**
 * The byte budget of a memory store made without one: in a browser tab or a test's process (the in-process mock).
 * The server sizes its own to the machine (heap-budget.ts).
 */
export const PORTABLE_STORE_BYTES = 64 * 1024 * 1024;

/**
 * An item's JSON text is attached to it (json-text.ts: a reply is then a property read) only up to this size. A
 * larger item is frozen without it: its strings are held once, not twice (value and text), and a reply serialises it,
 * work of the same order as sending it.
 */
export const MAX_ATTACHED_TEXT = 2048;

/** Freezes a stored item, attaching its JSON text when small; returns the item and its size in UTF-8 bytes. */
export function freezeItem<T extends object>(item: T): { item: Readonly<T>; bytes: number } {
  const text = stringifyJson(item);
  const bytes = utf8Length(text);
  return { item: text.length <= MAX_ATTACHED_TEXT ? freezeWithJsonText(item, text) : Object.freeze(item), bytes };
}

/** A stored item's size as the budget counts it: its JSON text in UTF-8 bytes. */
export function itemBytes(item: object): number {
  return utf8Length(attachedJsonText(item) ?? stringifyJson(item));
}

/** Checks a budget value (a flag or an option). */
export function checkMaxStoreBytes(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_STORE_BYTES) {
    throw new RangeError(`maxStoreBytes must be a whole number of bytes from 1 to ${MAX_STORE_BYTES} (got ${value})`);
  }
  return value;
}

/** The 409 for a create that does not fit the budget (RFC 9110 §15.5.10, like the count limit). */
export function storeBytesFull(used: number, adding: number, max: number) {
  return apiError(
    'store_full',
    `the store is full: it holds ${used} bytes of pets and this one needs ${adding} more, past its budget of ${max} bytes; reset the mock, or restart it with a larger --max-store-bytes`,
  );
}
