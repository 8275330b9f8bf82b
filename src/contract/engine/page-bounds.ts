/**
 * What a list's `limit`-like parameter promises, only as far as the document bounds it. The runner reads a
 * parameter named like a limit (the resource model's `limit`) as "the most items a page holds"; the document gives
 * it a minimum, a maximum and a default, or not. Where it gives none, a value it leaves open (`limit=-1`, `limit=0`:
 * "no limit", "the default" or an empty page, as each server chooses) promises nothing, and a page asked for
 * without `limit` is as long as the server likes.
 */
export interface PageRule {
  minimum?: number | undefined;
  maximum?: number | undefined;
  default?: number | undefined;
}

/**
 * The most items a page asked for with `limit=asked` may hold: `asked` itself when it is at least 1, the least page
 * that reading makes sense of; undefined (not judged) for 0 or a negative value, whose meaning the document does not
 * fix even where its minimum allows it.
 * @example askedBound(7) // 7
 * askedBound(-1) // undefined: not "at most -1 items"
 */
export function askedBound(asked: number): number | undefined {
  return Number.isSafeInteger(asked) && asked >= 1 ? asked : undefined;
}

/**
 * The most items a page asked for without `limit` may hold: the document's default, else its maximum (no page holds
 * more), else undefined (not judged: the server's own page size).
 */
export function unaskedBound(rule: PageRule | undefined): number | undefined {
  return rule?.default ?? rule?.maximum;
}

/**
 * Whether a page of `rows` items may leave items out: it is as long as its bound, or the list takes a `limit` the
 * document bounds by nothing (the server pages by a size of its own). A page shorter than a bound the document fixes
 * holds every item that matches.
 */
export function mayBeCutShort(rows: number, bound: number | undefined, takesLimit: boolean): boolean {
  return bound === undefined ? takesLimit : rows >= bound;
}
