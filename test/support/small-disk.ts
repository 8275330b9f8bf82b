import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** Where the file system is mounted. */
  dir: string;
  /** How it was made: `tmpfs` or `loop`. */
  kind: 'tmpfs' | 'loop';
  /**
   * Fills the disk with a filler file, then gives `free` bytes back (rounded down to whole 4 KiB pages, as the file
   * system allocates them). Call again to change the free space; `release()` removes the filler.
   */
  fill(free: number): void;
  /** Removes the filler: the disk has room again. */
  release(): void;
  /** Unmounts and removes everything. */
  close(): void;
}

const PAGE = 4096;

/**
 * A file system of `bytes` made for a test, so a full disk is real (short writes, then ENOSPC) rather than mocked:
 * a tmpfs where this process may mount one, else an ext2 image on a loop device. Returns a string saying why not
 * when neither works (not root, no mount in a container); the caller skips with that reason. CI runs as root.
 */
export function mountSmallDisk(bytes: number): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-small-disk-'));
  const tried: string[] = [];
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return smallDisk(dir, 'tmpfs', () => unmount(dir));
  } catch (error) {
    tried.push(`tmpfs: ${reason(error)}`);
  }
  const image = `${dir}.img`;
  try {
    writeFileSync(image, '');
    ftruncateImage(image, Math.max(bytes, 64 * 1024));
    execFileSync('mke2fs', ['-q', '-F', '-m', '0', '-t', 'ext2', image], { stdio: 'pipe' });
    execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'pipe' });
    return smallDisk(dir, 'loop', () => {
      unmount(dir);
      rmSync(image, { force: true });
    });
  } catch (error) {
    tried.push(`loop device: ${reason(error)}`);
    rmSync(image, { force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return `cannot mount a small file system (${tried.join('; ')})`;
}

function smallDisk(dir: string, kind: SmallDisk['kind'], unmount: () => void): SmallDisk {
  const filler = join(dir, 'filler');
  return {
    dir,
    kind,
    fill(free) {
      const fd = openSync(filler, 'a');
      try {
        // Smaller and smaller pieces: a file system may refuse a large write whole while room for a smaller is left.
        for (const size of [64 * 1024, PAGE, 512, 1]) {
          const chunk = Buffer.alloc(size, 1);
          for (;;) {
            try {
              if (writeSync(fd, chunk) < chunk.length) break;
            } catch {
              break;
            }
          }
        }
        const size = statSync(filler).size;
        ftruncateSync(fd, Math.max(0, size - Math.floor(free / PAGE) * PAGE));
      } finally {
        closeSync(fd);
      }
    },
    release() {
      rmSync(filler, { force: true });
    },
    close() {
      try {
        unmount();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Unmounts `dir`; lazily when a file is still open there (a failed test left a handle), so no mount outlives the run. */
function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

function ftruncateImage(image: string, bytes: number): void {
  const fd = openSync(image, 'r+');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

function reason(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || (error as Error).message;
}
