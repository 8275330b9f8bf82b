/**
 * int64 as the document and the interface define it (`format: int64`): every integer from −2^63 to 2^63−1.
 * In memory an int64 is a `number` when it is a safe integer (±(2^53−1), the common case and the fast one) and a
 * `bigint` beyond that, so that no digit a client sent is lost. JSON text in and out goes through `parseJson` and
 * `stringifyJson` (this folder), which keep that representation; see docs/decisions.md.
 */
export type Int64 = number | bigint;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Whether a value is an int64 in its in-memory form: a safe-integer number, or a bigint in range. */
export function isInt64(value: unknown): value is Int64 {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * An integer written in plain decimal digits (`-?\d+`) as its in-memory form: a number when safe, else a bigint.
 * @example toInteger('9223372036854775807') // 9223372036854775807n
 */
export function toInteger(digits: string): number | bigint {
  const number = Number(digits);
  return Number.isSafeInteger(number) ? number : BigInt(digits);
}

/** The same integer normalised: a bigint that fits the safe range becomes a number, so equal values look equal. */
export function normaliseInteger(value: number | bigint): number | bigint {
  return typeof value === 'bigint' && value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/**
 * Orders two int64s exactly (a number and a bigint compare by value in JavaScript); for `Array.prototype.sort`.
 * @example [3n ** 40n, 2].sort(compareInt64) // [2, 12157665459056928801n]
 */
export function compareInt64(a: Int64, b: Int64): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The greater of two int64s, in its in-memory form. */
export function maxInt64(a: Int64, b: Int64): Int64 {
  return a < b ? b : a;
}

/**
 * The integer after `value`, in its in-memory form: a number while it stays safe, else a bigint (exact). The caller
 * bounds it: after INT64_MAX comes a bigint beyond int64.
 * @example plusOne(9007199254740991) // 9007199254740992n
 */
export function plusOne(value: Int64): Int64 {
  if (typeof value === 'number') return value < Number.MAX_SAFE_INTEGER ? value + 1 : BigInt(value) + 1n;
  return normaliseInteger(value + 1n);
}
