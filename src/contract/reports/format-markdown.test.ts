import { describe, expect, it } from 'vitest';
import { cell, formatMarkdown } from './format-markdown.js';
import { buildReport } from './build-report.js';

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

describe('formatMarkdown', () => {
  it('says why a run stopped, in place of a verdict', () => {
    const report = buildReport({ baseUrl: 'http://h/v1', runId: 'r', readOnly: false, requireCoverage: false }, [], { startedAt: new Date(0), durationMs: 0, stopped: 'the run\'s deadline of 2 s passed (--deadline)' });
    expect(formatMarkdown(report).split('\n')[0]).toBe("### Petstore contract: ⚠️ stopped early: the run's deadline of 2 s passed (--deadline)");
  });
});
