/**
 * The independent target's own int64-exact JSON, written apart from src/json so that the two implementations
 * check each other: integers of 16 digits or more are carried through JSON.parse as marked strings and revived as
 * bigints when they are not safe integers; bigints are written as their digits.
 */
const MARK = '\u0000int64:';

function parse(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
      continue;
    }
    const number = /^-?\d{16,}(?![.eE\d])/.exec(text.slice(i, i + 40));
    if (number && !/[\d.]/.test(text[i - 1] ?? '')) {
      out += JSON.stringify(MARK + number[0]);
      i += number[0].length - 1;
      continue;
    }
    out += char;
  }
  return JSON.parse(out, (_, value: unknown) => {
    if (typeof value !== 'string' || !value.startsWith(MARK)) return value;
    const digits = value.slice(MARK.length);
    const n = Number(digits);
    return Number.isSafeInteger(n) ? n : BigInt(digits);
  });
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? MARK + v.toString() : v)).replace(
    /"\\u0000int64:(-?\d+)"/g,
    '$1',
  );
}

export const exactJson = { parse, stringify };
