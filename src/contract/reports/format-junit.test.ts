import { describe, expect, it } from 'vitest';
import { formatJunit } from './format-junit.js';
import { buildReport } from './build-report.js';
import type { CaseResult } from '../base/case-result.js';

const config = { baseUrl: 'http://h/v1', apiKey: 'k', readOnly: false, timeout: 1, requireCoverage: false, runId: 'r1', maxRequests: 1 };
const base = { operation: 'getPet', checks: {}, notes: [], requests: [], durationMs: 12 };
const cases: CaseResult[] = [
  { ...base, id: 'a', check: 'get.not-found', title: 'getPet <unknown> gets 404', status: 'failed', failures: [{ check: 'get.not-found', operation: 'getPet', expected: '404 & an Error', actual: '400 "x"', request: "curl 'http://h/v1/pets/9'" }] },
  { ...base, id: 'b', check: 'create.echo', title: 'create', status: 'skipped', reason: 'read-only', failures: [] },
  { ...base, id: 'c', check: 'list.limit', title: 'list', status: 'passed', failures: [], notes: [{ check: 'list.limit', operation: 'listPets', message: 'the target lists 3 pets' }] },
];

describe('formatJunit', () => {
  it('writes one escaped testcase per case, the check id as classname and failure type', () => {
    const xml = formatJunit(buildReport(config, cases, { startedAt: new Date(0), durationMs: 1500 }));
    expect(xml).toContain('<testsuites name="petstore-kit contract" tests="3" failures="1" errors="0" skipped="1" time="1.500">');
    expect(xml).toContain('<testcase classname="get.not-found" name="a: getPet &lt;unknown&gt; gets 404" time="0.012">');
    expect(xml).toContain('<failure type="get.not-found" message="get.not-found getPet: expected 404 &amp; an Error; actual 400 &quot;x&quot;">');
    expect(xml).toContain("request: curl 'http://h/v1/pets/9'</failure>");
    expect(xml).toContain('<skipped message="read-only"/>');
    expect(xml).toContain('<system-out>[list.limit] the target lists 3 pets</system-out>');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
  });
});
