import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes `text` to `file` all at once: into a new file beside it (exclusive create, a random name, so nothing
 * planted there is followed or overwritten), then renamed over `file`. A reader sees the old file or the new one,
 * never half of one; an interrupted write leaves the old file and no partial one.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = resolve(file);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

/** As `writeFileAtomic`, synchronously: for a signal handler, which must be done before anything else exits. */
export function writeFileAtomicSync(file: string, text: string): void {
  const target = resolve(file);
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, text);
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
