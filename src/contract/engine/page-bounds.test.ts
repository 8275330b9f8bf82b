import { describe, expect, it } from 'vitest';
import { askedBound, mayBeCutShort, unaskedBound } from './page-bounds.js';

describe('a limit only as bounded as the document bounds it', () => {
  it.each([
    [1, 1],
    [7, 7],
    [100, 100],
    [0, undefined],
    [-1, undefined],
    [-2147483648, undefined],
    [Number.MAX_SAFE_INTEGER + 2, undefined],
  ])('limit=%s promises a page of at most %s', (asked, bound) => {
    expect(askedBound(asked)).toBe(bound);
  });

  it.each([
    [{ default: 20, maximum: 100 }, 20],
    [{ maximum: 100 }, 100],
    [{ minimum: 1 }, undefined],
    [undefined, undefined],
  ])('without limit, %j promises a page of at most %s', (rule, bound) => {
    expect(unaskedBound(rule)).toBe(bound);
  });

  it.each([
    [3, 10, true, false],
    [10, 10, true, true],
    [3, undefined, true, true],
    [3, undefined, false, false],
  ])('%i rows under a bound of %s (takes a limit: %s) may be cut short: %s', (rows, bound, takesLimit, cut) => {
    expect(mayBeCutShort(rows, bound, takesLimit)).toBe(cut);
  });
});
