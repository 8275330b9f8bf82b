import { lstat, readlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputFileError } from '../../input-errors.js';

const MAX_LINKS = 32;

/**
 * The file a `--state` path really names. A symbolic link is followed (to its final target, which need not exist
 * yet), so the state is written to the real file and the link stays a link: replacing the link by a regular file
 * would silently move the state away from where the user keeps it. The lock and the temporary file then live
 * beside the real file. Anything but a regular file (a directory, a device, a FIFO) is refused.
 */
export async function resolveStatePath(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let info;
    try {
      info = await lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw new InputFileError(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (info.isSymbolicLink()) {
      current = resolve(dirname(current), await readlink(current));
      continue;
    }
    if (!info.isFile())
      throw new InputFileError(
        `${path}: the state file must be a regular file${current === resolve(path) ? '' : ` (it links to ${current})`}`,
      );
    return current;
  }
  throw new InputFileError(`${path}: too many levels of symbolic links`);
}
