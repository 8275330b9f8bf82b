import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_REQUEST_JSON_DEPTH, MAX_RESPONSE_JSON_DEPTH, nestingDepth } from './json-depth.js';

const depthOf = (text: string) => nestingDepth(Buffer.from(text), 1000);

describe('nestingDepth', () => {
  it.each([
    ['a scalar', '42', 0],
    ['a flat object', '{"name":"Rex","categoryId":1}', 1],
    ['nested arrays', '[[[]]]', 3],
    ['siblings do not add up', '{"a":[1],"b":{"c":[]}}', 3],
    ['brackets inside strings', '{"name":"[[[{{{"}', 1],
    ['escaped quotes inside strings', '{"name":"a\\"[[[\\\\"}', 1],
    ['unicode around brackets', '{"ключ":["😀",{"x":"]"}]}', 3],
  ])('%s', (_, text, want) => {
    expect(depthOf(text)).toBe(want);
  });

  it('stops counting once past the limit, however deep the text goes', () => {
    expect(nestingDepth(Buffer.from('['.repeat(100_000)), MAX_REQUEST_JSON_DEPTH)).toBe(MAX_REQUEST_JSON_DEPTH + 1);
  });
});

describe('jsonDepthExceeds', () => {
  it.each([
    ['a list of pets', '[{"id":1,"tags":["a"]}]', 3, false],
    ['exactly the limit', '[[[]]]', 3, false],
    ['one more than the limit', '[[[[]]]]', 3, true],
    ['brackets inside strings', '["[[[[[[", "\\"[[[["]', 2, false],
    ['5 million [', '['.repeat(5_000_000), MAX_RESPONSE_JSON_DEPTH, true],
  ])('%s', (_, text, limit, want) => {
    expect(jsonDepthExceeds(Buffer.from(text), limit)).toBe(want);
  });
});
