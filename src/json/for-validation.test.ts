import { describe, expect, it } from 'vitest';
import { createAjv } from '../openapi/ajv.js';
import { forValidation } from './for-validation.js';

const ajv = createAjv();
const validate = ajv.compile({
  type: 'object',
  properties: { categoryId: { type: 'integer', format: 'int64' }, small: { type: 'integer', maximum: 100 } },
});

describe('forValidation with AJV', () => {
  it.each([
    ['the largest int64', { categoryId: 2n ** 63n - 1n }, true],
    ['the smallest int64', { categoryId: -(2n ** 63n) }, true],
    ['one beyond int64', { categoryId: 2n ** 63n }, false],
    ['one below int64', { categoryId: -(2n ** 63n) - 1n }, false],
    ['a double beyond the safe range (written with an exponent)', { categoryId: 1e18 }, false],
    ['a safe integer', { categoryId: 9007199254740991 }, true],
    ['a bigint above a maximum', { small: 2n ** 60n }, false],
  ])('%s', (_name, value, valid) => {
    expect(validate(forValidation(value))).toBe(valid);
  });

  it('returns values without a bigint as they are, and never changes its input', () => {
    const plain = { a: [1, { b: 'c' }] };
    expect(forValidation(plain)).toBe(plain);
    const input = { a: [1, { b: 2n }], c: 'd' };
    const copy = forValidation(input) as typeof input;
    expect(copy).toEqual({ a: [1, { b: Number.MAX_SAFE_INTEGER }], c: 'd' });
    expect(input.a[1]).toEqual({ b: 2n });
  });
});
