import { describe, expect, it } from 'vitest';
import { MAX_REPORT_STRING, sanitize } from './sanitize-report.js';
import { createSecretRedactor } from '../../redact/redact-secrets.js';

describe('sanitize', () => {
  it('redacts, bounds and escapes every string of a nested value, and leaves other values alone', () => {
    const redact = createSecretRedactor(['k3y-secret']);
    const given = { a: 'Bearer K3Y-SECRET\n::error ::x', list: [{ code: 'x'.repeat(10_000) }], n: 5, ok: true, none: null };
    const out = sanitize(given, redact);
    expect(out.a).toBe('Bearer ***\\n::error ::x');
    expect(out.list[0]!.code).toBe(`${'x'.repeat(MAX_REPORT_STRING)}… (10000 characters)`);
    expect([out.n, out.ok, out.none]).toEqual([5, true, null]);
  });

  it('redacts before it cuts, so a key at the cut is not left half visible', () => {
    const key = 'abcdefgh-secret';
    const text = `${'x'.repeat(MAX_REPORT_STRING - 5)}${key}`;
    expect(sanitize(text, createSecretRedactor([key]))).toBe(`${'x'.repeat(MAX_REPORT_STRING - 5)}***`);
  });
});
