import { brokenFormat, FORMATS } from './formats.js';
import { NESTING } from './invalid-variants.js';
import { ITEMS_CAP, STRING_CAP } from './plan-arbitrary.js';
import { formatEnforced } from './schema-check.js';
import { MAX_DEPTH, OPTIONAL_DEPTH } from './value-plan.js';

/**
 * What the generators do with each keyword: the values they make as valid, the ones they make as invalid, and a
 * schema that shows both (keyword-table.test.ts makes each example's values and mutations and checks the row says
 * what they do). docs/contract.md prints this table as it is (the same test compares them).
 */
export interface KeywordRow {
  keyword: string;
  valid: string;
  invalid: string;
  /** A schema with the keyword. */
  example: unknown;
  /** A piece of the label of a mutation of `example` that breaks the keyword; undefined: none is offered. */
  broken?: string;
}

/** A schema that contains itself, as a loaded document holds one: a node whose children are nodes. */
function tree(): unknown {
  const node: { type: string; properties: Record<string, unknown> } = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 3 } },
  };
  node.properties.children = { type: 'array', items: node };
  return node;
}

export const KEYWORDS: KeywordRow[] = [
  {
    keyword: '`type`, 3.1 type arrays',
    valid: 'a value of each type allowed',
    invalid: 'a value of each JSON type refused',
    example: { type: ['integer', 'string'] },
    broken: 'true (a JSON boolean) where integer or string is required',
  },
  {
    keyword: '`nullable` (3.0)',
    valid: 'null among the values',
    invalid: 'null where the type refuses it, or an `enum` without null does (OAS 3.0.3 §4.7.24.1)',
    example: { type: 'string', enum: ['a', 'b'], nullable: true },
    broken: 'null is not in the enum [a, b]',
  },
  {
    keyword: '`enum`',
    valid: 'each value',
    invalid: 'empty, other letter case, a leading space, an unknown value',
    example: { type: 'string', enum: ['available', 'sold'] },
    broken: '"AVAILABLE" is not in the enum',
  },
  {
    keyword: '`const` (3.1)',
    valid: 'the value',
    invalid: 'another value',
    example: { const: 'ticket' },
    broken: 'is not the const "ticket"',
  },
  {
    keyword: '`minimum`, `maximum`, int32/int64 ranges',
    valid: 'the whole range, 0, ±1, the int32 and 2^53 edges and the ends favoured',
    invalid: 'just below and above; beyond int32/int64; 20 digits; `"7"`',
    example: { type: 'integer', minimum: 1, maximum: 100 },
    broken: '101 is above the maximum 100',
  },
  {
    keyword: '`exclusiveMinimum`, `exclusiveMaximum` (3.0 boolean, 3.1 number)',
    valid: 'strictly inside',
    invalid: 'the bound itself',
    example: { type: 'number', exclusiveMinimum: 0 },
    broken: '0 is not above the exclusive minimum 0',
  },
  {
    keyword: '`multipleOf`',
    valid: 'multiples',
    invalid: 'a value between two multiples',
    example: { type: 'integer', multipleOf: 5 },
    broken: 'is not a multiple of 5',
  },
  {
    keyword: '`minLength`, `maxLength`',
    valid: `lengths in code points, ASCII to emoji and control characters, up to ${STRING_CAP}`,
    invalid: 'one code point short, one long',
    example: { type: 'string', minLength: 2, maxLength: 8 },
    broken: 'longer than maxLength 8',
  },
  {
    keyword: '`pattern`',
    valid: "fast-check's `stringMatching` (see the fallback below)",
    invalid: 'a string of the right length the pattern does not match',
    example: { type: 'string', pattern: '^[A-Z]{3}$' },
    broken: 'does not match the pattern ^[A-Z]{3}$',
  },
  {
    keyword: '`format`',
    valid: 'see the format table',
    invalid: 'a value breaking it, where the mock checks the format',
    example: { type: 'string', format: 'date' },
    broken: '"2026-13-45" is not a date',
  },
  {
    keyword: '`items`, `prefixItems`',
    valid: "each position from its schema (2020-12's `prefixItems` then `items`)",
    invalid: 'the first items broken one at a time; an item beyond `prefixItems` where `items` is false',
    example: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    broken: 'an item beyond its 1 prefixItems (items is false)',
  },
  {
    keyword: '`minItems`, `maxItems`',
    valid: `up to ${ITEMS_CAP} items (more where \`minItems\` asks)`,
    invalid: 'one item too few, one too many',
    example: { type: 'array', items: { type: 'integer' }, maxItems: 2 },
    broken: '3 items, more than maxItems 2',
  },
  {
    keyword: '`uniqueItems`',
    valid: 'distinct items',
    invalid: 'two equal items',
    example: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
    broken: 'two equal items (uniqueItems)',
  },
  {
    keyword: '`properties`, `required`',
    valid: 'required properties always, optional ones present and absent',
    invalid: 'each required property left out; each property broken as its own schema says',
    example: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    broken: 'body.name: left out (it is required)',
  },
  {
    keyword: '`additionalProperties`',
    valid: 'false: no other member; a schema: 0–2 more members valid by it; otherwise none is sent',
    invalid: 'false: an unknown member; a schema: a member it refuses',
    example: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    broken: 'an unknown property "unexpected" (additionalProperties is false)',
  },
  {
    keyword: '`patternProperties`',
    valid: '0–2 members named by the pattern',
    invalid: 'a member it refuses',
    example: { type: 'object', patternProperties: { '^x-': { type: 'integer' } } },
    broken: 'body.x-: "x" (a JSON string) where integer is required',
  },
  {
    keyword: '`minProperties`, `maxProperties`',
    valid: 'counts within',
    invalid: 'one member too few, one too many',
    example: { type: 'object', properties: { a: { type: 'string' } }, minProperties: 1 },
    broken: '0 properties, fewer than minProperties 1',
  },
  {
    keyword: '`allOf`',
    valid: 'every part at once (a property two parts name holds for both)',
    invalid: "each part's keywords broken",
    example: { allOf: [{ type: 'object', required: ['a'] }, { properties: { a: { type: 'integer' } } }] },
    broken: 'body.a: left out (it is required)',
  },
  {
    keyword: '`oneOf`, `anyOf`',
    valid: 'one branch at a time (for `oneOf`, values that hold for that branch only)',
    invalid: 'a value of a type no branch takes',
    example: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    broken: 'true (a JSON boolean) where string or integer is required',
  },
  {
    keyword: '`discriminator`',
    valid:
      "its property set to the branch's name: the `mapping` key, the branch's `const`/`enum`, or its component name",
    invalid: 'a tag naming no branch, where the branches fix the tag',
    example: {
      oneOf: [
        { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' } } },
        { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' } } },
      ],
      discriminator: { propertyName: 'kind' },
    },
    broken: 'body.kind: "contract-unknown-kind" names no branch of the discriminator',
  },
  {
    keyword: '`not`',
    valid: 'values it refuses',
    invalid: 'a value it describes',
    example: { type: 'string', not: { const: 'forbidden' } },
    broken: '"forbidden" is what its "not" describes',
  },
  {
    keyword: '`readOnly`, `writeOnly`',
    valid: 'left out of requests (readOnly) and of responses (writeOnly)',
    invalid: 'none: sending one is not refused (OAS 3.0.3 §4.7.25: SHOULD NOT)',
    example: { type: 'object', required: ['id'], properties: { id: { type: 'integer', readOnly: true } } },
  },
  {
    keyword: 'recursion (`$ref` cycles)',
    valid: `optional parts to ${OPTIONAL_DEPTH} levels, required ones to ${MAX_DEPTH}; deeper is not run, naming \`$ref\``,
    invalid: `as the parts, ${NESTING} levels deep`,
    example: tree(),
    broken: 'body.name: longer than maxLength 3',
  },
  {
    keyword: '`if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `propertyNames`, `contains`',
    valid: 'values checked against them before they are sent',
    invalid: '`dependentRequired`: the dependent property left out; the others: none',
    example: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      dependentRequired: { a: ['b'] },
    },
    broken: 'body.b: left out while a is present (dependentRequired)',
  },
  {
    keyword: '`unevaluatedProperties`, `unevaluatedItems`, `$dynamicRef`',
    valid: 'none: the case is not run, naming the keyword',
    invalid: 'none',
    example: { type: 'object', unevaluatedProperties: false },
  },
];

/** The keyword table as docs/contract.md prints it. */
export function keywordTable(): string {
  const rows = KEYWORDS.map((row) => `| ${row.keyword} | ${row.valid} | ${row.invalid} |`);
  return ['| keyword | valid values | invalid values (one at a time) |', '|---|---|---|', ...rows].join('\n');
}

/** What the generators make of a format, in words. */
function generatedAs(format: string): string {
  const entry = FORMATS[format]!;
  if (entry.type === 'integer')
    return format === 'int32' ? 'integers within ±2^31' : 'integers within ±2^63 (bigints beyond 2^53)';
  if (entry.type === 'number') return 'any number';
  if (!entry.arbitrary) return 'any string';
  return `like \`${entry.sample!('contract', 0)}\``;
}

/** The format table as docs/contract.md prints it: generated, broken, and whether the mock's validator checks it. */
export function formatTable(): string {
  const rows = Object.entries(FORMATS).map(([format, entry]) => {
    const broken =
      entry.type === 'string'
        ? (brokenFormat(format) ?? 'none')
        : format === 'int32'
          ? '2147483648'
          : format === 'int64'
            ? '9223372036854775808'
            : 'none';
    const shown = broken === 'none' ? 'none' : `\`${broken}\``;
    return `| \`${format}\` | ${entry.source} | ${generatedAs(format)} | ${shown} | ${formatEnforced(format) ? 'yes' : 'no'} |`;
  });
  return [
    '| format | defined by | valid values | invalid value | checked by the mock |',
    '|---|---|---|---|---|',
    ...rows,
    '| any other | — | any string | none | no |',
  ].join('\n');
}
