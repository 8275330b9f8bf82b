import { INT64_MAX, INT64_MIN, type Int64 } from '../../json/int64.js';

/**
 * A pet's member in the Redis store's sorted sets and hash (redis-scripts.ts): its id as fixed-width text whose byte
 * order is the ids' numeric order, so that ids stay exact (a sorted-set score is a double, exact only to 2^53) and
 * ZRANGE by rank at one score lists them in order. `p` and 19 zero-padded digits for an id from 0; `n` and the 19
 * digits of 2^63 + id for a negative one (`n` sorts before `p`). undefined for a value that is not an int64.
 * @example memberOf(42) // 'p0000000000000000042'
 */
export function memberOf(id: Int64): string | undefined {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) return undefined;
  const value = BigInt(id);
  if (value < INT64_MIN || value > INT64_MAX) return undefined;
  return value >= 0n ? `p${String(value).padStart(19, '0')}` : `n${String(value - INT64_MIN).padStart(19, '0')}`;
}
