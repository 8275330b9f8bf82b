import { describe, expect, it } from 'vitest';
import { requestView } from './request-view.js';
import type { SchemaLike } from './json-schema.js';

describe('requestView', () => {
  it('reads a recursive schema (as the loader shares it) into a recursive view, readOnly left out', () => {
    const node: SchemaLike = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
    };
    node.properties!.children = { type: 'array', items: node };
    const view = requestView(node);
    expect(Object.keys(view.properties!)).toEqual(['name', 'children']);
    expect(view.required).toEqual(['name']);
    expect(view.properties!.children!.items).toBe(view);
  });
});
