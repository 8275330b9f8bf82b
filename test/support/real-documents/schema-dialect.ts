import { HTTP_METHODS, type Document } from './read-document.js';

/**
 * Rewrites, in place, the Schema Objects of an OpenAPI 3.0 document (a copy the test parsed itself) into JSON Schema
 * 2020-12 with the meaning OAS 3.0.3 gives them, so that one AJV 2020 instance judges 3.0 and 3.1 alike:
 * - `nullable: true` adds "null" to `type` "only if type is explicitly defined within the same Schema Object. Other
 *   Schema Object constraints retain their defined behavior, and therefore may disallow the use of null" (OAS 3.0.3
 *   §4.7.24, nullable): an `enum` without null still refuses it;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` modify `minimum`/`maximum` (JSON Schema Wright-00 §5.3, §5.5),
 *   where 2020-12 takes the bound itself;
 * - a Reference Object "cannot be extended with additional properties and any properties added SHALL be ignored"
 *   (OAS 3.0.3 §4.7.23): siblings of `$ref` are dropped.
 * A 3.1 document is left as it is: its Schema Objects are 2020-12 already (OAS 3.1.0 §4.8.24).
 */
export function toJsonSchema2020(document: Document): void {
  if (!String(document.openapi).startsWith('3.0')) return;
  const seen = new Set<object>();
  const components = (document.components ?? {}) as Document;
  for (const schema of Object.values(components.schemas ?? {})) convertSchema(schema, seen);
  for (const parameter of Object.values(components.parameters ?? {})) convertCarrier(parameter, seen);
  for (const header of Object.values(components.headers ?? {})) convertCarrier(header, seen);
  for (const body of Object.values(components.requestBodies ?? {})) convertCarrier(body, seen);
  for (const response of Object.values(components.responses ?? {})) convertResponse(response, seen);
  for (const callback of Object.values(components.callbacks ?? {})) convertPathItems(callback, seen);
  convertPathItems(document.paths, seen);
}

function convertPathItems(items: unknown, seen: Set<object>): void {
  if (!isObject(items)) return;
  for (const item of Object.values(items)) {
    if (!isObject(item)) continue;
    for (const parameter of asArray(item.parameters)) convertCarrier(parameter, seen);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      for (const parameter of asArray(operation.parameters)) convertCarrier(parameter, seen);
      convertCarrier(operation.requestBody, seen);
      for (const response of Object.values(isObject(operation.responses) ? operation.responses : {}))
        convertResponse(response, seen);
      for (const callback of Object.values(isObject(operation.callbacks) ? operation.callbacks : {}))
        convertPathItems(callback, seen);
    }
  }
}

function convertResponse(response: unknown, seen: Set<object>): void {
  if (!isObject(response)) return;
  convertCarrier(response, seen);
  for (const header of Object.values(isObject(response.headers) ? response.headers : {})) convertCarrier(header, seen);
}

/** A Parameter, Header, Request Body or Response: a `schema`, or a `content` map of media types with one each. */
function convertCarrier(carrier: unknown, seen: Set<object>): void {
  if (!isObject(carrier)) return;
  convertSchema(carrier.schema, seen);
  for (const media of Object.values(isObject(carrier.content) ? carrier.content : {}))
    if (isObject(media)) convertSchema(media.schema, seen);
}

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;

function convertSchema(schema: unknown, seen: Set<object>): void {
  // A YAML alias can put one schema in two places: convert it once.
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    for (const key of Object.keys(schema)) if (key !== '$ref') delete schema[key];
    return;
  }
  convertKeywords(schema);
  for (const value of Object.values(isObject(schema.properties) ? schema.properties : {})) convertSchema(value, seen);
  convertSchema(schema.additionalProperties, seen);
  convertSchema(schema.items, seen);
  convertSchema(schema.not, seen);
  for (const list of SUBSCHEMA_LISTS) for (const value of asArray(schema[list])) convertSchema(value, seen);
}

function convertKeywords(schema: Document): void {
  if (schema.nullable === true && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  delete schema.nullable;
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else if (typeof schema[exclusive] === 'boolean') delete schema[exclusive];
  }
}

const isObject = (value: unknown): value is Document =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
