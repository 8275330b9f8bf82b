import { describe, expect, it } from 'vitest';
import { createFaults } from './faults.js';

describe('createFaults', () => {
  it('drops every request at rate 1 and none at rate 0', () => {
    const always = createFaults({ faultRate: 1 });
    const never = createFaults({ faultRate: 0 });
    for (let i = 0; i < 1000; i++) {
      expect(always.drop()).toBe(true);
      expect(never.drop()).toBe(false);
    }
  });

  it('picks a latency inside the range, reaching both ends, and lets a preferred delay win', () => {
    const faults = createFaults({ delay: { min: 3, max: 5 } });
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(faults.delay(undefined));
    expect([...seen].sort()).toEqual([3, 4, 5]);
    expect(faults.delay(0)).toBe(0);
    expect(createFaults({ delay: 7 }).delay(undefined)).toBe(7);
    expect(createFaults().delay(undefined)).toBe(0);
  });
});
