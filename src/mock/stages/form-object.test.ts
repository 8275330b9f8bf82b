import { describe, expect, it } from 'vitest';
import { formObject, type FormField } from './form-object.js';
import type { BodyMedia } from '../../openapi/body-media.js';
import { failure } from '../../../test/support/refusal.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    height: { type: 'integer' },
    ratio: { type: 'number' },
    indoor: { type: 'boolean' },
    colours: { type: 'array', items: { type: 'string' } },
    sizes: { type: 'array', items: { type: 'integer' } },
    care: { type: 'object', properties: { water: { type: 'integer' }, light: { type: 'string' } } },
  },
  additionalProperties: { type: 'integer' },
};

function media(encoding: BodyMedia['encoding'] = {}): BodyMedia {
  const type = 'application/x-www-form-urlencoded';
  return { type, essence: type, kind: 'form', schema: SCHEMA, validate: undefined, encoding };
}

const fields = (...pairs: [string, string, string?][]): FormField[] =>
  pairs.map(([name, value, type]) => ({ name, value, type }));

describe('formObject: a form as the JSON object it stands for (OAS 3.0.3 §4.7.14, §4.7.15)', () => {
  it.each<[string, FormField[], BodyMedia['encoding'], Record<string, unknown>]>([
    [
      'scalars by their property type',
      fields(['name', '7'], ['height', '30'], ['ratio', '1.5'], ['indoor', 'false']),
      {},
      { name: '7', height: 30, ratio: 1.5, indoor: false },
    ],
    [
      'text that is not the type stays text',
      fields(['height', '1.5'], ['ratio', '0x10'], ['indoor', 'yes']),
      {},
      { height: '1.5', ratio: '0x10', indoor: 'yes' },
    ],
    [
      'an int64 beyond 2^53 keeps its digits',
      fields(['height', '9007199254740993']),
      {},
      { height: 9007199254740993n },
    ],
    ['an array from repeated fields (form, exploded)', fields(['sizes', '1'], ['sizes', '2']), {}, { sizes: [1, 2] }],
    ['an array of one field', fields(['colours', 'red']), {}, { colours: ['red'] }],
    [
      'an array split by its style, not exploded',
      fields(['colours', 'red|green']),
      { colours: { style: 'pipeDelimited', explode: false } },
      { colours: ['red', 'green'] },
    ],
    [
      'an array split by commas (form, not exploded)',
      fields(['sizes', '1,2']),
      { sizes: { explode: false } },
      { sizes: [1, 2] },
    ],
    [
      'an object from deepObject fields',
      fields(['care[water]', '2'], ['care[light]', 'low']),
      {},
      { care: { water: 2, light: 'low' } },
    ],
    ['an object from JSON text', fields(['care', '{"water":2}']), {}, { care: { water: 2 } }],
    ['a JSON part', fields(['colours', '["red"]', 'application/json']), {}, { colours: ['red'] }],
    [
      'a JSON part by its encoding',
      fields(['name', '"x"']),
      { name: { contentType: 'application/json' } },
      { name: 'x' },
    ],
    ['other fields by additionalProperties', fields(['extra', '5']), {}, { extra: 5 }],
  ])('%s', (_, given, encoding, want) => {
    expect(formObject(given, media(encoding))).toEqual(want);
  });

  it('makes a field named __proto__ a field, never the prototype', () => {
    const object = formObject(fields(['__proto__', '1']), media());
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(object)).toEqual(['__proto__']);
  });

  it.each<[string, FormField[], string]>([
    ['a field given twice', fields(['name', 'a'], ['name', 'b']), 'body.name must be given once (got 2 values)'],
    ['a JSON part that is not JSON', fields(['care', '{water', 'application/json']), 'body.care is not valid JSON: '],
    [
      'an object given whole and by key',
      fields(['care', '{}'], ['care[water]', '1']),
      'body.care is given both whole and as care[…] fields',
    ],
  ])('refuses %s with a 400 naming the field', (_, given, message) => {
    const answer = failure(() => formObject(given, media()));
    expect(answer).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(answer.message.startsWith(message)).toBe(true);
  });
});
