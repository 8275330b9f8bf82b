import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HarRecorder, MAX_QUEUED, readHarEntries } from './har-recorder.js';
import type { ServedRequest } from '../mock/front-door/observers.js';

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

describe('HarRecorder', () => {
  it('leaves exchanges out, counted, rather than queue more than MAX_QUEUED for a file that falls behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-har-'));
    try {
      const file = join(dir, 'session.har');
      const recorder = await HarRecorder.create(file, ['secret-key'], (error) => {
        throw error;
      });
      // Eight-megabyte answers, recorded faster than any write finishes: all of them arrive before the first write.
      const payload = Buffer.from(JSON.stringify([{ id: 1, name: 'x'.repeat(8 * 1024 * 1024), categoryId: 1 }]));
      const served: ServedRequest = {
        request: {
          method: 'GET',
          url: '/pets',
          headers: { authorization: 'Bearer secret-key' },
          mountPath: '/v1',
          body: Readable.from([]),
        },
        operation: undefined,
        reply: { status: 200, headers: { 'Content-Type': 'application/json' }, bytes: payload, payload },
        spec: undefined as never,
        durationMs: 1,
      };
      for (let i = 0; i < 20; i++) recorder.record(served, undefined, Date.now());
      await recorder.close();
      const kept = Math.floor(MAX_QUEUED / payload.length);
      expect(recorder.skipped).toBe(20 - recorder.count);
      expect(recorder.count).toBeGreaterThanOrEqual(kept - 1);
      expect(recorder.count).toBeLessThanOrEqual(kept);
      const text = await readFile(file, 'utf8');
      expect(readHarEntries(text)).toHaveLength(recorder.count);
      expect(text).not.toContain('secret-key');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
