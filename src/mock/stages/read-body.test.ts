import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestingDepth } from './read-body.js';

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
    expect(nestingDepth(Buffer.from('['.repeat(100_000)), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });
});
