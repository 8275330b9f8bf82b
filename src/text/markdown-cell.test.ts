import { describe, expect, it } from 'vitest';
import { cell } from './markdown-cell.js';

describe('cell', () => {
  it.each([
    ['a table break', 'a | b', 'a \\| b'],
    ['a link and an image', '[x](http://t) ![i](http://t/p.png)', '\\[x\\](http://t) \\!\\[i\\](http://t/p.png)'],
    ['HTML', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['a newline and a workflow command', 'ok\n::error ::x', 'ok\\\\n::error ::x'],
    ['emphasis and code', '*a* _b_ `c`', '\\*a\\* \\_b\\_ \\`c\\`'],
  ])('escapes %s', (_, text, want) => {
    expect(cell(text)).toBe(want);
  });
});
