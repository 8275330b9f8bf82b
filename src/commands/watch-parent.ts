import { readFileSync } from 'node:fs';

/**
 * Calls `onGone` once when the process that started this one has exited, seen as a change of the parent pid (the
 * orphan is adopted by init or a subreaper). Checks every `intervalMs` (a getppid call, nothing more) on an unref'd
 * timer, so it never keeps the process alive. Started by init (parent 1) or with no parent, there is nothing to watch.
 * Returns a function that stops watching.
 * @example watchParent((pid) => { console.error(`parent ${pid} exited`); server.close(); });
 */
export function watchParent(onGone: (parent: number) => void, intervalMs = 500): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Whether this process is npm's child through its `sh -c` wrapper (`npx petstore-kit …`, `npm run mock`): npm
 * forwards a SIGTERM to that shell only, which dies and would leave us holding the port, so its death must stop us.
 * Started any other way (a shell's `&`, nohup, a CI step, a service manager), the parent's exit is no reason to stop:
 * a background server outlives the shell that started it, as any Unix server does.
 */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env, parentCommand = commandOf(process.ppid)): boolean {
  if (env.npm_command === undefined && env.npm_lifecycle_event === undefined) return false;
  // Where /proc can tell, npm's wrapper is `sh -c <command>`; a shell of the user's under npm's environment is not.
  if (parentCommand === undefined) return true;
  const [shell, flag] = parentCommand;
  return /(^|\/)(sh|bash|dash)$/.test(shell ?? '') && flag === '-c';
}

/** A process's argv from /proc (Linux), or undefined where it cannot be read. */
function commandOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}
