import { UsageError } from '../input-errors.js';

// UsageError lives with the other input errors (config/ throws it too, and must not import commands/).
export { UsageError };

/** A whole number of at least `min`, or a UsageError naming the flag. */
export function parseInteger(flag: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}
