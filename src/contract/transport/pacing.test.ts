import { describe, expect, it, vi } from 'vitest';
import { pace, retryDelay } from './pacing.js';

describe('retryDelay', () => {
  it('waits out 429 and 503 with Retry-After in seconds or as a date, within bounds', () => {
    expect(retryDelay(429, '2', 60_000)).toBe(2000);
    expect(retryDelay(503, '0', 60_000)).toBe(0);
    expect(retryDelay(429, undefined, 60_000)).toBe(1000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelay(503, 'Thu, 01 Jan 2026 00:00:03 GMT', 60_000, now)).toBe(3000);
  });

  it('does not wait for other statuses, a 503 without Retry-After, too long a wait or one past the deadline', () => {
    expect(retryDelay(200, '1', 60_000)).toBeUndefined();
    expect(retryDelay(500, '1', 60_000)).toBeUndefined();
    expect(retryDelay(503, undefined, 60_000)).toBeUndefined();
    expect(retryDelay(429, '3600', 86_400_000)).toBeUndefined();
    expect(retryDelay(429, '5', 4_000)).toBeUndefined();
    expect(retryDelay(429, 'soon', 60_000)).toBeUndefined();
  });
});

describe('pace', () => {
  it('hands out slots 1/rate apart, also to callers that arrive together', async () => {
    const session = { config: { rate: 50 }, pacing: { nextSlotAt: 0 } };
    const started: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        await pace(session);
        started.push(Date.now());
      }),
    );
    // Four slots 20 ms apart: the last starts at least 60 ms after the first (timers never fire early).
    expect(started.at(-1)! - started[0]!).toBeGreaterThanOrEqual(50);
  });

  it('spaces slots seconds apart for a rate below one a second', async () => {
    vi.useFakeTimers();
    try {
      const session = { config: { rate: 0.5 }, pacing: { nextSlotAt: 0 } };
      const started: number[] = [];
      const both = Promise.all(
        [0, 1].map(async () => {
          await pace(session);
          started.push(Date.now());
        }),
      );
      await vi.advanceTimersByTimeAsync(2_000);
      await both;
      expect(started[1]! - started[0]!).toBe(2_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing without a rate', async () => {
    const session = { config: { rate: 0 }, pacing: { nextSlotAt: 0 } };
    await pace(session);
    expect(session.pacing.nextSlotAt).toBe(0);
  });
});
