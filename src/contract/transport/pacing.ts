/**
 * Politeness towards a real deployment: `--rate N` spaces request starts at least 1/N s apart (parallel requests
 * included), and a 429, or a 503 with Retry-After, is waited out and sent again (RFC 9110 §10.2.3, RFC 6585 §4).
 * The interface leaves rate limits "not shown", so a target that limits is right to: waits are notes, never
 * violations.
 */

/** How often one request is sent again after a rate limit. */
export const MAX_RETRIES = 3;
/** The longest single wait the runner accepts from Retry-After; a longer one is not waited out. */
export const MAX_RETRY_WAIT_MS = 30_000;
/** A 429 without Retry-After is waited out this long (RFC 6585 lets the server leave it out). */
const DEFAULT_429_WAIT_MS = 1_000;

/** What pacing needs of a session: the rate, and when the next request may start. */
export interface Paced {
  readonly config: { readonly rate: number };
  readonly pacing: { nextSlotAt: number };
}

/** Waits until this request may start under `--rate`; each caller takes the next free slot, so parallel ones queue. */
export async function pace(session: Paced): Promise<void> {
  const rate = session.config.rate;
  if (!(rate > 0)) return;
  const now = Date.now();
  const slot = Math.max(now, session.pacing.nextSlotAt);
  session.pacing.nextSlotAt = slot + 1000 / rate;
  if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
}

/**
 * How long to wait before sending a request again after this answer, or undefined when it is not a rate limit to
 * wait out: not 429/503, a 503 without Retry-After (that is an outage, judged as a 5xx), a wait longer than
 * MAX_RETRY_WAIT_MS, or one that would pass the run's deadline (`remainingMs`).
 * @example retryDelay(429, '2', 60_000) // 2000
 */
export function retryDelay(
  status: number,
  retryAfter: string | string[] | undefined,
  remainingMs: number,
  now = Date.now(),
): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const value = [retryAfter ?? []].flat()[0]?.trim();
  let delay: number | undefined;
  if (value === undefined || value === '') delay = status === 429 ? DEFAULT_429_WAIT_MS : undefined;
  else if (/^\d+$/.test(value)) delay = Number(value) * 1000;
  else {
    // An HTTP-date (RFC 9110 §10.2.3).
    const at = Date.parse(value);
    delay = Number.isNaN(at) ? undefined : Math.max(0, at - now);
  }
  if (delay === undefined || delay > MAX_RETRY_WAIT_MS || delay >= remainingMs) return undefined;
  return delay;
}
