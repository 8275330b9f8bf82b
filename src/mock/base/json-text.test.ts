import { describe, expect, it } from 'vitest';
import { attachedJsonText, freezeWithJsonText, toJsonText } from './json-text.js';

describe('toJsonText', () => {
  it.each([
    ['a plain object', { a: 1, b: 'x' }],
    ['a frozen object without text', Object.freeze({ id: 1 })],
    ['an array', [1, undefined, null, 'x']],
    ['a string', 'text'],
    ['a number', 42],
    ['null', null],
  ])('gives what JSON.stringify gives for %s', (_, value) => {
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it('uses the text attached by freezeWithJsonText, which nothing else can see', () => {
    const pet = freezeWithJsonText({ id: 1, name: 'Rex "the" 😀', categoryId: 2 });
    const page = freezeWithJsonText([pet], `[${attachedJsonText(pet)}]`);
    expect(toJsonText(pet)).toBe(JSON.stringify({ id: 1, name: 'Rex "the" 😀', categoryId: 2 }));
    expect(toJsonText(page)).toBe(JSON.stringify([{ id: 1, name: 'Rex "the" 😀', categoryId: 2 }]));
    expect(Object.isFrozen(pet) && Object.isFrozen(page)).toBe(true);
    expect(Object.keys(pet)).toEqual(['id', 'name', 'categoryId']);
    expect(Reflect.ownKeys(pet)).toEqual(['id', 'name', 'categoryId']);
    expect(Reflect.ownKeys(page)).toEqual(['0', 'length']);
    expect({ ...pet }).toEqual({ id: 1, name: 'Rex "the" 😀', categoryId: 2 });
    expect(attachedJsonText({ ...pet })).toBeUndefined();
    expect(attachedJsonText(structuredClone(pet))).toBeUndefined();
  });
});
