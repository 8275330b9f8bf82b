import { describe, expect, it } from 'vitest';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { brokenByName, keyedAs } from './resource-items.js';

const users = { id: { property: 'username' } } as ResourceCollection;

describe('brokenByName', () => {
  // museum's PATCH body declares no eventId: a number there is valid, so the first field it refuses is name.
  const patchAccepts = (json: unknown) => typeof (json as { name?: unknown }).name === 'string';
  it.each([
    [
      "the first string field the update's schema refuses as a number",
      { eventId: 'e-1', name: 'Expo' },
      { name: 'Fair' },
      patchAccepts,
      { json: { name: 12345 }, name: 'name' },
    ],
    ['none when the schema refuses none', { eventId: 'e-1' }, { name: 'Fair' }, () => true, undefined],
    ['none without a string field', { count: 1 }, { count: 2 }, () => false, undefined],
  ])('%s', (_, sample, valid, accepts, want) => {
    expect(brokenByName(sample, valid, accepts)).toEqual(want);
  });
});

describe('keyedAs', () => {
  it.each([
    ['the item’s own key where the body names another', { username: ' ', email: 'e' }, { username: 'ada', email: 'e' }],
    ['the body as it was where it names no key', { email: 'e' }, { email: 'e' }],
  ])('%s', (_, body, want) => {
    expect(keyedAs(users, body, { username: 'ada' }, () => true)).toEqual(want);
  });

  it('keeps the body where the document refuses the item’s own key, or the item has none', () => {
    expect(keyedAs(users, { username: ' ' }, { username: 'ada' }, () => false)).toEqual({ username: ' ' });
    expect(keyedAs(users, { username: ' ' }, {}, () => true)).toEqual({ username: ' ' });
  });
});
