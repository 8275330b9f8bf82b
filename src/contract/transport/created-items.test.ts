import { describe, expect, it } from 'vitest';
import { createdIdOf } from './created-items.js';

const things = { id: { property: 'id' } } as Parameters<typeof createdIdOf>[1];
const url = 'http://127.0.0.1:4010/v1/things';

describe('the item a create named (RFC 9110 §15.3.2)', () => {
  it.each([
    ['its id in the body', { id: 7 }, undefined, '7'],
    ['its id in the body before any Location', { id: 'a-b' }, '/v1/things/9', 'a-b'],
    ['a relative Location under the create', undefined, 'things/12', '12'],
    ['an absolute path', undefined, '/v1/things/12', '12'],
    ['an absolute URL', undefined, 'http://127.0.0.1:4010/v1/things/12/', '12'],
    ['a percent-encoded id', undefined, '/v1/things/a%20b', 'a b'],
    ['a Location into another collection', undefined, '/v1/orders/12', undefined],
    ['a Location on another origin', undefined, 'http://elsewhere.example/v1/things/12', undefined],
    ['a Location two segments down', undefined, '/v1/things/12/photos', undefined],
    ['the collection itself', undefined, '/v1/things', undefined],
    ['nothing at all', undefined, undefined, undefined],
  ])('%s', (_, body, location, id) => {
    const headers: Record<string, string> = location === undefined ? {} : { location };
    expect(createdIdOf({ body, headers, url }, things)).toBe(id);
  });
});
