import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { writeAll, writeAllSync } from './write-all.js';

// Text is handed to the file in pieces of about this size: never one string the size of the whole file.
const WRITE_AT = 1024 * 1024;

/**
 * Writes `content` to `file` all at once: into a new file beside it, then fsync, rename over `file` and fsync of the
 * directory (POSIX rename is atomic: a reader, or a crash, sees the old content or the new, never a torn file). The
 * temporary file has an unpredictable name (`.<name>.<random hex>.tmp`) and is created exclusively (`wx`:
 * O_CREAT|O_EXCL, which also refuses to follow a symbolic link planted at that name) with `mode` (default 0644; the
 * mock's state file uses 0600), so nothing planted there is followed or overwritten. `content` may be an iterable of
 * pieces, written as they come in batches of about 1 MiB, so a file's size is bounded by the disk, not by the
 * largest string V8 can hold. Every write is checked for what it wrote (write-all.ts): a full disk fails the call,
 * and the old file stays as it was. The one atomic write of the package: reports, fixtures and the mock's state file.
 */
export async function writeFileAtomic(file: string, content: string | Iterable<string>, mode = 0o644): Promise<void> {
  const target = resolve(file);
  const dir = dirname(target);
  // A directory that cannot be made (a file in its place) is reported by the open below, with the write's own error.
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  const temp = join(dir, `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  let renamed = false;
  try {
    let batch: string[] = [];
    let size = 0;
    for (const piece of typeof content === 'string' ? [content] : content) {
      batch.push(piece);
      size += piece.length;
      if (size >= WRITE_AT) {
        await writeAll(handle, batch.join(''));
        batch = [];
        size = 0;
      }
    }
    if (batch.length) await writeAll(handle, batch.join(''));
    await handle.sync();
    await handle.close();
    await rename(temp, target);
    renamed = true;
    await syncDirectory(dir);
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
}

/** Makes the rename itself durable; best effort (some file systems refuse to fsync a directory). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here: the rename is still atomic, only its durability across a power cut is not promised.
  }
}

/** As `writeFileAtomic`, synchronously: for a signal handler, which must be done before anything else exits. */
export function writeFileAtomicSync(file: string, text: string): void {
  const target = resolve(file);
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeAllSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, target);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or gone
    }
    throw error;
  }
}

/** Whether a file can be created in `file`'s directory (made if missing), found out without touching `file`. */
export async function checkWritable(file: string): Promise<void> {
  const target = resolve(file);
  await mkdir(dirname(target), { recursive: true });
  const probe = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.probe`);
  const handle = await open(probe, 'wx', 0o600);
  await handle.close();
  await unlink(probe);
}
