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
