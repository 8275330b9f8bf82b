import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { unlinkSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { InputFileError } from '../../input-errors.js';

/** Who holds a state file: written as JSON into `<state file>.lock`. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601 time the holder took the lock. */
  since: string;
}

/** A held lock; `release` removes the lock file if it is still ours (idempotent). */
export interface StateLock {
  readonly file: string;
  readonly holder: LockHolder;
  release(): Promise<void>;
}

// A lock file that cannot be parsed was caught half-written by its creator, or is debris; after this long it is
// debris and is taken over.
const UNREADABLE_GRACE_MS = 5_000;
const ATTEMPTS = 20;

/**
 * Takes the lock on a state file, so that one file is used by one mock at a time (two mocks on one file would both
 * hand out the same ids and one would overwrite the other's pets). The lock is `<file>.lock`, created exclusively
 * (O_CREAT|O_EXCL) and holding `{pid, host, since}`. A lock whose holder is a process of this host that no longer
 * runs is stale and taken over: it is first renamed to a private name and checked to be the very lock judged stale,
 * so two mocks starting at once over a stale lock cannot both take it. A lock held by a live process, or by a
 * process on another host (whose liveness cannot be seen), is refused with a InputFileError naming the holder.
 * Released by `release()`, and on process exit (a crash leaves a stale lock, which the next start takes over).
 */
export async function acquireStateLock(stateFile: string): Promise<StateLock> {
  const file = `${stateFile}.lock`;
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const text = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return held(file, holder, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new InputFileError(
          `${stateFile}: cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); the lock file ${file} could not be created`,
        );
      }
    }
    const found = await readHolder(file);
    if (found === 'gone') continue;
    if (found === 'unreadable') {
      if (await olderThan(file, UNREADABLE_GRACE_MS)) await takeOver(file, undefined);
      else await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (found.holder.host === holder.host && !isRunning(found.holder.pid)) {
      await takeOver(file, found.text);
      continue;
    }
    throw new InputFileError(
      `${stateFile} is in use by another mock (pid ${found.holder.pid} on ${found.holder.host}, since ${found.holder.since}); ` +
        `stop it, or give this mock another --state file. If that mock is gone, delete ${file}`,
    );
  }
  throw new InputFileError(`${stateFile}: could not take the lock ${file} (it keeps changing hands)`);
}

function held(file: string, holder: LockHolder, text: string): StateLock {
  let released = false;
  // A process that exits without close() (an uncaught error, process.exit) still frees its lock.
  const onExit = () => {
    try {
      if (readFileSync(file, 'utf8') === text) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  return {
    file,
    holder,
    async release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      try {
        // Only our own lock: after a takeover by someone else (ours judged stale), the file is theirs.
        if ((await readFile(file, 'utf8')) === text) await unlink(file);
      } catch {
        // Already gone.
      }
    },
  };
}

async function readHolder(file: string): Promise<{ holder: LockHolder; text: string } | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    if (Number.isSafeInteger(holder.pid) && holder.pid > 0 && typeof holder.host === 'string') return { holder, text };
  } catch {
    // Fall through.
  }
  return 'unreadable';
}

/** Whether a process of this host runs: signal 0 checks without signalling (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(file: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(file)).mtimeMs > ms;
  } catch {
    return false;
  }
}

/**
 * Removes the stale lock whose text is `stale` (undefined: an unreadable one) and nothing else: the file is moved
 * aside under a private name first; if what was moved is not the stale lock (another mock took over in between and
 * created its own), it is put back.
 */
async function takeOver(file: string, stale: string | undefined): Promise<void> {
  const aside = `${file}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  const isStale =
    stale === undefined ? moved !== undefined && (await readHolder(aside)) === 'unreadable' : moved === stale;
  if (!isStale) {
    // link() never replaces: if yet another lock appeared meanwhile, that one stands.
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}
