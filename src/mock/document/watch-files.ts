import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Calls `onChange` with the files that changed, once a burst of changes has been quiet for `debounceMs`.
 * It watches the files' directories, not the files: editors that save by writing a new file and renaming it over
 * the old one (vim, many IDEs) would otherwise leave a watcher on a deleted inode. Returns a function that stops.
 */
export function watchFiles(files: string[], onChange: (changed: string[]) => void, debounceMs = 100): () => void {
  const byDirectory = new Map<string, Set<string>>();
  for (const file of files) {
    const absolute = resolve(file);
    const names = byDirectory.get(dirname(absolute)) ?? new Set<string>();
    names.add(basename(absolute));
    byDirectory.set(dirname(absolute), names);
  }
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    const changed = [...pending];
    pending.clear();
    onChange(changed);
  };
  const watchers: FSWatcher[] = [];
  for (const [directory, names] of byDirectory) {
    const watcher = watch(directory, (_event, name) => {
      if (!name || !names.has(name.toString())) return;
      pending.add(join(directory, name.toString()));
      clearTimeout(timer);
      timer = setTimeout(fire, debounceMs);
    });
    // A directory removed under us ends its watcher; the mock keeps serving what it has.
    watcher.on('error', () => watcher.close());
    watchers.push(watcher);
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
