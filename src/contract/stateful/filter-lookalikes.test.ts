import { describe, expect, it } from 'vitest';
import { filterValue, lookalikes, looseMatch } from './filter-lookalikes.js';

describe('filter lookalikes', () => {
  it('tag the value with the run, in lower case', () => {
    expect(filterValue('CI-812', 3)).toBe('ci-812-f3');
  });

  it('give one lookalike per kind of loose matching, the upper case only where it differs', () => {
    expect(lookalikes('good')).toEqual([
      { value: 'good-more', kind: 'prefix' },
      { value: 'the-good', kind: 'substring' },
      { value: 'GOOD', kind: 'case-folded' },
    ]);
    expect(lookalikes('812-3').map((l) => l.kind)).toEqual(['prefix', 'substring']);
  });

  it.each([
    ['good', 'good', undefined],
    ['good', 'GOOD', 'a case-folded match, not an exact one'],
    ['good', 'good-boy', 'a prefix match, not an exact one'],
    ['good', 'the-good', 'a substring match, not an exact one'],
    ['good', 'bad', undefined],
    ['good', 7, undefined],
  ] as const)('name how %j lists %j', (asked, got, words) => {
    expect(looseMatch(asked, got)).toBe(words);
  });

  it('each lookalike is listed by its own kind of matching only', () => {
    for (const lookalike of lookalikes('good'))
      expect(looseMatch('good', lookalike.value)).toContain(
        lookalike.kind === 'substring' ? 'substring' : lookalike.kind,
      );
  });
});
