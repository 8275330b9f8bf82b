import { describe, expect, it } from 'vitest';
import { formatMarkdown } from './format-markdown.js';
import { buildReport } from './build-report.js';

describe('formatMarkdown', () => {
  it('says why a run stopped, in place of a verdict', () => {
    const report = buildReport({ baseUrl: 'http://h/v1', runId: 'r', readOnly: false, requireCoverage: false }, [], { startedAt: new Date(0), durationMs: 0, stopped: 'the run\'s deadline of 2 s passed (--deadline)' });
    expect(formatMarkdown(report).split('\n')[0]).toBe("### Petstore contract: ⚠️ stopped early: the run's deadline of 2 s passed (--deadline)");
  });
});
