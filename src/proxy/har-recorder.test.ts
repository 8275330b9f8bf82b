import { describe, expect, it } from 'vitest';
import { readHarEntries } from './har-recorder.js';

describe('readHarEntries', () => {
  const head = '{"log":{"version":"1.2","creator":{"name":"petstore-kit","version":"0"},"pages":[],"entries":[';

  it('reads a whole file as JSON', () => {
    expect(readHarEntries(`${head}\n{"a":1},\n{"b":2}\n]}}\n`)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('reads every whole entry of a file a crash cut in its last line', () => {
    expect(readHarEntries(`${head}\n{"a":1},\n{"b":2},\n{"c":`)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(readHarEntries(head)).toEqual([]);
  });

  it('refuses what is not HAR at all', () => {
    expect(() => readHarEntries('[1, 2]')).toThrow('a HAR file holds {"log": {"entries": [...]}}');
    expect(() => readHarEntries('not json')).toThrow();
  });
});
