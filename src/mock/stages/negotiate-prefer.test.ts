import { describe, expect, it } from 'vitest';
import { parsePrefer } from './negotiate-prefer.js';

describe('parsePrefer (RFC 7240 §2)', () => {
  it.each([
    ['no header', undefined, {}],
    ['one preference', 'code=404', { code: 404 }],
    ['two preferences', 'code=404, example=notFound', { code: 404, example: 'notFound' }],
    ['a quoted value', 'code="201"', { code: 201 }],
    ['several header lines as one list', ['code=400', 'example=missingField'], { code: 400, example: 'missingField' }],
    ['unknown preferences only', 'respond-async, wait=10', {}],
    ['a malformed code beside a good delay', 'code=abc, delay=5', { invalid: 'code=abc', delay: 5 }],
    // The first occurrence wins: a later duplicate is not considered, good or bad.
    ['a duplicate after a good value', 'delay=250, delay=soon', { delay: 250 }],
    ['a duplicate after a bad value', 'code=40, code=404', { invalid: 'code=40' }],
    ['a duplicate in another header line', ['code=404', 'code=401'], { code: 404 }],
    // Parameters after ";" belong to their preference: they are not preferences of their own.
    ['a parameter that looks like a preference', 'dynamic=true; code=500', { dynamic: true }],
    ['parameters on a known preference', 'example=empty; lang=en, code=200', { example: 'empty', code: 200 }],
    ['a quoted value holding , and ;', 'example="a,b;c", code=200', { example: 'a,b;c', code: 200 }],
    ['case-insensitive names', 'CODE=404, Example=x', { code: 404, example: 'x' }],
    ['a bare dynamic', 'dynamic', { dynamic: true }],
    ['dynamic=false', 'dynamic=false', { dynamic: false }],
    ['a malformed dynamic', 'dynamic=yes', { invalid: 'dynamic=yes' }],
    ['an empty example', 'example=', { invalid: 'example=' }],
    ['empty elements', ' , ,code=404,', { code: 404 }],
  ])('%s: %j', (_, header, want) => {
    expect(parsePrefer(header as never)).toEqual(want);
  });
});
