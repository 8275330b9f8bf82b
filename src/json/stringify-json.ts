/**
 * JSON.stringify that writes a bigint as its digits, so an int64 beyond ±(2^53−1) leaves exactly as it came in.
 * Values without a bigint take the engine's JSON.stringify (the fast path); only one that holds a bigint is
 * written by the walk below, with JSON.stringify's rules otherwise (toJSON, undefined and functions left out of
 * objects and written as null in arrays). The one serialiser for pets and replies: the store's JSON text, the
 * state file, the journal, any reply body.
 * @example stringifyJson({ categoryId: 9223372036854775807n }) // '{"categoryId":9223372036854775807}'
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return write(value, '') ?? 'null';
  }
}

function write(value: unknown, key: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value))
        return `[${value.map((item, index) => write(item, String(index)) ?? 'null').join(',')}]`;
      const parts: string[] = [];
      for (const name of Object.keys(value)) {
        const text = write((value as Record<string, unknown>)[name], name);
        if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}
