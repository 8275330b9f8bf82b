import { describe, expect, it } from 'vitest';
import { dialectOf, normalizeDocument } from './dialect.js';

/** A document whose one component schema is `schema`, normalized as its version says. */
function normalized(version: string, schema: object): unknown {
  const document = { openapi: version, info: { title: 't', version: '1' }, components: { schemas: { S: schema } } };
  return normalizeDocument(document, dialectOf(document)).components.schemas.S;
}

describe('normalizeDocument: 3.0 schemas in JSON Schema 2020-12 form', () => {
  it.each([
    ['nullable adds null to the type', { type: 'string', nullable: true }, { type: ['string', 'null'] }],
    [
      'nullable keeps the enum, which still refuses null (OAS 3.0.3 §4.7.24.1)',
      { type: 'string', nullable: true, enum: ['a'] },
      { type: ['string', 'null'], enum: ['a'] },
    ],
    ['nullable: false says nothing', { type: 'string', nullable: false }, { type: 'string' }],
    [
      'nullable beside oneOf adds a null branch',
      { nullable: true, oneOf: [{ type: 'string' }] },
      { oneOf: [{ type: 'string' }, { type: 'null' }] },
    ],
    [
      'nullable beside allOf: null or the allOf',
      { nullable: true, allOf: [{ type: 'string' }] },
      { anyOf: [{ type: 'null' }, { allOf: [{ type: 'string' }] }] },
    ],
    ['nullable with nothing to add to has no effect', { nullable: true, minLength: 1 }, { minLength: 1 }],
    [
      'boolean exclusiveMinimum',
      { type: 'integer', minimum: 1, exclusiveMinimum: true },
      { type: 'integer', exclusiveMinimum: 1 },
    ],
    [
      'exclusiveMaximum: false',
      { type: 'integer', maximum: 9, exclusiveMaximum: false },
      { type: 'integer', maximum: 9 },
    ],
    [
      '$ref siblings ignored (§4.7.23)',
      { $ref: '#/components/schemas/T', description: 'd', maxLength: 2 },
      { $ref: '#/components/schemas/T' },
    ],
    [
      'nested: properties, items, allOf parts',
      { properties: { a: { type: 'integer', nullable: true }, b: { items: { type: 'string', nullable: true } } } },
      { properties: { a: { type: ['integer', 'null'] }, b: { items: { type: ['string', 'null'] } } } },
    ],
  ])('%s', (_, schema, want) => expect(normalized('3.0.3', schema)).toEqual(want));
});

describe('normalizeDocument: 3.1 schemas', () => {
  it('keeps $ref siblings beside the reference, as an allOf part', () => {
    expect(normalized('3.1.0', { $ref: '#/components/schemas/T', maxLength: 2 })).toEqual({
      maxLength: 2,
      allOf: [{ $ref: '#/components/schemas/T' }],
    });
  });

  it('drops siblings that only document the reference', () => {
    expect(normalized('3.1.0', { $ref: '#/components/schemas/T', description: 'd', 'x-a': 1 })).toEqual({
      $ref: '#/components/schemas/T',
    });
  });

  it('leaves 2020-12 keywords alone and drops nullable, no keyword there', () => {
    const schema = { type: ['string', 'null'], exclusiveMinimum: 1, const: 'x', prefixItems: [{}], nullable: true };
    expect(normalized('3.1.0', schema)).toEqual({
      type: ['string', 'null'],
      exclusiveMinimum: 1,
      const: 'x',
      prefixItems: [{}],
    });
  });

  it('names a JSON Schema dialect other than 2020-12', () => {
    expect(dialectOf({ openapi: '3.1.0', jsonSchemaDialect: 'https://json-schema.org/draft-07/schema' })).toEqual({
      version: '3.1',
      otherDialect: 'https://json-schema.org/draft-07/schema',
    });
    expect(
      dialectOf({ openapi: '3.1.1', jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base' }).otherDialect,
    ).toBeUndefined();
  });
});

it('leaves the document it is given unchanged, and examples as they are', () => {
  const document = {
    openapi: '3.0.3',
    paths: {
      '/a': {
        get: {
          parameters: [
            {
              name: 'q',
              in: 'query',
              schema: { type: 'string', nullable: true },
              example: { nullable: true, type: 'x' },
            },
          ],
        },
      },
    },
  };
  const before = structuredClone(document);
  const after = normalizeDocument(document, dialectOf(document));
  expect(document).toEqual(before);
  expect(after.paths['/a'].get.parameters[0]).toEqual({
    name: 'q',
    in: 'query',
    schema: { type: ['string', 'null'] },
    example: { nullable: true, type: 'x' },
  });
});
