import type { Operation } from '../../openapi/operations.js';
import type { SchemaLike } from './json-schema.js';

export interface ParameterSchema {
  name: string;
  in: string;
  required: boolean;
  schema: SchemaLike;
}

/** An operation's parameters and JSON body schema, from the dereferenced document. */
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
  const body = operation.object.requestBody as { content?: Record<string, { schema?: SchemaLike }> } | undefined;
  const json = Object.entries(body?.content ?? {}).find(([type]) => /^application\/(.+\+)?json$/i.test(type))?.[1];
  return { query: list.filter((p) => p.in === 'query'), path: list.filter((p) => p.in === 'path'), body: json?.schema };
}

/** A value as a query or path parameter carries it: its digits, its text. */
export function asParameter(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
