import type { Parameter } from './operations.js';
import { toInteger } from '../json/int64.js';

/**
 * A parameter's value from the text of a request: what the mock reads and what the runner means when it sends, by
 * one set of rules. Strings become numbers or booleans strictly (`"1.5"`, `" 5"`, `"0x10"` and `""` are not
 * integers), and an array is read as its style says (OpenAPI 3.0.3 §4.7.12.1): `form` with `explode` (a query's
 * default) is one value per occurrence, `tags=a&tags=b`; `form` without it and `simple` (a path's or a header's
 * default) one comma-separated text, `a,b`. Each item is converted by the items' type. A query string has no JSON
 * types: `tags=true` is the array `["true"]`, which a string item takes.
 */
export type ParameterValue = { value: unknown } | { message: string };

/** `values`: every occurrence of the parameter in the request, at least one. */
export function parameterValue(parameter: Parameter, values: readonly string[]): ParameterValue {
  const where = `${parameter.in}.${parameter.name}`;
  if (parameter.type === 'array') {
    const texts = parameter.explode ? values : values.flatMap((value) => value.split(','));
    const items: unknown[] = [];
    for (const text of texts) {
      const item = scalarValue(text, parameter.itemType, where);
      if ('message' in item) return item;
      items.push(item.value);
    }
    return { value: items };
  }
  if (values.length > 1) return { message: `${where} must be given once (got ${values.length} values)` };
  return scalarValue(values[0]!, parameter.type, where);
}

function scalarValue(text: string, type: string | undefined, where: string): ParameterValue {
  switch (type) {
    case 'integer':
      // Plain decimal only: no sign but a minus, no leading zeros (`+5` and `007` are not how an integer is written).
      // Beyond ±(2^53−1) a bigint with the digits sent (src/json/int64.ts): an int64 `petId` such as 2^53 + 1 finds
      // the pet with exactly that id, never one a double would round it onto (2^53).
      return /^(0|-?[1-9]\d*)$/.test(text)
        ? { value: toInteger(text) }
        : { message: `${where} must be an integer (got ${quote(text)})` };
    case 'number': {
      const number = text.trim() === '' ? Number.NaN : Number(text);
      return Number.isFinite(number)
        ? { value: number }
        : { message: `${where} must be a number (got ${quote(text)})` };
    }
    case 'boolean':
      return text === 'true' || text === 'false'
        ? { value: text === 'true' }
        : { message: `${where} must be true or false (got ${quote(text)})` };
    default:
      return { value: text };
  }
}

/**
 * A client's value in a message, JSON-quoted; a long one is not quoted at all (an error never grows with the input,
 * and a cut-off prefix of a key put in a parameter would escape the redaction of whole keys in error messages).
 */
function quote(value: string): string {
  return value.length > 40 ? `a value of ${value.length} characters` : JSON.stringify(value);
}

/**
 * The texts a request carries for a parameter's value, as parameterValue reads them back: an array one text per item
 * with `explode` (`tags=a&tags=b`), else its items joined by commas (`tags=a,b`); a scalar its text (an int64 beyond
 * 2^53, held as a bigint, with its digits). OpenAPI 3.0.3 §4.7.12.1 (style values); RFC 6570 §3.2.8 (form-style
 * expansion). An empty array has no form-style text: a client leaves the parameter out.
 * @example parameterTexts({ type: 'array', explode: true }, ['a', 'b']) // ['a', 'b']
 */
export function parameterTexts(
  parameter: Pick<Parameter, 'type' | 'explode'>,
  value: unknown,
): string | readonly string[] {
  if (parameter.type === 'array' && Array.isArray(value)) {
    const texts = value.map(scalarText);
    return parameter.explode ? texts : texts.join(',');
  }
  return scalarText(value);
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
