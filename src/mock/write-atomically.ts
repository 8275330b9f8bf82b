import { open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

// Text is handed to the file in pieces of about this size: never one string the size of the whole file.
const WRITE_AT = 1024 * 1024;

/**
 * Writes `pieces` to `file` atomically: into a new temporary file beside it, then fsync, rename over `file` and
 * fsync of the directory (POSIX rename is atomic: a crash leaves the old content or the new, never a torn file).
 * The temporary file has an unpredictable name (`.state.json.<16 random hex>.tmp`) and is created exclusively
 * (`wx`: O_CREAT|O_EXCL, which also refuses to follow a symbolic link planted at that name) with mode 0600, so
 * nobody else can read it or make it write elsewhere. The pieces are written as they come, in batches of about
 * 1 MiB, so the size of the file is bounded by the disk, not by the largest string V8 can hold.
 */
export async function writeFileAtomically(file: string, pieces: Iterable<string>): Promise<void> {
  const dir = dirname(file);
  const temporary = join(dir, `.${basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  let renamed = false;
  try {
    let batch: string[] = [];
    let size = 0;
    for (const piece of pieces) {
      batch.push(piece);
      size += piece.length;
      if (size >= WRITE_AT) {
        await handle.write(batch.join(''));
        batch = [];
        size = 0;
      }
    }
    if (batch.length) await handle.write(batch.join(''));
    await handle.sync();
    await handle.close();
    await rename(temporary, file);
    renamed = true;
    await syncDirectory(dir);
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
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
