import { describe, expect, it } from 'vitest';
import { createAjv } from '../../openapi/ajv.js';
import { sampleBody } from './sample-body.js';

const ajv = createAjv();

describe('sampleBody', () => {
  it.each([
    [
      'every declared field, enums by variant, readOnly left out',
      {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 10 },
          status: { type: 'string', enum: ['a', 'b'] },
          count: { type: 'integer', minimum: 5 },
          id: { type: 'integer', readOnly: true },
        },
      },
      { name: 'label-name', status: 'b', count: 6 },
    ],
    [
      'formats AJV checks, allOf merged',
      {
        allOf: [
          { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
          {
            type: 'object',
            properties: { link: { type: 'string', format: 'uri' }, on: { type: 'string', format: 'date' } },
          },
        ],
      },
      { at: '2026-01-02T03:04:05Z', link: 'https://example.com/label-link', on: '2026-01-02' },
    ],
  ])('%s', (_, schema, want) => {
    const body = sampleBody(schema, 'label', 1)!;
    expect(body).toEqual(want);
    expect(ajv.validate(schema, body), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('makes no body when a required field cannot be made, or the shape is unknown', () => {
    expect(
      sampleBody({ type: 'object', required: ['p'], properties: { p: { type: 'string', pattern: '^x' } } }, 'l'),
    ).toBeUndefined();
    expect(sampleBody({ oneOf: [{ type: 'object' }] }, 'l')).toBeUndefined();
  });
});
