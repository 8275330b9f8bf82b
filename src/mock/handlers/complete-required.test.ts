import { describe, expect, it } from 'vitest';
import { completeRequired } from './complete-required.js';

// A stand-in for the document's validator (resources.ts passes spec.compile): every example is taken.
const accepts = () => true;
const mini = {
  type: 'object',
  required: ['id', 'type'],
  properties: { id: { type: 'string' }, type: { enum: ['folder'] } },
};

describe('completeRequired: what the answer requires and no request supplied', () => {
  it.each([
    [
      "a nested member the answer requires (Box's parent without type)",
      { type: 'object', required: ['parent'], properties: { parent: mini } },
      { parent: { id: '7' } },
      { parent: { id: '7', type: 'folder' } },
    ],
    [
      "3.0's nullable beside allOf (anyOf: [null, {allOf}]), around a oneOf (Box's CollaborationItem)",
      {
        type: 'object',
        properties: {
          item: { anyOf: [{ type: 'null' }, { allOf: [{ type: 'object', oneOf: [mini, { type: 'object' }] }] }] },
        },
      },
      { item: {} },
      { item: { id: '', type: 'folder' } },
    ],
    [
      'items of an array',
      { type: 'object', properties: { list: { type: 'array', items: mini } } },
      { list: [{ id: 'a' }] },
      { list: [{ id: 'a', type: 'folder' }] },
    ],
    [
      'a top-level member the store assigns is left to it',
      { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { example: 'n' } } },
      {},
      { name: 'n' },
    ],
  ])('%s', (_, schema, item, want) => {
    expect(completeRequired(item, schema, accepts, new Set(['id']))).toEqual(want);
  });

  it('returns the very item when nothing is missing (v1 pets stay as they were)', () => {
    const pet = { name: 'Rex', categoryId: 1 };
    const schema = { type: 'object', required: ['id', 'name', 'categoryId'], properties: { name: {}, categoryId: {} } };
    expect(completeRequired(pet, schema, accepts, new Set(['id']))).toBe(pet);
  });

  it("a replace keeps the current item's value of a member the request does not carry", () => {
    const schema = { type: 'object', required: ['box_item'], properties: { box_item: mini } };
    expect(completeRequired({}, schema, accepts, new Set(), { box_item: { id: '3', type: 'folder' } })).toEqual({
      box_item: { id: '3', type: 'folder' },
    });
  });

  it('stops at a schema already on its path', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    };
    (node.properties as Record<string, unknown>).next = node;
    expect(completeRequired({ name: 'a', next: { name: 'b', next: {} } }, node, accepts, new Set())).toEqual({
      name: 'a',
      next: { name: 'b', next: {} },
    });
  });
});
