import { describe, expect, it } from 'vitest';
import { expandedSize } from './expanded-size.js';

/** Schemas Layer0…Layer{depth}, each holding the next one twice: 2^depth copies of the last once expanded. */
function doubling(depth: number) {
  const schemas: Record<string, unknown> = { [`Layer${depth}`]: { type: 'string' } };
  for (let i = depth - 1; i >= 0; i--) {
    const next = { $ref: `#/components/schemas/Layer${i + 1}` };
    schemas[`Layer${i}`] = { properties: { left: next, right: next } };
  }
  return { components: { schemas } };
}

describe('expandedSize', () => {
  it.each([
    ['a value without references: its nodes', { a: { b: [1, 2] } }, { a: { b: [1, 2] } }, 100, 5],
    // Layer1 is 2 nodes, Layer0 1 + properties (1 + 2 × 2) = 6, the part 1 + 6.
    ['a reference, once per place it is used', doubling(1), { x: { $ref: '#/components/schemas/Layer0' } }, 100, 7],
    ['a recursion, counted once where it closes', { s: { items: { $ref: '#/s' } } }, { $ref: '#/s' }, 100, 2],
    [
      'past the limit: limit + 1, without walking on',
      doubling(40),
      { $ref: '#/components/schemas/Layer0' },
      1e6,
      1e6 + 1,
    ],
  ])('%s', (_, document, part, limit, size) => {
    expect(expandedSize(document, part, limit)).toBe(size);
  });

  it('costs what the document weighs: 2^40 copies counted from 40 schemas', () => {
    // A walk of the expansion would not end; the count reuses each reference's size.
    expect(expandedSize(doubling(40), { $ref: '#/components/schemas/Layer0' }, 2 ** 50)).toBeGreaterThan(2 ** 40);
  });
});
