import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.js';

describe('parsePrefer', () => {
  it.each([
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=404, example=notFound', { code: 404, example: 'notFound' }],
    ['dynamic=true; code="201"', { dynamic: true, code: 201 }],
    [['code=400', 'example=missingField'], { code: 400, example: 'missingField' }],
    ['respond-async, wait=10', {}],
    ['code=abc, delay=5', { invalid: 'code=abc', delay: 5 }],
    ['delay=250, delay=soon', { delay: 250, invalid: 'delay=soon' }],
  ])('reads %j as %j', (header, want) => {
    expect(parsePrefer(header as never)).toEqual(want);
  });
});
