/**
 * The run cannot go on (its deadline passed, or the target stopped answering): the case in progress and every
 * later one end as skipped with this reason, and the command exits 2 with it as its one line.
 */
export class StopRun extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'StopRun';
  }
}

/** Marks the run stopped and throws (any object with `stopped`, a session's pacing: this module needs nothing else). */
export function stopAfter(pacing: { stopped?: string | undefined }, reason: string): never {
  pacing.stopped ??= reason;
  throw new StopRun(pacing.stopped);
}
