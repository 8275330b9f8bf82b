import { afterEach } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A maker of fresh temporary directories named `prefix…`, each removed after the test that made it. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/**
 * Removes a directory from a detached process of its own and returns at once. For trees a hook should not wait on
 * (installed `node_modules`: tens of thousands of files, minutes of disk work on a busy machine): the removal
 * outlives the test worker, and nothing after the test needs the tree gone, only gone eventually.
 */
export function removeInBackground(dir: string): void {
  const remover = spawn(
    process.execPath,
    ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', dir],
    { detached: true, stdio: 'ignore' },
  );
  remover.unref();
}
