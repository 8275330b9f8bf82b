import { describe, expect, it } from 'vitest';
import { retryDelay } from './pacing.js';

describe('retryDelay, values that are neither seconds nor a date', () => {
  it('waits for none of them (RFC 9110 §10.2.3: delay-seconds are digits only)', () => {
    expect(retryDelay(429, '2x', 60_000)).toBeUndefined();
    expect(retryDelay(503, '2 s', 60_000)).toBeUndefined();
  });
});
