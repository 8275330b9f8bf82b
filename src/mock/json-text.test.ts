import { describe, expect, it } from 'vitest';
import { toJsonText } from './json-text.js';

describe('toJsonText', () => {
  it.each([
    ['a plain object', { a: 1, b: 'x' }],
    ['a frozen pet', Object.freeze({ id: 1, name: 'Rex', categoryId: 2 })],
    ['a frozen page of frozen pets', Object.freeze([Object.freeze({ id: 1, name: 'a' }), Object.freeze({ id: 2, name: 'b"\u2028' })])],
    ['an empty frozen array', Object.freeze([])],
    ['a frozen array with holes and undefined', Object.freeze([1, undefined, null, 'x'])],
    ['a frozen object holding a mutable one', Object.freeze({ nested: { a: 1 } })],
    ['a string', 'text'],
    ['a number', 42],
  ])('gives exactly what JSON.stringify gives for %s', (_, value) => {
    expect(toJsonText(value)).toBe(JSON.stringify(value));
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it('never serves a stale text for something that can still change', () => {
    const inner = { a: 1 };
    const outer = Object.freeze({ inner });
    const list = Object.freeze([inner]);
    expect(toJsonText(outer)).toBe('{"inner":{"a":1}}');
    expect(toJsonText(list)).toBe('[{"a":1}]');
    inner.a = 2;
    expect(toJsonText(outer)).toBe('{"inner":{"a":2}}');
    expect(toJsonText(list)).toBe('[{"a":2}]');
    const mutable: object[] = [Object.freeze({ id: 1 })];
    expect(toJsonText(mutable)).toBe('[{"id":1}]');
    mutable.push(Object.freeze({ id: 2 }));
    expect(toJsonText(mutable)).toBe('[{"id":1},{"id":2}]');
  });
});
