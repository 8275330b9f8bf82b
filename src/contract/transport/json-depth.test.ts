import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-depth.js';

describe('jsonDepthExceeds', () => {
  it.each([
    ['a list of pets', '[{"id":1,"tags":["a"]}]', 3, false],
    ['exactly the limit', '[[[]]]', 3, false],
    ['one more than the limit', '[[[[]]]]', 3, true],
    ['brackets inside strings', '["[[[[[[", "\\"[[[["]', 2, false],
    ['5 million [', '['.repeat(5_000_000), 64, true],
  ])('%s', (_, text, limit, want) => {
    expect(jsonDepthExceeds(Buffer.from(text), limit)).toBe(want);
  });
});
