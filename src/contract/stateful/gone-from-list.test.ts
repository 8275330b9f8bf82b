import { describe, expect, it } from 'vitest';
import type { Sent } from '../engine/run-case.js';
import { rowsOf } from './gone-from-list.js';

/** The rows the oracles read from a list answer: only a 2xx array is a list they judge. */
describe('rowsOf', () => {
  const answer = (status: number | undefined, body: unknown) => ({ status, body }) as unknown as Sent;
  it.each([
    ['a 200 array', answer(200, [{ id: 1 }]), [{ id: 1 }]],
    ['a 206 array', answer(206, []), []],
    ['a 200 object holding a list', answer(200, { items: [{ id: 1 }] }), undefined],
    ['a 200 object holding a list in its wrapper', answer(200, { items: [{ id: 1 }] }), [{ id: 1 }], 'items'],
    ['a 200 array where a wrapper is declared', answer(200, [{ id: 1 }]), undefined, 'items'],
    ['a 404 object holding a list in its wrapper', answer(404, { items: [] }), undefined, 'items'],
    ['a 404 array', answer(404, [{ id: 1 }]), undefined],
    ['a 300 array', answer(300, []), undefined],
    ['no answer', answer(undefined, undefined), undefined],
  ] as [string, Sent, unknown, string?][])('%s', (_case, sent, rows, wrapper) => {
    expect(rowsOf(sent, wrapper)).toEqual(rows);
  });
});
