import { describe, expect, it } from 'vitest';
import { announcesNextPage } from './next-page.js';

describe('announcesNextPage', () => {
  it.each([
    ['a Link header with rel=next', { link: '<https://x/b?page=2>; rel="next"' }, [], undefined, true],
    ['a Link header with rel="prev next"', { link: '<https://x/b?page=2>; rel="prev next"' }, [], undefined, true],
    ['a Link header with rel=prev only', { link: '<https://x/b?page=1>; rel="prev"' }, [], undefined, false],
    ['links.next in a wrapped list', {}, { data: [], links: { next: 'https://x/b?page=2' } }, 'data', true],
    ['_links.next.href in a wrapped list', {}, { data: [], _links: { next: { href: '/b?p=2' } } }, 'data', true],
    ['a top-level next in a wrapped list', {}, { data: [], next: 'https://x/b?page=2' }, 'data', true],
    ['links with self only', {}, { data: [], links: { self: 'https://x/b' } }, 'data', false],
    ['an empty or null next', {}, { data: [], links: { next: null }, next: '' }, 'data', false],
    ['an item named next in a bare array', {}, [{ next: 'x' }], undefined, false],
  ] as const)('%s', (_case, headers, body, wrapper, expected) => {
    expect(announcesNextPage({ headers, body }, wrapper)).toBe(expected);
  });
});
