import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { readBody } from './read-body.js';

/** A body that arrives in `pieces`, a turn of the event loop between them (as a socket delivers them). */
function arriving(pieces: Buffer[]): Readable {
  return Readable.from(
    (async function* () {
      for (const piece of pieces) {
        await nextTurn();
        yield piece;
      }
    })(),
  );
}

const text = Buffer.from('{"id":1,"name":"Rex","categoryId":9223372036854775807}');
const bytesOf = (body: Buffer, size: number) =>
  Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

describe('readBody', () => {
  it.each([
    ['one piece, no coding', undefined, [text]],
    ['one byte at a time', undefined, bytesOf(text, 1)],
    ['identity', 'identity', bytesOf(text, 7)],
    ['gzip in 3-byte pieces', 'gzip', bytesOf(gzipSync(text), 3)],
    ['x-gzip', 'x-gzip', [gzipSync(text)]],
    ['deflate in 2-byte pieces', 'deflate', bytesOf(deflateSync(text), 2)],
    ['br in single bytes', 'br', bytesOf(brotliCompressSync(text), 1)],
    ['gzip then br, undone from the last (RFC 9110 §8.4)', 'gzip, br', [brotliCompressSync(gzipSync(text))]],
    ['upper-case coding names', 'GZIP', [gzipSync(text)]],
  ] as const)('%s: the body, whole', async (_, coding, pieces) => {
    const read = await readBody(arriving([...pieces]), coding, 1024);
    expect(read).toEqual({ bytes: text, tooLarge: false });
  });

  it('answers read side by side each keep their own bytes', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) =>
      Buffer.from(JSON.stringify({ id: i, name: `pet-${i}-`.repeat(i + 3) })),
    );
    const reads = await Promise.all(
      bodies.map((body, i) => readBody(arriving(bytesOf(body, 1 + (i % 3))), undefined, 1024)),
    );
    expect(reads.map((read) => read.bytes.toString())).toEqual(bodies.map((body) => body.toString()));
  });

  it('the bytes returned stay valid after later reads', async () => {
    const first = await readBody(arriving([Buffer.from('first body')]), undefined, 64);
    await readBody(arriving([Buffer.from('SECOND BODY, LONGER')]), undefined, 64);
    expect(first.bytes.toString()).toBe('first body');
  });

  it.each([
    ['plain', undefined, Buffer.alloc(100, 'a'), 40],
    ['exactly at the cap is not too large', undefined, Buffer.alloc(40, 'a'), 40],
    ['a gzip bomb stops at the cap after decompression', 'gzip', gzipSync(Buffer.alloc(1_000_000, 'a')), 1000],
  ] as const)('the cap: %s', async (_, coding, body, cap) => {
    const read = await readBody(arriving(bytesOf(body, 16)), coding, cap);
    const whole = coding ? 1_000_000 : body.length;
    expect(read.tooLarge).toBe(whole > cap);
    expect(read.bytes.length).toBe(Math.min(whole, cap));
  });

  it('an unknown coding keeps the raw bytes and says which', async () => {
    const read = await readBody(arriving([Buffer.from('zstd-bytes')]), 'gzip, zstd', 64);
    expect(read).toEqual({
      bytes: Buffer.from('zstd-bytes'),
      tooLarge: false,
      encodingError: 'Content-Encoding "zstd" is not one the runner decodes (gzip, deflate, br)',
    });
  });

  it('a body that does not decompress is an encoding error, not a crash', async () => {
    const read = await readBody(arriving([Buffer.from('not gzip at all')]), 'gzip', 64);
    expect(read.bytes.length).toBe(0);
    expect(read.tooLarge).toBe(false);
    expect(read.encodingError).toMatch(/^the gzip body does not decompress \(.+\)$/);
  });
});
