/**
 * A JSON-like value as JavaScript source: what JSON.stringify writes, except that a bigint (an int64 beyond 2^53,
 * src/json/int64.ts) keeps every digit as a bigint literal, and a key named `__proto__` is written as a computed
 * key, which an object literal takes as a property rather than as the object's prototype.
 * @example moduleLiteral({ id: 9007199254740993n }) // '{"id":9007199254740993n}'
 */
export function moduleLiteral(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `[${value.map((item) => moduleLiteral(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined && typeof item !== 'function',
    );
    return `{${entries.map(([key, item]) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}:${moduleLiteral(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
