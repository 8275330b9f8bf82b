/**
 * Values that tell an exact filter from a loose one. A filter named like a property keeps the items whose property
 * equals the value asked for (the document's promise, as the resource model reads it); a target that matches
 * substrings, prefixes or letters in any case lists more. Where every item of a store has a value of its own, no
 * loose matching shows: so the filter oracle creates, beside its item, lookalikes of its value, each caught by one
 * kind of loose matching only, and lists with the value.
 */

/** One lookalike of a filter value and the loose matching that would list it. */
export interface Lookalike {
  value: string;
  /** What a target that lists it does, as a failure names it. */
  kind: 'prefix' | 'substring' | 'case-folded';
}

/**
 * The filter value an oracle gives its item: run-tagged (so another run's items never hold it), lower case, short
 * enough that its lookalikes fit a `maxLength` of 40.
 * @example filterValue('mx0zsa3a-f49e', 0) // 'mx0zsa3a-f49e-f0'
 */
export function filterValue(runId: string, index: number): string {
  return `${runId.toLowerCase()}-f${index}`;
}

/**
 * The lookalikes of `value`: it followed by more (`good` and `good-more`: a prefix, and a substring, match lists it),
 * it after a word (`the-good`: only a substring or suffix match lists it) and in upper case (`GOOD`: only a
 * case-folded match lists it, where the value has a letter).
 */
export function lookalikes(value: string): Lookalike[] {
  const found: Lookalike[] = [
    { value: `${value}-more`, kind: 'prefix' },
    { value: `the-${value}`, kind: 'substring' },
  ];
  const upper = value.toUpperCase();
  if (upper !== value) found.push({ value: upper, kind: 'case-folded' });
  return found;
}

/** How a listed value `got` matches the filter value `asked` loosely, in words; undefined when it does not. */
export function looseMatch(asked: string, got: unknown): string | undefined {
  if (typeof got !== 'string' || got === asked) return undefined;
  if (got.toLowerCase() === asked.toLowerCase()) return 'a case-folded match, not an exact one';
  if (got.startsWith(asked)) return 'a prefix match, not an exact one';
  if (got.includes(asked)) return 'a substring match, not an exact one';
  return undefined;
}
