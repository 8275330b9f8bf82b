import { describe, expect, it } from 'vitest';
import { readForm } from './read-form.js';
import { failure } from '../../../test/support/refusal.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readForm (application/x-www-form-urlencoded, WHATWG URL §5.1)', () => {
  it.each([
    [
      'name=Fern&height=30',
      [
        { name: 'name', value: 'Fern' },
        { name: 'height', value: '30' },
      ],
    ],
    ['name=Big+Fern', [{ name: 'name', value: 'Big Fern' }]],
    ['name=a%2Bb%26c%3Dd', [{ name: 'name', value: 'a+b&c=d' }]],
    ['name=%C3%A9t%C3%A9', [{ name: 'name', value: 'été' }]],
    [
      'flag&empty=',
      [
        { name: 'flag', value: '' },
        { name: 'empty', value: '' },
      ],
    ],
    [
      '&&tag=a&tag=b&',
      [
        { name: 'tag', value: 'a' },
        { name: 'tag', value: 'b' },
      ],
    ],
    ['care%5Bwater%5D=2', [{ name: 'care[water]', value: '2' }]],
    ['', []],
  ])('reads %j', (text, want) => {
    expect(readForm(bytes(text))).toEqual(want);
  });

  it.each([
    ['name=F%zzern', /field "name=F%zzern" is not percent-encoded/],
    ['name=100%', /field "name=100%" is not percent-encoded/],
    // %C3 alone starts a UTF-8 sequence it does not finish.
    ['name=%C3', /field "name=%C3" is not percent-encoded as a form must be: "%" and two hex digits, of UTF-8 bytes/],
  ])('refuses %j with a 400 naming the field', (text, message) => {
    const answer = failure(() => readForm(bytes(text)));
    expect(answer).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(answer.message).toMatch(message);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(failure(() => readForm(new Uint8Array([0x6e, 0x3d, 0xff])))).toEqual({
      status: 400,
      code: 'invalid_body',
      message: 'the form body is not valid UTF-8 (WHATWG URL §5.1)',
    });
  });

  it('cuts a long field short in its message', () => {
    const message = failure(() => readForm(bytes(`name=${'x'.repeat(5000)}%`))).message;
    expect(message.length).toBeLessThan(200);
  });
});
