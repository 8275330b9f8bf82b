import { describe, expect, it } from 'vitest';
import { requestView } from './request-view.js';
import { planValue } from './values/value-plan.js';
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

  it.each([
    ['string and integer: no value (readme schema-types.yaml)', [{ type: 'string' }, { type: 'integer' }], false],
    ['number and integer: the integers', [{ type: 'number' }, { type: 'integer' }], true],
    ['two objects', [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object' }], true],
  ] as const)("keeps every allOf part's type: %s", (_name, parts, valid) => {
    const plan = planValue(requestView({ allOf: parts as unknown as SchemaLike[] }));
    expect(plan.ok).toBe(valid);
    if (!valid) expect(plan).toMatchObject({ ok: false, unhonoured: { keyword: 'type', noValue: true } });
  });
});
