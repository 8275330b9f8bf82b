import type { Operation } from '../../openapi/operations.js';
import type { SchemaLike } from './json-schema.js';

export interface ParameterSchema {
  name: string;
  in: string;
  required: boolean;
  schema: SchemaLike;
}

/**
 * An operation's parameters and JSON body schema, from the dereferenced document: its own parameters, and those of
 * its path item it does not override (OpenAPI 3.0.3 §4.7.9: path-level parameters "apply for all the operations
 * under this path"), read from the schema their validator was compiled from.
 */
export function requestSchemas(operation: Operation): {
  query: ParameterSchema[];
  path: ParameterSchema[];
  body: SchemaLike | undefined;
} {
  const parameters = (operation.object.parameters ?? []) as {
    name: string;
    in: string;
    required?: boolean;
    schema?: SchemaLike;
  }[];
  const list = parameters.map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required === true,
    schema: p.schema ?? {},
  }));
  for (const parameter of operation.parameters)
    if (!list.some((p) => p.name === parameter.name && p.in === parameter.in))
      list.push({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required,
        schema: (parameter.validate.schema ?? {}) as SchemaLike,
      });
  const body = operation.object.requestBody as { content?: Record<string, { schema?: SchemaLike }> } | undefined;
  const json = Object.entries(body?.content ?? {}).find(([type]) => /^application\/(.+\+)?json$/i.test(type))?.[1];
  return { query: list.filter((p) => p.in === 'query'), path: list.filter((p) => p.in === 'path'), body: json?.schema };
}

/** A value as a query or path parameter carries it: its digits, its text. */
export function asParameter(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
