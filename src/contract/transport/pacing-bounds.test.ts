import { describe, expect, it, vi } from 'vitest';
import { MAX_RETRIES, MAX_RETRY_WAIT_MS, pace, retryDelay } from './pacing.js';

describe('retryDelay at its bounds', () => {
  it('takes a wait of exactly the longest allowed, and not a second more', () => {
    expect(MAX_RETRY_WAIT_MS).toBe(30_000);
    expect(retryDelay(429, '30', 60_000)).toBe(30_000);
    expect(retryDelay(429, '31', 60_000)).toBeUndefined();
  });

  it('takes a wait that ends before the deadline, not one that ends on it', () => {
    expect(retryDelay(429, '2', 2001)).toBe(2000);
    expect(retryDelay(429, '2', 2000)).toBeUndefined();
    expect(retryDelay(429, undefined, 1000)).toBeUndefined();
  });

  it('reads the first value, trimmed; an empty one is no Retry-After', () => {
    expect(retryDelay(429, [' 3 ', '9'], 60_000)).toBe(3000);
    expect(retryDelay(429, '', 60_000)).toBe(1000);
    expect(retryDelay(503, ' ', 60_000)).toBeUndefined();
    expect(retryDelay(429, 'x2', 60_000)).toBeUndefined();
  });

  it('waits nothing for a date already past', () => {
    const now = Date.parse('2026-01-01T00:00:10Z');
    expect(retryDelay(429, 'Thu, 01 Jan 2026 00:00:03 GMT', 60_000, now)).toBe(0);
  });

  it('sends a request again at most three times', () => {
    expect(MAX_RETRIES).toBe(3);
  });
});

describe('pace at its bounds', () => {
  it('books the next slot 1/rate after this one, which starts now when free', async () => {
    vi.useFakeTimers({ now: 10_000 });
    try {
      const session = { config: { rate: 4 }, pacing: { nextSlotAt: 0 } };
      await pace(session);
      expect(session.pacing.nextSlotAt).toBe(10_250);
      const second = pace(session);
      expect(session.pacing.nextSlotAt).toBe(10_500);
      let done = false;
      void second.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(249);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('treats a negative or absent rate as none', async () => {
    for (const rate of [-1, Number.NaN]) {
      const session = { config: { rate }, pacing: { nextSlotAt: 5 } };
      await pace(session);
      expect(session.pacing.nextSlotAt).toBe(5);
    }
  });
});
