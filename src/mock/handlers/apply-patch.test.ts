import { describe, expect, it } from 'vitest';
import { isApiError } from '../../errors.js';
import { jsonPatch, mergePatch } from './apply-patch.js';

// The RFCs' own examples: RFC 7396 Appendix A (merge patch) and RFC 6902 Appendix A (JSON Patch), then what they
// imply beyond their examples (§4.6's equality, members named __proto__, a refused patch leaving the target alone).
describe('mergePatch (RFC 7396)', () => {
  it.for([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ] as [unknown, unknown, unknown][])('Appendix A: %j patched with %j is %j', ([target, patch, result]) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('leaves the target as it was (a refused answer must not have changed the stored item)', () => {
    const target = Object.freeze({ a: Object.freeze({ b: 1 }) });
    expect(mergePatch(target, { a: { b: 2 } })).toEqual({ a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });

  it('keeps a member named __proto__ as a member, without changing any prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"name":"x"}') as unknown;
    const result = mergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(JSON.stringify(result)).toBe('{"__proto__":{"polluted":true},"name":"x"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('jsonPatch (RFC 6902)', () => {
  it.for([
    [
      'A.1 add an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 add an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    ['A.3 remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [
      'A.4 remove an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replace a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 move a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 move an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 test a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 add a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      'A.11 ignore unrecognized elements',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { foo: 'bar', baz: 'qux' },
    ],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [
      'A.16 add an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    [
      '§4.6 objects are equal whatever the order of their members',
      { a: { x: 1, y: [1, { z: 2, w: 3 }] } },
      [{ op: 'test', path: '/a', value: { y: [1, { w: 3, z: 2 }], x: 1 } }],
      { a: { x: 1, y: [1, { z: 2, w: 3 }] } },
    ],
    [
      '§4.6 an int64 past 2^53 (a bigint) equals the same number',
      { id: 9007199254740993n },
      [{ op: 'test', path: '/id', value: 9007199254740993n }],
      { id: 9007199254740993n },
    ],
    ['§4.1 a path of "" replaces the whole document', { a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }], { b: 2 }],
  ] as [string, unknown, unknown, unknown][])('Appendix A / %s', ([, target, patch, result]) => {
    expect(jsonPatch(target, patch)).toEqual(result);
  });

  it.for([
    ['A.9 a failed test', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], 'body[0]: test failed at /baz'],
    [
      'A.12 add to a target that is not there',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      'body[0]: no value at /baz',
    ],
    [
      'A.15 a string is not a number',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      'body[0]: test failed at /~01',
    ],
    [
      '§4.6 arrays of another length differ',
      { a: [1, 2] },
      [{ op: 'test', path: '/a', value: [1, 2, 3] }],
      'body[0]: test failed at /a',
    ],
    [
      '§4.6 an object with a member more differs',
      { a: { x: 1 } },
      [{ op: 'test', path: '/a', value: { x: 1, y: 2 } }],
      'body[0]: test failed at /a',
    ],
    [
      '§4.3 replace needs a value there',
      { a: 1 },
      [{ op: 'replace', path: '/b', value: 2 }],
      'body[0]: no value at /b',
    ],
    ['§4.2 remove needs a value there', { a: 1 }, [{ op: 'remove', path: '/b' }], 'body[0]: no value at /b'],
    ['§4.1 value is required', { a: 1 }, [{ op: 'add', path: '/b' }], 'body[0].value is required'],
    ['an index past the end', { a: [1] }, [{ op: 'add', path: '/a/2', value: 3 }], 'body[0]: no array index 2 at /a'],
    [
      'an index with a leading zero',
      { a: [1, 2] },
      [{ op: 'replace', path: '/a/01', value: 3 }],
      'body[0]: no value at /a/01',
    ],
    ['a pointer not starting with /', { a: 1 }, [{ op: 'remove', path: 'a' }], 'body[0].path must be a JSON Pointer'],
    ['an unknown op', { a: 1 }, [{ op: 'merge', path: '/a', value: 2 }], 'body[0].op must be add, remove, replace'],
    ['not an array of operations', { a: 1 }, { op: 'add', path: '/b', value: 2 }, 'body must be a JSON Patch document'],
    [
      '§5 the second operation fails: the first is not applied either',
      { a: 1 },
      [
        { op: 'replace', path: '/a', value: 2 },
        { op: 'test', path: '/a', value: 3 },
      ],
      'body[1]: test failed at /a',
    ],
  ] as [string, unknown, unknown, string][])(
    'refuses with 400 invalid_body naming the operation: %s',
    ([, target, patch, message]) => {
      const before = structuredClone(target);
      let thrown: unknown;
      try {
        jsonPatch(target, patch);
      } catch (error) {
        thrown = error;
      }
      expect(isApiError(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'invalid_body', status: 400 });
      expect((thrown as Error).message).toContain(message);
      expect(target).toEqual(before);
    },
  );

  it('keeps a member named __proto__ as a member, without changing any prototype', () => {
    const patch = JSON.parse('[{"op":"add","path":"/__proto__","value":{"polluted":true}}]') as unknown;
    const result = jsonPatch({ name: 'x' }, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(JSON.stringify(result)).toBe('{"name":"x","__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
