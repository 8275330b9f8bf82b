import { describe, expect, it } from 'vitest';
import { readJournal } from './read-journal.js';

const entry = (seq: number, extra: object = {}) => ({
  seq,
  time: '2026-11-26T00:00:00.000Z',
  method: 'get',
  path: '/v1/pets',
  query: { limit: '2' },
  status: 200,
  durationMs: 1,
  operationId: 'listPets',
  requestHeaders: { authorization: 'Bearer [redacted]' },
  validation: { valid: true, violations: [] },
  ...extra,
});

describe('readJournal', () => {
  it('reads GET /__admin/journal and journal() alike, oldest first', () => {
    const admin = JSON.stringify({
      capacity: 1000,
      count: 2,
      entries: [entry(7), entry(3, { requestBody: { name: 'Rex' } })],
    });
    const exchanges = readJournal(admin, 'journal.json');
    expect(exchanges.map((e) => e.seq)).toEqual([3, 7]);
    expect(exchanges[0]).toEqual({
      seq: 3,
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '2' },
      status: 200,
      operationId: 'listPets',
      requestHeaders: { authorization: 'Bearer [redacted]' },
      body: { name: 'Rex' },
    });
    expect(readJournal(JSON.stringify([entry(7), entry(3)]), 'journal.json').map((e) => e.seq)).toEqual([3, 7]);
  });

  it.each([
    ['not JSON', '{', /^journal\.json: not JSON/],
    ['not a journal', '{"pets": []}', /^journal\.json: not a journal: expected the JSON of GET \/__admin\/journal/],
    [
      'an entry without a status',
      JSON.stringify([{ ...entry(1), status: undefined }]),
      /^journal\.json: entries\[0\]\.status must be a number$/,
    ],
    [
      'an entry whose path is not a path',
      JSON.stringify([entry(1), entry(2, { path: 'pets' })]),
      /^journal\.json: entries\[1\]\.path must be a path starting with \/$/,
    ],
  ])('refuses %s, naming the entry and the field', (_, text, message) => {
    expect(() => readJournal(text, 'journal.json')).toThrow(message);
  });
});
