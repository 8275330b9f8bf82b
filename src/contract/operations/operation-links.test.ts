import { describe, expect, it } from 'vitest';
import { atPointer } from './operation-links.js';

// RFC 6901 §5, the specification's own examples.
describe('atPointer', () => {
  const document = {
    foo: ['bar', 'baz'],
    '': 0,
    'a/b': 1,
    'c%d': 2,
    'e^f': 3,
    'g|h': 4,
    'i\\j': 5,
    'k"l': 6,
    ' ': 7,
    'm~n': 8,
  };
  it.each([
    ['', document],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
    ['/foo/2', undefined],
    ['/nothing/here', undefined],
    ['/foo/01', undefined],
  ])('%j', (pointer, value) => {
    expect(atPointer(document, pointer)).toEqual(value);
  });
});
