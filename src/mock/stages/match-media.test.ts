import { describe, expect, it } from 'vitest';
import { matchMedia } from './match-media.js';
import { essenceOf, kindOf, type BodyMedia } from '../../openapi/body-media.js';

const declared = (...types: string[]): BodyMedia[] =>
  types.map((type) => {
    const essence = essenceOf(type);
    return { type, essence, kind: kindOf(essence), schema: undefined, validate: undefined, encoding: {} };
  });

describe('matchMedia: the declared media type a Content-Type falls under (OAS 3.0.3 §4.7.13)', () => {
  it.each<[string, string[], string, [string, string] | undefined]>([
    [
      'the exact type',
      ['application/json', 'application/x-www-form-urlencoded'],
      'application/x-www-form-urlencoded',
      ['application/x-www-form-urlencoded', 'form'],
    ],
    [
      'the exact type, parameters and case aside',
      ['multipart/form-data'],
      'Multipart/Form-Data; boundary=x',
      ['multipart/form-data', 'multipart'],
    ],
    [
      'any JSON type for a declared JSON type',
      ['application/problem+json'],
      'application/json; charset=utf-8',
      ['application/problem+json', 'json'],
    ],
    ['the exact type over its range', ['image/*', 'image/png'], 'image/png', ['image/png', 'bytes']],
    ['the range over */*', ['*/*', 'image/*'], 'image/jpeg', ['image/*', 'bytes']],
    ['*/* read by the request type', ['*/*'], 'application/x-www-form-urlencoded', ['*/*', 'form']],
    ['*/* read as JSON', ['*/*'], 'application/json', ['*/*', 'json']],
    ['nothing for an undeclared type', ['application/json'], 'text/plain', undefined],
    [
      'nothing for JSON where only a form is declared',
      ['application/x-www-form-urlencoded'],
      'application/json',
      undefined,
    ],
    ['nothing for another range', ['image/*'], 'text/plain', undefined],
  ])('%s', (_, types, contentType, want) => {
    const media = matchMedia(declared(...types), contentType);
    expect(media && [media.type, media.kind]).toEqual(want);
  });

  it('does not hold a body read under a range to the range schema', () => {
    const [wide] = declared('*/*');
    const validate = Object.assign(() => false, { errors: null }) as unknown as BodyMedia['validate'];
    expect(matchMedia([{ ...wide!, validate }], 'application/json')?.validate).toBeUndefined();
  });
});
