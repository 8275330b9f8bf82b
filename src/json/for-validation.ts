import { INT64_MAX, INT64_MIN } from './int64.js';

/**
 * A value as AJV can judge it. AJV knows no bigint (its `type: integer` is `typeof n == "number"`), so before
 * validation every bigint is replaced by a number standing in for it:
 * - an int64 (within ±2^63) by ±(2^53−1), a safe integer of the same sign: it passes `type: integer` and
 *   `format: int64`, and compares with any `minimum`/`maximum` inside the safe range as the bigint would;
 * - a bigint beyond int64 by its nearest double, which `format: int64` refuses (only safe-integer numbers pass it).
 * A double beyond ±(2^53−1) (a fraction or exponent such as `1e19` or `9007199254740993.5`) is left as it is and
 * refused by `format: int64` too: beyond the safe range an int64 must be written in plain digits to be exact.
 * Values without a bigint are returned as they are, not copied.
 */
export function forValidation(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      if (value >= INT64_MIN && value <= INT64_MAX)
        return value > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
      return Number(value);
    case 'object': {
      if (value === null) return value;
      if (Array.isArray(value)) {
        let items: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const item = forValidation(value[i]);
          if (item !== value[i]) (items ??= value.slice())[i] = item;
        }
        return items ?? value;
      }
      let copy: Record<string, unknown> | undefined;
      for (const key of Object.keys(value)) {
        const original = (value as Record<string, unknown>)[key];
        const item = forValidation(original);
        if (item === original) continue;
        copy ??= copyObject(value as Record<string, unknown>);
        Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
      }
      return copy ?? value;
    }
    default:
      return value;
  }
}

function copyObject(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    Object.defineProperty(copy, key, { value: value[key], writable: true, enumerable: true, configurable: true });
  return copy;
}
