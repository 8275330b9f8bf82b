/** A latency range in milliseconds; `min === max` is a fixed latency. */
export interface Latency {
  min: number;
  max: number;
}

export interface FaultOptions {
  /** Latency added to every answer: a fixed number of milliseconds or a range picked from uniformly. */
  delay?: number | Latency;
  /** The share of requests, 0 to 1, whose connection is dropped instead of answered. */
  faultRate?: number;
}

/** The longest delay a flag or a `Prefer: delay=` may ask for: beyond it, clients and proxies time out anyway. */
export const MAX_DELAY_MS = 60_000;

/**
 * Simulated network trouble for every request the mock serves. A fault cannot be an HTTP answer: the interface
 * declares no 5xx, so a 5xx `Error` would break the contract the mock exists to keep. A fault is therefore what
 * a flaky network does: the connection is dropped (the socket destroyed) before any response is written.
 */
export function createFaults(options: FaultOptions = {}) {
  const started = { latency: toLatency(options.delay), rate: checkRate(options.faultRate ?? 0) };
  let { latency, rate } = started;

  return {
    /** Milliseconds to wait before answering: the client's `Prefer: delay=` if any, else the configured latency. */
    delay(preferred: number | undefined): number {
      if (preferred !== undefined) return preferred;
      if (!latency) return 0;
      return latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1));
    },
    /** Whether to drop this request's connection. */
    drop(): boolean {
      return rate > 0 && Math.random() < rate;
    },
    /** Changes latency and fault rate while the mock runs (the admin API's control); undefined keeps a setting. */
    set(changes: FaultOptions): void {
      // Both checked before either is applied: a bad change changes nothing.
      const next = {
        latency: changes.delay === undefined ? latency : toLatency(changes.delay),
        rate: changes.faultRate === undefined ? rate : checkRate(changes.faultRate),
      };
      ({ latency, rate } = next);
    },
    /** Back to the start-up settings. */
    restore(): void {
      ({ latency, rate } = started);
    },
    /** The settings now, as `FaultOptions` take them. */
    settings(): { delay: Latency | null; faultRate: number } {
      return { delay: latency ? { ...latency } : null, faultRate: rate };
    },
  };
}

function checkRate(rate: unknown): number {
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new RangeError(`faultRate must be a number from 0 to 1 (got ${String(rate)})`);
  return rate;
}

export type Faults = ReturnType<typeof createFaults>;

/** `200` or `100-500` (milliseconds), as the `--delay` flag takes it; undefined when malformed or out of range. */
export function parseDelay(text: string): Latency | undefined {
  const match = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return min <= max && max <= MAX_DELAY_MS ? { min, max } : undefined;
}

function toLatency(delay: number | Latency | undefined): Latency | undefined {
  if (delay === undefined) return undefined;
  const latency = typeof delay === 'number' ? { min: delay, max: delay } : delay;
  const { min, max } = latency;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || min > max || max > MAX_DELAY_MS) {
    throw new RangeError(
      `delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, a range with min <= max (got ${JSON.stringify(delay)})`,
    );
  }
  return max === 0 ? undefined : latency;
}
