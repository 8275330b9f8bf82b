import { describe, expect, it } from 'vitest';
import {
  constOf,
  examplesOf,
  lowerBound,
  mainType,
  subschemasOf,
  typeAllowsNull,
  typesOf,
  upperBound,
  walkSchema,
  type SchemaNode,
} from './schema-keywords.js';

describe('typesOf reads both dialects', () => {
  it.each([
    ['3.0 type', { type: 'string' }, ['string']],
    ['3.0 nullable with a type', { type: 'string', nullable: true }, ['string', 'null']],
    ['3.0 nullable without a type adds nothing (OAS 3.0.3 §4.7.24.1)', { nullable: true }, undefined],
    ['3.1 type array', { type: ['string', 'null'] }, ['string', 'null']],
    ['no type', { properties: {} }, undefined],
  ])('%s', (_, schema, want) => expect(typesOf(schema)).toEqual(want));

  it('mainType is the one non-null type', () => {
    expect(mainType({ type: ['integer', 'null'] })).toBe('integer');
    expect(mainType({ type: ['integer', 'string'] })).toBeUndefined();
  });

  it('an enum without null refuses null even where nullable adds it to the type (OAS 3.0.3)', () => {
    expect(typeAllowsNull({ type: 'string', nullable: true, enum: ['a'] })).toBe(false);
    expect(typeAllowsNull({ type: 'string', nullable: true })).toBe(true);
    expect(typeAllowsNull({ const: 1 })).toBe(false);
    expect(typeAllowsNull({})).toBe(true);
  });
});

describe('bounds in both dialects', () => {
  it.each([
    ['3.0 inclusive', { minimum: 1 }, { value: 1, exclusive: false }],
    ['3.0 boolean exclusive', { minimum: 1, exclusiveMinimum: true }, { value: 1, exclusive: true }],
    ['3.1 numeric exclusive', { exclusiveMinimum: 1 }, { value: 1, exclusive: true }],
    ['3.1 both, the exclusive tighter', { minimum: 0, exclusiveMinimum: 1 }, { value: 1, exclusive: true }],
    ['3.1 both, the inclusive tighter', { minimum: 5, exclusiveMinimum: 1 }, { value: 5, exclusive: false }],
    ['3.1 both equal: exclusive', { minimum: 1, exclusiveMinimum: 1 }, { value: 1, exclusive: true }],
    ['none', {}, undefined],
  ])('lower: %s', (_, schema, want) => expect(lowerBound(schema)).toEqual(want));

  it('upper bound takes the smaller', () => {
    expect(upperBound({ maximum: 10, exclusiveMaximum: 9 })).toEqual({ value: 9, exclusive: true });
    expect(upperBound({ maximum: 10, exclusiveMaximum: true })).toEqual({ value: 10, exclusive: true });
  });
});

it('const and examples', () => {
  expect(constOf({ const: null })).toEqual({ value: null });
  expect(constOf({})).toBeUndefined();
  expect(examplesOf({ example: 1, examples: [2, 3] })).toEqual([1, 2, 3]);
});

it('subschemasOf names where each sits', () => {
  const schema = {
    properties: { 'a/b': { type: 'string' } },
    prefixItems: [{ type: 'integer' }],
    items: { type: 'null' },
    allOf: [{}, true],
  };
  expect(subschemasOf(schema).map((s) => s.at)).toEqual(['/items', '/allOf/0', '/prefixItems/0', '/properties/a~1b']);
});

describe('walkSchema', () => {
  it('stops at a schema already on its path (recursion) and visits a shared one on each path', () => {
    const leaf: SchemaNode = { type: 'string' };
    const node: SchemaNode = { type: 'object', properties: { left: leaf, right: leaf } };
    (node.properties as SchemaNode).child = node;
    const seen: string[] = [];
    walkSchema(node, (_, at) => void seen.push(at));
    expect(seen).toEqual(['', '/properties/left', '/properties/right']);
  });

  it('bounds the depth and honours skip', () => {
    let chain: SchemaNode = { type: 'string' };
    for (let i = 0; i < 100; i++) chain = { items: chain };
    let deepest = 0;
    walkSchema(chain, (_, __, depth) => void (deepest = Math.max(deepest, depth)), 10);
    expect(deepest).toBe(10);
    const seen: string[] = [];
    walkSchema(
      { properties: { a: { items: {} } } },
      (_, at) => (seen.push(at), at === '/properties/a' ? 'skip' : undefined),
    );
    expect(seen).toEqual(['', '/properties/a']);
  });
});
