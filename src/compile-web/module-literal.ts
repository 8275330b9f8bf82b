/**
 * A JSON-like value as JavaScript source: what JSON.stringify writes, except that a bigint (an int64 beyond 2^53,
 * src/json/int64.ts) keeps every digit as a bigint literal, and a key named `__proto__` is written as a computed
 * key, which an object literal takes as a property rather than as the object's prototype. `replace` may write an
 * object as another value (a schema of a resolved document as `{$ref}`, which a page resolves again).
 * @example moduleLiteral({ id: 9007199254740993n }) // '{"id":9007199254740993n}'
 */
export function moduleLiteral(value: unknown, replace: (value: object) => unknown = (same) => same): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value !== null && typeof value === 'object') {
    const replaced = replace(value);
    if (replaced !== value) return moduleLiteral(replaced);
  }
  if (Array.isArray(value)) return `[${value.map((item) => moduleLiteral(item ?? null, replace)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined && typeof item !== 'function',
    );
    return `{${entries.map(([key, item]) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}:${moduleLiteral(item, replace)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
