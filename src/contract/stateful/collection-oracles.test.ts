import { describe, expect, it } from 'vitest';
import type { ResourceCollection, ResourceOperation } from '../../openapi/resource-types.js';
import { refusedAsDeclared, refusedBody } from './collection-oracles.js';
import { judgesMoreFields } from './resource-items.js';

/**
 * The pure rules of the collection oracles: which status refuses a bad create as the document declares, the body
 * resource.refused-create sends and the marker it recognises a stored item by, and when the fixed cases leave a
 * create's fields to judge. The oracles' requests and words are tested against targets (test/contract-collection-*).
 */
function create(statuses: string[], properties: Record<string, object> = {}): ResourceOperation {
  return {
    operationId: 'addThing',
    method: 'post',
    path: '/things',
    role: 'create',
    request: { schema: { type: 'object', properties } },
    statuses,
  } as unknown as ResourceOperation;
}

describe('refusedAsDeclared', () => {
  it.each([
    ['no answer', ['201', '400'], undefined, false],
    ['a 2xx', ['201', '400'], 201, false],
    ['a 3xx just below 400', ['201', '400'], 399, false],
    ['a 5xx', ['201', '400'], 500, false],
    ['the declared 400', ['201', '400'], 400, true],
    ['422 where 400 and 422 are declared', ['201', '400', '422'], 422, true],
    ['409 where only 400 is declared', ['201', '400'], 409, false],
    ['499 where only 400 is declared', ['201', '400'], 499, false],
    ['409 where 4XX is declared beside 400', ['201', '400', '4XX'], 409, true],
    ['any 4xx where no refusal is declared', ['201', '401'], 409, true],
    ['499 where no refusal is declared', ['201'], 499, true],
    ['401 where 400 is declared (401 is auth, not a refusal)', ['201', '400', '401'], 401, false],
    ['403 where 400 is declared', ['201', '400', '403'], 403, false],
    ['404 where 400 is declared', ['201', '400', '404'], 404, false],
    ['401 where only auth and not-found answers are declared', ['201', '401', '403', '404'], 401, true],
  ] as const)('%s', (_case, statuses, status, refused) => {
    expect(refusedAsDeclared(create([...statuses]), status)).toBe(refused);
  });
});

describe('refusedBody', () => {
  const free = { type: 'integer' };
  it('breaks the first string and tags a free integer with a number from the run id', () => {
    expect(refusedBody(create([], { label: {}, size: free }), { label: 'plain', size: 3 }, 'run1')).toEqual({
      json: { size: 1_000_512_070, label: 12345 },
      broken: 'label',
      marker: { size: 1_000_512_070 },
    });
    // Another run id, another number; a long one stays within int32 (the hash is kept under a million).
    expect(refusedBody(create([], { label: {}, size: free }), { label: 'plain', size: 3 }, 'a')?.marker).toEqual({
      size: 1_000_000_097,
    });
    expect(
      refusedBody(create([], { label: {}, size: free }), { label: 'p', size: 3 }, '20261127-contract-run-7f3a')?.marker,
    ).toEqual({ size: 1_000_835_348 });
  });

  it('keeps the valid fields as they are when one of them already carries the run id', () => {
    expect(
      refusedBody(
        create([], { label: {}, note: {}, size: free }),
        { label: 'x', note: 'tag-run1-note', size: 3 },
        'run1',
      ),
    ).toEqual({
      json: { note: 'tag-run1-note', size: 3, label: 12345 },
      broken: 'label',
      marker: { note: 'tag-run1-note', size: 3 },
    });
  });

  it('breaks an integer, sent as a string, where the body has no string', () => {
    expect(refusedBody(create([], { size: free, count: free }), { size: 3, count: 4 }, 'run1')).toEqual({
      json: { count: 1_000_512_070, size: 'not-a-number' },
      broken: 'size',
      marker: { count: 1_000_512_070 },
    });
  });

  it.each([
    ['no field of a type it can break', { flag: true, ratio: 0.5 }, { flag: {}, ratio: {} }],
    [
      'the only integer left bounded above',
      { size: 3, count: 4 },
      { size: free, count: { type: 'integer', maximum: 9 } },
    ],
    [
      'the only integer left an enum',
      { label: 'x', level: 2 },
      { label: {}, level: { type: 'integer', enum: [1, 2] } },
    ],
    ['what is left not an integer', { label: 'x', ratio: 2.5 }, { label: {}, ratio: { type: 'number' } }],
    ['nothing left beside the broken field', { label: 'x' }, { label: {} }],
  ])('is undefined with %s to recognise a stored item by', (_case, valid, properties) => {
    expect(refusedBody(create([], properties), valid, 'run1')).toBeUndefined();
  });
});

describe('judgesMoreFields', () => {
  const collection = (properties: string[] | undefined) =>
    ({
      operations: { create: { operationId: 'addThing', request: properties && { properties } } },
    }) as unknown as ResourceCollection;
  it.each([
    ['no fixed case judges the create', ['name'], undefined, true],
    ['a field the fixed cases leave', ['name', 'tag'], ['name'], true],
    ['every field judged elsewhere', ['name', 'tag'], ['name', 'tag'], false],
    ['a create with no body judged elsewhere', undefined, ['name'], false],
  ] as const)('%s', (_case, properties, judged, more) => {
    const fields = new Map(judged ? [['addThing', [...judged]]] : []);
    expect(judgesMoreFields(collection(properties && [...properties]), fields)).toBe(more);
  });
});
