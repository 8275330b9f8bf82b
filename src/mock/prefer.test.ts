import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.js';

describe('parsePrefer', () => {
  it.each([
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=404, example=notFound', { code: 404, example: 'notFound' }],
    ['dynamic=true; code="201"', { dynamic: true, code: 201 }],
    [['code=400', 'example=missingField'], { code: 400, example: 'missingField' }],
    ['respond-async, code=abc, wait=10', {}],
  ])('reads %j as %j', (header, want) => {
    expect(parsePrefer(header as never)).toEqual(want);
  });
});
