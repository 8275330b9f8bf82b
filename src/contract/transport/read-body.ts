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
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<ReadBody> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  const decoders: Gunzip[] = [];
  // Content-Encoding lists codings in the order applied, so they are undone from the last one.
  for (const coding of [...codings].reverse()) {
    const decoder =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'deflate'
          ? createInflate()
          : coding === 'br'
            ? createBrotliDecompress()
            : undefined;
    if (!decoder) {
      const raw = await collect(body, maxBytes);
      return {
        ...raw,
        encodingError: `Content-Encoding "${coding}" is not one the runner decodes (gzip, deflate, br)`,
      };
    }
    decoders.push(decoder);
  }
  if (decoders.length === 0) return collect(body, maxBytes);
  let stream: Readable = body;
  for (const decoder of decoders) {
    stream.on('error', (error) => decoder.destroy(error));
    stream = stream.pipe(decoder);
  }
  try {
    return await collect(stream, maxBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_'))
      return {
        bytes: Buffer.alloc(0),
        tooLarge: false,
        encodingError: `the ${codings.join(', ')} body does not decompress (${(error as Error).message})`,
      };
    throw error;
  } finally {
    body.destroy();
    for (const decoder of decoders) decoder.destroy();
  }
}

/**
 * Collects the stream's chunks, at most `maxBytes`, into a buffer of this call's own: the bytes returned belong to
 * one answer and stay valid whatever else is read meanwhile (a buffer reused between requests in flight is how
 * one answer's chunks once overwrote another's).
 */
async function collect(stream: Readable, maxBytes: number): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - length;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    length += part.length;
    if (chunk.length > room) {
      stream.destroy();
      return { bytes: Buffer.concat(chunks, length), tooLarge: true };
    }
  }
  return { bytes: Buffer.concat(chunks, length), tooLarge: false };
}
