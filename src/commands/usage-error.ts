import { UsageError } from '../input-errors.js';

// UsageError lives with the other input errors (config/ throws it too, and must not import commands/).
export { UsageError };

/** A whole number of at least `min`, or a UsageError naming the flag. */
export function parseInteger(
  flag: string,
  value: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

/** A positive decimal number (`20`, `0.5`: one request every two seconds) of at most `max`, or a UsageError naming the flag. */
export function parsePositive(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value) || !(number > 0) || number > max) {
    throw new UsageError(`--${flag} must be a number above 0 and at most ${max}, such as 20 or 0.5 (got "${value}")`);
  }
  return number;
}
