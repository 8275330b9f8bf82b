/**
 * JSON text for reply bodies, memoized for deeply frozen values: such a value can never change, so its text is
 * computed once. The store freezes every pet and every list page it hands out, so on the hot path a lookup's or a
 * list's body costs one WeakMap hit, and a new page a join of its pets' texts, instead of a JSON.stringify per
 * request. Anything else (error bodies, prism's answers) is stringified as usual.
 */
const texts = new WeakMap<object, string>();

export function toJsonText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return frozenText(value) ?? JSON.stringify(value);
  return JSON.stringify(value);
}

/** The text of a deeply frozen value, memoized; undefined when anything in it can still change. */
function frozenText(value: object): string | undefined {
  const known = texts.get(value);
  if (known !== undefined) return known;
  if (!Object.isFrozen(value)) return undefined;
  let text: string;
  if (Array.isArray(value)) {
    const parts: string[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const part = typeof item === 'object' && item !== null ? frozenText(item) : (JSON.stringify(item) ?? 'null');
      if (part === undefined) return undefined;
      parts[i] = part;
    }
    text = `[${parts.join(',')}]`;
  } else {
    for (const item of Object.values(value)) {
      if (typeof item === 'object' && item !== null && frozenText(item) === undefined) return undefined;
    }
    text = JSON.stringify(value);
  }
  texts.set(value, text);
  return text;
}
