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

/** Marks the session stopped and throws (any object with `stopped`: this module needs nothing else of a session). */
export function stopAfter(session: { stopped?: string | undefined }, reason: string): never {
  session.stopped ??= reason;
  throw new StopRun(session.stopped);
}
