/**
 * JSON text carried by the values it describes. The store attaches each pet's text, and each list page's, when it
 * freezes them (see store/memory.ts), so a lookup's or a list's body costs a property read instead of a
 * JSON.stringify per request. A frozen value cannot change, so its text can never go stale. The text is a private
 * field installed on the value: JSON.stringify, Object.keys, symbols, spreads, structuredClone and deep equality in
 * tests never see it.
 */
import { stringifyJson } from '../../json/stringify-json.js';

/** A constructor that returns what it is given, so that a subclass's private field can be put on any object. */
class Returns {
  constructor(value: object) {
    return value;
  }
}

/**
 * The carrier of the text. A private field, not a non-enumerable property: Object.defineProperty takes V8 into its
 * runtime and cost about five times as much, a visible share of every create.
 */
class JsonText extends Returns {
  #text: string;

  constructor(value: object, text: string) {
    super(value);
    this.#text = text;
  }

  static of(value: object): string | undefined {
    return #text in value ? value.#text : undefined;
  }
}

/**
 * Freezes `value` with its JSON text attached (computed when not given). Freezing is shallow: pass values whose
 * contents are frozen or primitive, as the store does.
 */
export function freezeWithJsonText<T extends object>(value: T, text: string = stringifyJson(value)): Readonly<T> {
  new JsonText(value, text);
  return Object.freeze(value);
}

/** The value's attached JSON text, if it has one. */
export function attachedJsonText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? JsonText.of(value) : undefined;
}

/**
 * A reply body or a stored pet as JSON text: the attached text when there is one, else `stringifyJson` (an int64
 * beyond the safe range, a bigint, keeps its digits). The one pet serialiser: replies, the state file and any other
 * store keep pets as this text.
 */
export function toJsonText(value: unknown): string {
  return attachedJsonText(value) ?? stringifyJson(value);
}
