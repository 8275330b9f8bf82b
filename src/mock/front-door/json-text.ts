/**
 * JSON text carried by the values it describes. The store attaches each pet's text, and each list page's, when it
 * freezes them (see store.ts), so a lookup's or a list's body costs a property read instead of a JSON.stringify per
 * request. A frozen value cannot change, so its text can never go stale. The property is a non-enumerable symbol:
 * JSON.stringify, Object.keys, spreads, structuredClone and deep equality in tests never see it.
 */
import { stringifyJson } from '../../json/stringify-json.js';

const JSON_TEXT = Symbol('petstore-kit.jsonText');

type WithText = { readonly [JSON_TEXT]?: string };

/**
 * Freezes `value` with its JSON text attached (computed when not given). Freezing is shallow: pass values whose
 * contents are frozen or primitive, as the store does.
 */
export function freezeWithJsonText<T extends object>(value: T, text: string = stringifyJson(value)): Readonly<T> {
  Object.defineProperty(value, JSON_TEXT, { value: text, enumerable: false });
  return Object.freeze(value);
}

/** The value's attached JSON text, if it has one. */
export function attachedJsonText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as WithText)[JSON_TEXT] : undefined;
}

/**
 * A reply body or a stored pet as JSON text: the attached text when there is one, else `stringifyJson` (an int64
 * beyond the safe range, a bigint, keeps its digits). The one pet serialiser: replies, the state file and any other
 * store keep pets as this text.
 */
export function toJsonText(value: unknown): string {
  return attachedJsonText(value) ?? stringifyJson(value);
}
