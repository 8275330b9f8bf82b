import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { bigintAware, int64Format } from '../../openapi/bigint-aware.js';
import { fc, loadFastCheck } from './fast-check.js';
import { validValues } from './valid-arbitrary.js';
import { mutationsOf } from './invalid-variants.js';
import { checkValue } from './schema-check.js';
import { planValue } from './value-plan.js';
import { planSample } from './plan-sample.js';
import { FORMATS } from './formats.js';
import type { SchemaLike } from './json-schema.js';

await loadFastCheck();

/**
 * An oracle apart from the generators' own checker: AJV's JSON Schema 2020-12 build with ajv-formats 3 and the
 * project's int64 rule, bigints judged as the mock judges them (bigint-aware.ts), and OpenAPI 3.0's two dialect
 * keywords rewritten the way OAS 3.0.3 §4.7.24.1 reads them (nullable adds null to the type; a boolean exclusive
 * bound makes its bound exclusive). The discriminator is an annotation here, as issue 52 makes it.
 */
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addFormat('int64', int64Format);

function as2020(schema: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (seen.has(schema)) return seen.get(schema);
  if (Array.isArray(schema)) {
    const copy: unknown[] = [];
    seen.set(schema, copy);
    for (const item of schema) copy.push(as2020(item, seen));
    return copy;
  }
  const source = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  seen.set(schema, copy);
  for (const [key, value] of Object.entries(source))
    copy[key] = key === 'enum' || key === 'const' ? value : as2020(value, seen);
  if (source.nullable === true && source.type !== undefined) copy.type = [...[source.type].flat(), 'null'];
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (source[exclusive] === true) {
      copy[exclusive] = source[bound];
      delete copy[bound];
    } else if (source[exclusive] === false) delete copy[exclusive];
  }
  delete copy.nullable;
  delete copy.discriminator;
  return copy;
}

function oracle(schema: unknown): (value: unknown) => boolean {
  const validate = bigintAware(ajv.compile(as2020(schema) as object));
  return (value) => validate(value);
}

const show = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** Schemas per keyword, each a row: [what it shows, the schema, options]. */
const petBase = {
  type: 'object',
  required: ['petType', 'name'],
  properties: { petType: { type: 'string' }, name: { type: 'string', minLength: 1 } },
  discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat' } },
};
const cat = {
  allOf: [
    petBase,
    {
      type: 'object',
      required: ['huntingSkill'],
      properties: { huntingSkill: { type: 'string', enum: ['lazy', 'clueless'] } },
    },
  ],
};
const dog = {
  allOf: [
    petBase,
    { type: 'object', required: ['packSize'], properties: { packSize: { type: 'integer', minimum: 0 } } },
  ],
};
const document = { components: { schemas: { Pet: petBase, Cat: cat, Dog: dog } } };
const tree: Record<string, unknown> = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
(tree.properties as Record<string, unknown>).children = { type: 'array', items: tree };
const list: Record<string, unknown> = {
  type: 'object',
  required: ['value', 'next'],
  properties: { value: { type: 'integer' } },
};
(list.properties as Record<string, unknown>).next = { anyOf: [list, { type: 'null' }] };

const stringFormats = Object.entries(FORMATS)
  .filter(([, entry]) => entry.type === 'string')
  .map(([format]): Row => [`format: ${format}`, { type: 'string', format }]);

/** The oracle cannot compile a cycle of objects: a recursive row gives it the same schema by `$ref`. */
interface RowOptions {
  document?: unknown;
  direction?: 'request' | 'response' | 'any';
  oracle?: unknown;
  /** How many distinct values 150 samples must hold at least (fewer exist for a const or a small enum). */
  distinct?: number;
}
type Row = [string, unknown, RowOptions?];

const treeByRef = {
  $ref: '#/$defs/tree',
  $defs: {
    tree: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/tree' } } },
    },
  },
};
const listByRef = {
  $ref: '#/$defs/list',
  $defs: {
    list: {
      type: 'object',
      required: ['value', 'next'],
      properties: { value: { type: 'integer' }, next: { anyOf: [{ $ref: '#/$defs/list' }, { type: 'null' }] } },
    },
  },
};

const ROWS: Row[] = [
  ...stringFormats,
  ['format: int32 on an integer', { type: 'integer', format: 'int32' }],
  ['format: int64 on an integer', { type: 'integer', format: 'int64' }],
  ['format: int64 on a number', { type: 'number', format: 'int64' }],
  [
    'format: float and double',
    {
      type: 'object',
      required: ['f', 'd'],
      properties: { f: { type: 'number', format: 'float' }, d: { type: 'number', format: 'double' } },
    },
  ],
  ['format with a length', { type: 'string', format: 'email', maxLength: 20 }],
  ['pattern', { type: 'string', pattern: '^[A-Z]{2}-\\d{3,5}$' }],
  ['pattern, unanchored, with lengths', { type: 'string', pattern: 'ab', minLength: 3, maxLength: 6 }],
  ['pattern with lookaheads (the fallback)', { type: 'string', pattern: '^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,12}$' }],
  ['pattern with \\b (the fallback)', { type: 'string', pattern: '\\bcat\\b' }],
  ['two patterns (allOf)', { allOf: [{ type: 'string', pattern: '^a' }, { pattern: 'z$' }] }],
  ['const (3.1)', { const: 'fixed' }, { distinct: 1 }],
  ['const object', { const: { a: 1 } }, { distinct: 1 }],
  ['enum of strings', { type: 'string', enum: ['available', 'pending', 'sold'] }, { distinct: 3 }],
  ['enum of numbers', { type: 'integer', enum: [1, 2, 3] }, { distinct: 3 }],
  ['3.0 nullable enum: null is not in the enum', { type: 'string', enum: ['a', 'b'], nullable: true }, { distinct: 2 }],
  ['3.0 nullable enum with null', { type: 'string', enum: ['a', null], nullable: true }, { distinct: 2 }],
  ['3.0 nullable string', { type: 'string', nullable: true, maxLength: 3 }],
  ['3.1 type array with null', { type: ['string', 'null'], minLength: 2 }],
  ['3.1 type array of two types', { type: ['integer', 'boolean'] }],
  ['multipleOf on integers', { type: 'integer', multipleOf: 5, minimum: 3, maximum: 1000 }],
  ['multipleOf 0.25 on numbers', { type: 'number', multipleOf: 0.25 }],
  ['multipleOf 0.01 on numbers', { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 10 }],
  [
    '3.0 boolean exclusive bounds, integer',
    { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
  ],
  [
    '3.0 boolean exclusive bounds, number',
    { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
  ],
  ['3.1 numeric exclusive bounds, integer', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 5 }],
  ['3.1 numeric exclusive bounds, number', { type: 'number', exclusiveMinimum: -1.5, exclusiveMaximum: 2.5 }],
  ['minItems, maxItems', { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 }],
  [
    'uniqueItems',
    { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 }, uniqueItems: true, minItems: 2 },
  ],
  [
    'uniqueItems of objects',
    { type: 'array', items: { type: 'object', properties: { a: { type: 'boolean' } } }, uniqueItems: true },
  ],
  [
    'prefixItems, then no more items',
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 1 },
  ],
  [
    'prefixItems, then items of a type',
    { type: 'array', prefixItems: [{ const: 'head' }], items: { type: 'boolean' } },
  ],
  [
    'minProperties, maxProperties',
    {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } },
      minProperties: 2,
      maxProperties: 2,
    },
  ],
  [
    'additionalProperties false',
    {
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      additionalProperties: false,
    },
  ],
  [
    'additionalProperties a schema (a map)',
    { type: 'object', additionalProperties: { type: 'integer', format: 'int32' } },
  ],
  [
    'patternProperties',
    { type: 'object', patternProperties: { '^x-': { type: 'string', maxLength: 4 } }, additionalProperties: false },
  ],
  ['minProperties met by a map', { type: 'object', additionalProperties: { type: 'boolean' }, minProperties: 2 }],
  [
    'oneOf with overlapping branches',
    {
      oneOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
      ],
    },
  ],
  [
    'oneOf of scalars',
    {
      oneOf: [
        { type: 'integer', multipleOf: 3 },
        { type: 'integer', multipleOf: 5 },
      ],
    },
  ],
  [
    'anyOf',
    {
      anyOf: [
        { type: 'string', format: 'date' },
        { type: 'integer', minimum: 10 },
      ],
    },
  ],
  [
    'allOf naming one property twice',
    {
      allOf: [
        { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 5 } } },
        { properties: { n: { maximum: 7 } } },
      ],
    },
    { distinct: 3 },
  ],
  [
    'discriminator with a mapping and without (component names)',
    { oneOf: [cat, dog], discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat' } } },
    { document },
  ],
  ['a schema inheriting a discriminator through allOf', cat, { document }],
  ['not of an enum', { type: 'string', not: { enum: ['forbidden', 'x'] }, maxLength: 10 }],
  ['not of a multipleOf', { type: 'integer', minimum: 0, maximum: 100, not: { multipleOf: 2 } }],
  ['a recursive tree to a bounded depth', tree, { oracle: treeByRef }],
  ['a recursive list that must end in null', list, { oracle: listByRef }],
  [
    'readOnly left out of requests',
    {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
    },
    { direction: 'request' },
  ],
  [
    'writeOnly left out of responses',
    {
      type: 'object',
      required: ['name'],
      properties: { password: { type: 'string', writeOnly: true }, name: { type: 'string' } },
    },
    { direction: 'response' },
  ],
  [
    'a nested optional object (the crash of issue 53)',
    {
      type: 'object',
      properties: {
        category: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, name: { type: 'string' } },
        },
      },
    },
  ],
];

/** What a request validator does with readOnly (operations.ts forRequest) and a response one with writeOnly. */
function forDirection(schema: unknown, direction: string | undefined): unknown {
  const object = schema as {
    required?: string[];
    properties?: Record<string, { readOnly?: boolean; writeOnly?: boolean }>;
  };
  if (!object.required || !object.properties) return schema;
  const flag = direction === 'response' ? 'writeOnly' : 'readOnly';
  return { ...object, required: object.required.filter((name) => object.properties![name]?.[flag] !== true) };
}

describe.each(ROWS)('%s', (_, schema, options = {}) => {
  const judge = oracle(options.oracle ?? forDirection(schema, options.direction ?? 'request'));
  const values = validValues(schema, options);

  it('generates only values the schema takes (AJV 2020 as oracle), and the checker agrees', () => {
    expect(values.ok, show(values)).toBe(true);
    if (!values.ok) return;
    const samples = fc.sample(values.value, { seed: 53, numRuns: 150 });
    for (const value of samples) {
      expect(judge(value), `${show(value)} ${show(ajv.errors)}`).toBe(true);
      expect(checkValue(schema, value, options.direction ?? 'request').valid, show(value)).toBe(true);
    }
    // Not one value over and over: the generator varies (a fallback stands in only where a value missed).
    expect(new Set(samples.map(show)).size).toBeGreaterThanOrEqual(options.distinct ?? 4);
  });

  it('makes a deterministic value the schema takes', () => {
    const plan = planValue(schema, options);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const sample = planSample(plan.value, 'label', 0);
    expect(sample.ok, show(sample)).toBe(true);
    if (sample.ok) expect(judge(sample.value), show(sample.value)).toBe(true);
  });

  it('breaks one keyword at a time: every mutation of every valid value is refused', () => {
    if (!values.ok) return;
    const mutations = mutationsOf(schema as SchemaLike, 'body', options);
    const valid = fc.sample(values.value, { seed: 7, numRuns: 25 });
    for (const mutation of mutations)
      for (const value of valid) {
        const broken = mutation.apply(value);
        expect(judge(broken), `${mutation.label}: ${show(value)} → ${show(broken)}`).toBe(false);
      }
  });
});

describe('the mutations name the keyword they break', () => {
  const labels = (schema: unknown, options = {}) =>
    mutationsOf(schema as SchemaLike, 'body', options).map((m) => m.label);

  it.each([
    ['format', { type: 'string', format: 'uuid' }, 'body: "not-a-uuid" is not a uuid'],
    ['type', { type: 'string' }, 'body: 7 (a JSON integer) where string is required'],
    [
      'null where not allowed',
      { type: 'object', properties: { a: { type: 'string' } } },
      'body.a: null (a JSON null) where string is required',
    ],
    ['enum', { type: 'string', enum: ['a', 'b'] }, 'body: "A" is not in the enum [a, b]'],
    ['minLength', { type: 'string', minLength: 3 }, 'body: shorter than minLength 3'],
    ['maxLength', { type: 'string', maxLength: 3 }, 'body: longer than maxLength 3'],
    ['minimum', { type: 'number', minimum: 2 }, 'body: below the minimum 2'],
    ['maximum', { type: 'number', maximum: 2 }, 'body: above the maximum 2'],
    ['int32', { type: 'integer', format: 'int32' }, 'body: 2147483648 is outside int32 range'],
    ['a date-time', { type: 'string', format: 'date-time' }, 'body: "not-a-date-time" is not a date-time'],
    ['required', { type: 'object', required: ['a'] }, 'body.a: left out (it is required)'],
    [
      'pattern',
      { type: 'string', pattern: '^[a-z]+$' },
      'body: "contract-not-matching" does not match the pattern ^[a-z]+$',
    ],
    ['const', { const: 'fixed' }, 'body: "" is not the const "fixed"'],
    [
      '3.0.3 nullable with an enum',
      { type: 'string', enum: ['a'], nullable: true },
      'body: null is not in the enum [a]',
    ],
    [
      'exclusive minimum (3.0)',
      { type: 'number', minimum: 0, exclusiveMinimum: true },
      'body: 0 is not above the exclusive minimum 0',
    ],
    [
      'exclusive minimum (3.1)',
      { type: 'number', exclusiveMinimum: 0 },
      'body: 0 is not above the exclusive minimum 0',
    ],
    ['exclusive minimum on integers', { type: 'integer', exclusiveMinimum: 0 }, 'body: 0 is below the minimum 1'],
    ['multipleOf', { type: 'integer', multipleOf: 5 }, 'body: 1 is not a multiple of 5'],
    ['minItems', { type: 'array', minItems: 2 }, 'body: 1 items, fewer than minItems 2'],
    ['maxItems', { type: 'array', maxItems: 1, items: { type: 'integer' } }, 'body: 2 items, more than maxItems 1'],
    [
      'uniqueItems',
      { type: 'array', uniqueItems: true, items: { type: 'integer' } },
      'body: two equal items (uniqueItems)',
    ],
    ['items', { type: 'array', items: { type: 'integer' } }, 'body[0]: "x" (a JSON string) where integer is required'],
    [
      'prefixItems',
      { type: 'array', prefixItems: [{ type: 'string' }], items: false },
      'body: an item beyond its 1 prefixItems (items is false)',
    ],
    [
      'minProperties',
      { type: 'object', minProperties: 1, properties: { a: { type: 'string' } } },
      'body: 0 properties, fewer than minProperties 1',
    ],
    [
      'maxProperties',
      { type: 'object', maxProperties: 1, properties: { a: { type: 'string' }, b: { type: 'string' } } },
      'body: 2 properties, more than maxProperties 1',
    ],
    [
      'additionalProperties false',
      { type: 'object', additionalProperties: false },
      'body: an unknown property "unexpected" (additionalProperties is false)',
    ],
    [
      'additionalProperties a schema',
      { type: 'object', additionalProperties: { type: 'integer' } },
      'body.extra: "x" (a JSON string) where integer is required',
    ],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^x-': { type: 'integer' } } },
      'body.x-: "x" (a JSON string) where integer is required',
    ],
    ['not', { type: 'string', not: { const: 'no' } }, 'body: "no" is what its "not" describes'],
    [
      // With branches tagged only by their names (Cat, Dog), an unknown tag still matches a plain oneOf branch: no
      // mutation is offered there. Where the branches fix the tag, it is.
      'discriminator, where the branches fix the tag',
      {
        oneOf: [
          { type: 'object', required: ['kind'], properties: { kind: { const: 'a' } } },
          { type: 'object', required: ['kind'], properties: { kind: { const: 'b' } } },
        ],
        discriminator: { propertyName: 'kind' },
      },
      'body.kind: "contract-unknown-kind" names no branch of the discriminator',
    ],
    [
      'required, nested',
      {
        type: 'object',
        properties: { c: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
      },
      'body.c.id: left out (it is required)',
    ],
  ])('%s', (_, schema, label) => {
    expect(labels(schema, { document })).toContain(label);
  });

  it('offers no mutation for what the validator does not enforce: an unknown format, password, a plain integer beyond int64', () => {
    expect(labels({ type: 'string', format: 'password' }).filter((l) => l.includes('password'))).toEqual([]);
    expect(labels({ type: 'string', format: 'idn-email' }).filter((l) => l.includes('idn-email'))).toEqual([]);
    expect(labels({ type: 'integer' }).some((l) => l.includes('outside'))).toBe(false);
    expect(labels({ type: 'integer', format: 'int64' })).toContain('body: 9223372036854775808 is outside int64 range');
  });

  it('offers only what a given validator refuses', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'string', maxLength: 2 } } };
    const lax = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
    expect(labels(schema).some((l) => l.includes('maxLength'))).toBe(true);
    const offered = mutationsOf(schema as SchemaLike, 'body', { validate: lax }).map((m) => m.label);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((label) => label.startsWith('body: ') && label.includes('where object is required'))).toBe(
      true,
    );
  });
});

describe('keywords that cannot be honoured are named, never guessed', () => {
  it.each([
    ['a backreference no fallback can satisfy', { type: 'string', pattern: '^(a+)-\\1$' }, 'pattern'],
    ['contradicting allOf bounds', { allOf: [{ type: 'integer', minimum: 10 }, { maximum: 5 }] }, 'minimum'],
    ['unevaluatedProperties', { type: 'object', unevaluatedProperties: false }, 'unevaluatedProperties'],
    ['an enum no other keyword allows', { type: 'string', enum: ['a'], minLength: 2 }, 'minLength'],
  ])('%s', (_, schema, keyword) => {
    const values = validValues(schema);
    expect(values.ok).toBe(false);
    if (!values.ok) expect(values.unhonoured.keyword).toBe(keyword);
  });

  it('a required recursion without end', () => {
    const loop: Record<string, unknown> = { type: 'object', required: ['next'] };
    loop.properties = { next: loop };
    const values = validValues(loop);
    expect(values).toMatchObject({ ok: false, unhonoured: { keyword: '$ref' } });
  });
});

describe('schemas that hold themselves', () => {
  it('are checked without end only as far as a bound: undecided, never a stack overflow', () => {
    const loop: Record<string, unknown> = {};
    loop.allOf = [loop];
    expect(checkValue(loop, 1)).toMatchObject({ valid: undefined, keyword: 'depth' });
  });
});
