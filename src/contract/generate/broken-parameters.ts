import type { Operation, Parameter } from '../../openapi/operations.js';
import { parameterValue } from '../../openapi/parameter-text.js';
import { mutationsOf } from './invalid-variants.js';
import { asParameter, requestSchemas } from './request-schemas.js';

/** One query or path parameter broken: which, what is wrong with it, and the text sent. */
export interface BrokenParameter {
  name: string;
  in: 'query' | 'path';
  label: string;
  text: string;
}

/**
 * Each constraint of each query and path parameter of `operation` broken one at a time, as far as text on the wire
 * can break it: the mutations of its schema (invalid-variants.ts), each sent as text, kept only where the document's
 * validator refuses that text once converted as the parameter's type says (for a plain string, `true` and `7` are
 * strings like any other, so they break nothing). Arrays and objects have no one way of being a parameter.
 */
export function brokenParameters(operation: Operation): BrokenParameter[] {
  const { query, path } = requestSchemas(operation);
  const broken: BrokenParameter[] = [];
  const seen = new Set<string>();
  for (const schema of [...path, ...query]) {
    const parameter = operation.parameters.find((p) => p.name === schema.name && p.in === schema.in);
    if (!parameter) continue;
    for (const mutation of mutationsOf(schema.schema, `${schema.in}.${schema.name}`)) {
      const value = mutation.apply(undefined);
      if (value !== null && typeof value === 'object') continue;
      const text = asParameter(value);
      const key = `${schema.in} ${schema.name} ${text}`;
      if (seen.has(key) || parameterTextValid(parameter, text)) continue;
      seen.add(key);
      broken.push({ name: schema.name, in: schema.in as 'query' | 'path', label: mutation.label, text });
    }
  }
  return broken;
}

/**
 * Whether the document takes `text` as the value of `parameter`: read as the mock reads it (parameter-text.ts: plain
 * decimal integers, finite numbers, `true`/`false`, an array by its style), then checked by the compiled schema.
 */
export function parameterTextValid(parameter: Parameter, text: string): boolean {
  const read = parameterValue(parameter, [text]);
  return !('message' in read) && parameter.validate(read.value);
}
