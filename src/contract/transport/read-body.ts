import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

/** A response body as read: at most the cap, after decompression. */
export interface ReadBody {
  bytes: Buffer;
  /** True when the body (decompressed) was longer than the cap: reading stopped there and the rest was dropped. */
  tooLarge: boolean;
  /** A Content-Encoding the runner cannot decode (the raw bytes are kept), or a broken compressed stream. */
  encodingError?: string;
}

/**
 * Reads a response body, decompressing `gzip`, `deflate` and `br` as it streams (RFC 9110 §8.4), and stops at
 * `maxBytes` of decompressed output: a 1 GiB body, an endless stream or a gzip bomb costs at most the cap.
 */
export async function readBody(body: Readable, contentEncoding: string | undefined, maxBytes: number, scratch?: Buffer): Promise<ReadBody> {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  const decoders: Gunzip[] = [];
  // Content-Encoding lists codings in the order applied, so they are undone from the last one.
  for (const coding of [...codings].reverse()) {
    const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
    if (!decoder) {
      const raw = await collect(body, maxBytes, scratch);
      return { ...raw, encodingError: `Content-Encoding "${coding}" is not one the runner decodes (gzip, deflate, br)` };
    }
    decoders.push(decoder);
  }
  if (decoders.length === 0) return collect(body, maxBytes, scratch);
  let stream: Readable = body;
  for (const decoder of decoders) {
    stream.on('error', (error) => decoder.destroy(error));
    stream = stream.pipe(decoder);
  }
  try {
    return await collect(stream, maxBytes, scratch);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) return { bytes: Buffer.alloc(0), tooLarge: false, encodingError: `the ${codings.join(', ')} body does not decompress (${(error as Error).message})` };
    throw error;
  } finally {
    body.destroy();
    for (const decoder of decoders) decoder.destroy();
  }
}

/**
 * Copies the stream into `scratch` (a buffer of at least `maxBytes` that the caller reuses from request to
 * request, so that a run of large answers makes no garbage of megabytes each) or into chunks when none is given.
 * The bytes returned are a view of `scratch`: read them before the next call.
 */
async function collect(stream: Readable, maxBytes: number, scratch?: Buffer): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - length;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (scratch) part.copy(scratch, length);
    else chunks.push(part);
    length += part.length;
    if (chunk.length > room) {
      stream.destroy();
      return { bytes: scratch ? scratch.subarray(0, length) : Buffer.concat(chunks, length), tooLarge: true };
    }
  }
  return { bytes: scratch ? scratch.subarray(0, length) : Buffer.concat(chunks, length), tooLarge: false };
}
