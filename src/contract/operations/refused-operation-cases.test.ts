import { describe, expect, it } from 'vitest';
import { orderings } from './refused-operation-cases.js';

// A refused body is sent as generated and, where the order differs, with the members that break it last: a target
// that applies members one by one and stops at the bad one has then applied the valid ones (and is seen).
describe('orderings of a refused body', () => {
  it.each([
    [
      'a bad member first: sent again last',
      { name: 'Rex', tag: 'a' },
      { name: 7, tag: 'a' },
      [
        { name: 7, tag: 'a' },
        { tag: 'a', name: 7 },
      ],
    ],
    ['a bad member added at the end: once', { tag: 'a' }, { tag: 'a', name: null }, [{ tag: 'a', name: null }]],
    ['a member left out: once', { name: 'Rex', tag: 'a' }, { tag: 'a' }, [{ tag: 'a' }]],
    ['a body of another type: once', { name: 'Rex' }, 'x', ['x']],
    ['an empty object: once', { name: 'Rex' }, {}, [{}]],
  ])('%s', (_, base, bad, sent) => {
    const got = orderings(base, bad);
    expect(got).toEqual(sent);
    // Key order is what differs: compare it too.
    expect(got.map((body) => (typeof body === 'object' && body !== null ? Object.keys(body) : body))).toEqual(
      sent.map((body) => (typeof body === 'object' && body !== null ? Object.keys(body) : body)),
    );
  });
});
