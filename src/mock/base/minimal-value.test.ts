import { describe, expect, it } from 'vitest';
import { minimalValue, objectMembers } from './minimal-value.js';

describe('minimalValue: the least value a schema takes, the same every time', () => {
  it.each([
    ['const first', { const: 'x', enum: ['y'] }, 'x'],
    ['then the first enum value', { type: 'string', enum: ['b', 'a'], example: 'c' }, 'b'],
    ['then 3.0’s example', { type: 'string', example: 'ex', default: 'd' }, 'ex'],
    ['then 3.1’s examples', { type: 'string', examples: ['first', 'second'] }, 'first'],
    ['then the default', { type: 'integer', default: 7 }, 7],
    ['a date-time', { type: 'string', format: 'date-time' }, '1970-01-01T00:00:00Z'],
    ['a uuid', { type: 'string', format: 'uuid' }, '00000000-0000-0000-0000-000000000000'],
    ['a plain string of minLength x’s', { type: 'string', minLength: 3 }, 'xxx'],
    [
      'a pattern that fixes the start: that start',
      { type: 'string', pattern: '^/v1/items', minLength: 12 },
      '/v1/itemsxxx',
    ],
    ['a pattern beyond a literal start: not met', { type: 'string', pattern: '^a+$', minLength: 1 }, 'x'],
    ['an integer at its lower bound', { type: 'integer', minimum: 2.5 }, 3],
    ['3.0 boolean exclusive minimum', { type: 'integer', minimum: 4, exclusiveMinimum: true }, 5],
    ['3.1 numeric exclusive minimum', { type: 'integer', exclusiveMinimum: 4 }, 5],
    ['a number between exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, 0.5],
    ['a negative upper bound', { type: 'integer', maximum: -3 }, -3],
    ['3.1 type array with null: the other type', { type: ['boolean', 'null'] }, false],
    ['3.0 nullable: the type', { type: 'integer', nullable: true }, 0],
    ['null alone', { type: 'null' }, null],
    ['an array of minItems items', { type: 'array', minItems: 2, items: { type: 'integer', minimum: 1 } }, [1, 1]],
    [
      'an object of its required members only',
      { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } },
      { a: '' },
    ],
    ['an object by its members alone (no type)', { required: ['n'], properties: { n: { type: 'number' } } }, { n: 0 }],
    ['oneOf: the first branch', { oneOf: [{ type: 'boolean' }, { type: 'string' }] }, false],
    [
      "an object beside a oneOf (Box's SearchResultsResponse): the first branch's members merged",
      {
        type: 'object',
        oneOf: [
          { required: ['type'], properties: { type: { enum: ['search_results_items'] } } },
          { required: ['type'], properties: { type: { enum: ['search_results_with_shared_links'] } } },
        ],
      },
      { type: 'search_results_items' },
    ],
    [
      'allOf: the parts merged',
      { allOf: [{ required: ['a'] }, { required: ['b'], properties: { b: { const: 1 } } }] },
      {
        a: '',
        b: 1,
      },
    ],
  ])('%s', (_, schema, want) => expect(minimalValue(schema)).toEqual(want));

  it('stops at a schema already on the path, and nests no deeper than 8 levels', () => {
    const list: Record<string, unknown> = { type: 'array', minItems: 1 };
    list.items = list;
    expect(minimalValue(list)).toEqual([null]);
    // Ten distinct levels, each requiring the next: cut after the eighth.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10; i++) deep = { type: 'object', required: ['d'], properties: { d: deep } };
    expect(JSON.stringify(minimalValue(deep))).toBe('{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":{"d":null}}}}}}}}}');
  });

  describe('with accepts: only the examples and defaults that keep their own schema', () => {
    // A stand-in for the document's compiled validator (valid-body.ts passes spec.compile): this one checks
    // `required` and `format: uri` only, which is all these schemas need.
    const accepts = (schema: Record<string, unknown>, value: unknown) =>
      (!Array.isArray(schema.required) ||
        schema.required.every((name) => typeof value === 'object' && value !== null && name in value)) &&
      (schema.format !== 'uri' || (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(value)));
    it.each([
      ['a valid example is taken', { type: 'string', format: 'uri', example: 'https://a.test/' }, 'https://a.test/'],
      ['a broken one is passed over for the next', { format: 'uri', examples: ['asana.com', 'about:x'] }, 'about:x'],
      ['then a valid default', { type: 'string', format: 'uri', example: 'asana.com', default: 'urn:a' }, 'urn:a'],
      ['else the value by type', { type: 'string', format: 'uri', example: 'asana.com' }, 'about:blank'],
      [
        "an object example without a required member (Box's shared_link): built from its members",
        {
          type: 'object',
          required: ['url', 'accessed'],
          properties: { url: { type: 'string', example: 'u' }, accessed: { enum: ['open'] } },
          example: { url: 'u' },
        },
        { url: 'u', accessed: 'open' },
      ],
    ])('%s', (_, schema, want) => expect(minimalValue(schema, { accepts })).toEqual(want));

    it('without accepts, the first example as written, as before', () => {
      expect(minimalValue({ type: 'string', format: 'uri', example: 'asana.com' })).toBe('asana.com');
    });
  });

  it('objectMembers merges allOf parts once each, even when they refer to each other', () => {
    const base: Record<string, unknown> = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
    const extended: Record<string, unknown> = { allOf: [base, { properties: { name: { type: 'string' } } }] };
    base.allOf = [extended];
    const members = objectMembers(extended);
    expect([...members.properties.keys()]).toEqual(['id', 'name']);
    expect([...members.required]).toEqual(['id']);
    expect(members.closed).toBe(false);
  });
});
