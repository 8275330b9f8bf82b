import type { Session } from '../base/session.js';
import { StopRun } from '../base/stop-run.js';

/**
 * The run's examples in flight, at most `--concurrency` at once across every property of every case: one queue,
 * first come first served, so a case's properties can run side by side without sending more at once than asked.
 */
class Slots {
  #free: number;
  readonly size: number;
  readonly #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.size = size;
    this.#free = size;
  }

  get busy(): number {
    return this.size - this.#free;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

const slotsOf = new WeakMap<Session, Slots>();

/** How many examples are being sent now (the caller's own included, when it holds a slot). */
export function examplesInFlight(session: Session): number {
  return slotsOf.get(session)?.busy ?? 0;
}

/** Runs one example (its requests in order) in one of the run's slots. */
export function inSlot<T>(session: Session, work: () => Promise<T>): Promise<T> {
  let slots = slotsOf.get(session);
  if (!slots) slotsOf.set(session, (slots = new Slots(Math.max(1, session.config.concurrency))));
  return slots.run(work);
}

/**
 * Runs `each` for every item: one after another under `--concurrency 1` (a seed replays in the same order), side
 * by side otherwise, the slots bounding what is in flight. Every one is let finish before the first error (a
 * stopped run first) is thrown: nothing keeps sending after its case has ended.
 */
export async function eachProperty<T>(
  session: Session,
  items: Iterable<T>,
  each: (item: T) => Promise<void>,
): Promise<void> {
  if (session.config.concurrency <= 1) {
    for (const item of items) await each(item);
    return;
  }
  const outcomes = await Promise.allSettled([...items].map((item) => each(item)));
  const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (errors.length > 0) throw errors.find((e) => e instanceof StopRun) ?? errors[0];
}
