import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJson } from './parse-json.js';
import { stringifyJson } from './stringify-json.js';

describe('parseJson', () => {
  it.each([
    ['the largest int64', '{"categoryId":9223372036854775807}', { categoryId: 9223372036854775807n }],
    ['the smallest int64', '[-9223372036854775808]', [-9223372036854775808n]],
    ['a value Schemathesis sent', '{"categoryId":55891266195648512}', { categoryId: 55891266195648512n }],
    ['2^53 + 1, which a double cannot hold', '9007199254740993', 9007199254740993n],
    ['the largest safe integer, as a number', '9007199254740991', 9007199254740991],
    ['beyond int64, still exact', '123456789012345678901234567890', 123456789012345678901234567890n],
    ['a fraction stays a double', '9007199254740993.5', 9007199254740994],
    ['an exponent stays a double', '[1e19, 12345678901234567e2]', [1e19, 1234567890123456800]],
    ['strings with digits are strings', '{"a":"12345678901234567890"}', { a: '12345678901234567890' }],
    [
      'escapes',
      '{"a\\u0041":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9","n":12345678901234567}',
      { aA: '"\\/\b\f\n\r\t\u00e9', n: 12345678901234567n },
    ],
    ['the last of duplicate keys wins', '{"a":1,"a":22222222222222222}', { a: 22222222222222222n }],
  ])('%s', (_name, text, want) => {
    expect(parseJson(text)).toEqual(want);
  });

  it('makes `__proto__` an own key, never the prototype, as JSON.parse does', () => {
    const value = parseJson('{"__proto__":{"polluted":true},"n":12345678901234567}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'n']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '',
    '{',
    '[1,]',
    '{"a":1,}',
    '[01]',
    '01234567890123456',
    '-',
    '1.',
    '.5',
    '1e',
    '"\\x"',
    '"\\u12"',
    '"a\tb"',
    '[1] 2',
    'nul',
    '\uFEFF1234567890123456',
    '+1234567890123456',
    '[1234567890123456 1]',
  ])('refuses %j like JSON.parse', (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it('agrees with JSON.parse but for the precision of integers beyond the safe range', () => {
    const rounded = (value: unknown): unknown =>
      typeof value === 'bigint'
        ? Number(value)
        : Array.isArray(value)
          ? value.map(rounded)
          : value !== null && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]))
            : value;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        // A long run of digits anywhere sends the text to the exact parser: compare both parsers on it.
        const text = `[${JSON.stringify(value)},"1234567890123456"]`;
        expect(rounded(parseJson(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts and refuses exactly what JSON.parse does', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'{}[],:"\\ 0123456789-+.eEtrufalsn\tu'.split('')), maxLength: 30 }),
        (noise) => {
          const text = `1234567890123456${noise}`;
          let native: unknown;
          try {
            native = JSON.parse(text);
          } catch {
            expect(() => parseJson(text), text).toThrow(SyntaxError);
            return;
          }
          expect(typeof native).toBe('number');
          parseJson(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips every int64 through stringifyJson with the same digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.string(), (id, name) => {
        const text = `{"name":${JSON.stringify(name)},"categoryId":${id}}`;
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
