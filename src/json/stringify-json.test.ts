import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringifyJson } from './stringify-json.js';

describe('stringifyJson', () => {
  it('writes a bigint as its digits, wherever it is', () => {
    expect(
      stringifyJson({ id: 1, categoryId: -9223372036854775808n, tags: [1n, undefined, 'a'], skip: undefined }),
    ).toBe('{"id":1,"categoryId":-9223372036854775808,"tags":[1,null,"a"]}');
    expect(stringifyJson(12345678901234567890n)).toBe('12345678901234567890');
  });

  it('keeps toJSON, as JSON.stringify does', () => {
    expect(stringifyJson({ at: new Date(0), n: 2n ** 64n })).toBe(
      '{"at":"1970-01-01T00:00:00.000Z","n":18446744073709551616}',
    );
  });

  it('writes exactly what JSON.stringify writes for values without a bigint, on both paths', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
        // With a bigint beside it, the walk writes the rest the same way.
        expect(stringifyJson([value, 1n])).toBe(`[${JSON.stringify(value) ?? 'null'},1]`);
      }),
      { numRuns: 300 },
    );
  });
});
