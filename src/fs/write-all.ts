import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * Writes every byte of `data` through `handle`, at `position` onwards (or at the file's end for an append-mode file
 * when `position` is null). POSIX write(2) may write fewer bytes than asked, which is what a full disk does before
 * it fails with ENOSPC; Node hands that count back without retrying. Each short write is retried with the rest,
 * so a full disk surfaces as the next write's ENOSPC, never as a file silently cut short. A write that reports
 * zero bytes and no error (it should not happen) is an ENOSPC too: retrying it would loop forever.
 */
export async function writeAll(
  handle: FileHandle,
  data: string | Uint8Array,
  position: number | null = null,
): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(
      bytes,
      done,
      bytes.length - done,
      position === null ? null : position + done,
    );
    if (bytesWritten <= 0) throw noSpace(done, bytes.length);
    done += bytesWritten;
  }
}

/** As `writeAll`, synchronously: for a signal handler. */
export function writeAllSync(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) {
    const written = writeSync(fd, bytes, done, bytes.length - done);
    if (written <= 0) throw noSpace(done, bytes.length);
    done += written;
  }
}

function noSpace(done: number, total: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: the write stopped after ${done} of ${total} bytes`), { code: 'ENOSPC' });
}
