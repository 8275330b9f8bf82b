import { describe, expect, it } from 'vitest';
import { parseInteger, parsePositive, UsageError } from './usage-error.js';

describe('parsePositive', () => {
  it.each([
    ['20', 20],
    ['0.5', 0.5],
    ['.25', 0.25],
    ['100000', 100_000],
  ])('reads %s as %d', (text, value) => {
    expect(parsePositive('rate', text, 100_000)).toBe(value);
  });

  it.each(['0', '0.0', '-1', 'abc', '1e3', '', ' 5', '100001', 'Infinity', '0x10'])(
    'refuses %j with a UsageError naming the flag',
    (text) => {
      expect(() => parsePositive('rate', text, 100_000)).toThrow(UsageError);
      expect(() => parsePositive('rate', text, 100_000)).toThrow(
        `--rate must be a number above 0 and at most 100000, such as 20 or 0.5 (got "${text}")`,
      );
    },
  );

  it('leaves an absent flag absent', () => {
    expect(parsePositive('rate', undefined, 10)).toBeUndefined();
    expect(parseInteger('port', undefined, 0)).toBeUndefined();
  });
});
