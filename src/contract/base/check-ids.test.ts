import { describe, expect, it } from 'vitest';
import { checkIds, checks } from './check-ids.js';

// The descriptions are what `--list-checks`, the docs' table and reports show a user for each id.
describe('checks', () => {
  it('describes every check in one line of words', () => {
    for (const id of checkIds) {
      expect(checks[id], id).toMatch(/^[a-z'-][^\n]{20,}$/i);
      expect(checks[id].trim(), id).toBe(checks[id]);
    }
  });

  it('marks the checks that never fail a run as notes, and only those', () => {
    expect(checkIds.filter((id) => checks[id].startsWith('note: '))).toEqual([
      'deprecation.headers',
      'resource.cleanup',
      'rate-limit.retry',
    ]);
  });

  it('lists the ids in a stable order, dotted and lower-case', () => {
    expect(checkIds).toEqual(Object.keys(checks));
    for (const id of checkIds) expect(id).toMatch(/^[a-z0-9-]+\.[a-z0-9.-]+$/);
  });
});
