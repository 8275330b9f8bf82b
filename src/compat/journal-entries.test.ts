import { describe, expect, it } from 'vitest';
import { JournalEntrySplitter, JournalShapeError } from './journal-entries.js';

/** Every entry's text, the journal fed in pieces of `size` characters (1: every boundary a chunk can fall on). */
function split(text: string, size: number): string[] {
  const splitter = new JournalEntrySplitter(1024);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(...splitter.push(text.slice(at, at + size)));
  expect(splitter.problem()).toBeUndefined();
  return out;
}

const tricky = [
  { seq: 1, path: '/v1/pets', requestBody: { name: 'a ] } , [ { "quoted" \\ back\\slash' } },
  { seq: 2, query: { limit: ['1', '2'] }, nested: [[{ a: [] }], {}] },
  { seq: 3, unicode: 'Rex \u00e9\u2603 \ud83d\udc36', empty: '' },
];

describe('JournalEntrySplitter', () => {
  it.each([
    ['GET /__admin/journal', JSON.stringify({ capacity: 10, count: 3, entries: tricky, after: [1, { x: ']' }] })],
    ['journal()', JSON.stringify(tricky)],
    [
      'indented, "entries" after other arrays',
      JSON.stringify({ other: [[1]], '"entries"': [], entries: tricky }, null, 2),
    ],
  ])('splits %s into its entries wherever the chunks fall', (_, text) => {
    for (const size of [1, 2, 3, 7, 64, text.length])
      expect(split(text, size).map((entry) => JSON.parse(entry) as unknown)).toEqual(tricky);
  });

  it('splits scalar entries too (refused later, each by its index)', () => {
    expect(split('[1, "two", null ,{"a":1}]', 1)).toEqual(['1', '"two"', 'null', '{"a":1}']);
  });

  it.each([
    ['', 'empty'],
    ['{"capacity": 1}', 'no "entries" array'],
    ['{"entries": [{"seq": 1}, {"seq"', 'it ends early, after 1 whole entries'],
    ['{"entries": [{"seq": "1]}', 'it ends early, after 0 whole entries'],
  ])('says what is wrong with %j', (text, problem) => {
    const splitter = new JournalEntrySplitter(1024);
    splitter.push(text);
    expect(splitter.problem()).toBe(problem);
  });

  it('refuses what is not an object or an array, and an entry past its bound, without keeping it', () => {
    expect(() => new JournalEntrySplitter(1024).push('"journal"')).toThrow(JournalShapeError);
    const splitter = new JournalEntrySplitter(1024);
    expect(() => splitter.push(`[{"a": "${'x'.repeat(600)}`)).not.toThrow();
    expect(() => splitter.push('x'.repeat(600))).toThrow('entries[0] is longer than 1 KiB');
  });
});
