import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { DocumentError } from '../input-errors.js';
import { operationSecurity, readDocumentSecurity, type OperationSecurity } from './security.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type ParameterLocation = 'query' | 'path' | 'header' | 'cookie';

/** A parameter with its schema compiled: OpenAPI 3.0 §4.7.12. */
export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** The JSON type the raw string converts to before validation. */
  type: string | undefined;
  default: unknown;
  validate: ValidateFunction;
}

export interface RequestBody {
  required: boolean;
  mediaTypes: string[];
  validate: ValidateFunction | undefined;
}

export interface ResponseSpec {
  mediaTypes: string[];
  validate: ValidateFunction | undefined;
}

/** One operation of the document, with everything a request or a response is checked against compiled once. */
export interface Operation {
  id: string;
  method: string;
  /** The path template relative to the base path, e.g. `/pets/{petId}`. */
  path: string;
  tags: string[];
  deprecated: boolean;
  /** `x-deprecated-since`: when the operation was deprecated (RFC 9745). */
  deprecatedSince: Date | undefined;
  /** `x-sunset`: when a deprecated operation is removed (RFC 8594). */
  sunset: Date | undefined;
  /** `x-replaced-by`: the operationId that replaces a deprecated one. */
  replacedBy: string | undefined;
  /** The credentials it requires: alternatives of schemes (OpenAPI 3.0.3 §4.7.10, §4.8.30; security.ts). */
  security: OperationSecurity;
  parameters: Parameter[];
  body: RequestBody | undefined;
  /** Keyed by status as written in the document: `200`, `4XX`, `default`. */
  responses: Map<string, ResponseSpec>;
  object: OpenAPIV3.OperationObject;
}

/** Compiles a JSON Schema of the document into a validator: AJV at run time, or a lookup of validators built ahead. */
export type CompileSchema = (schema: object) => ValidateFunction;

/** Every operation of a dereferenced document, validators compiled with `compile`. */
export function listOperations(document: OpenAPIV3.Document, compile: CompileSchema): Operation[] {
  const { schemes } = readDocumentSecurity(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const object = item[method];
      if (!object) continue;
      const id = object.operationId ?? `${method} ${path}`;
      operations.push({
        id,
        method,
        path,
        tags: object.tags ?? [],
        deprecated: object.deprecated === true,
        deprecatedSince: readDate(object, 'x-deprecated-since', id),
        sunset: readDate(object, 'x-sunset', id),
        replacedBy: readString(object, 'x-replaced-by'),
        security: operationSecurity(object.security ?? document.security, schemes, id),
        parameters: mergeParameters(item.parameters, object.parameters).map((p) =>
          compileParameter(p, compile, `paths.${path}.${method}`),
        ),
        body: compileBody(
          object.requestBody as OpenAPIV3.RequestBodyObject | undefined,
          compile,
          `paths.${path}.${method}.requestBody`,
        ),
        responses: compileResponses(object.responses, compile, `paths.${path}.${method}.responses`),
        object,
      });
    }
  }
  for (const operation of operations) {
    if (operation.replacedBy && !operations.some((o) => o.id === operation.replacedBy)) {
      throw new DocumentError(
        `operation ${operation.id}: x-replaced-by names "${operation.replacedBy}", which is no operationId in the document`,
      );
    }
  }
  return operations;
}

/** The response spec for a status: exact code first, then the `4XX` range, then `default` (OpenAPI 3.0 §4.7.16). */
export function findResponse(operation: Operation, status: number): ResponseSpec | undefined {
  const responses = operation.responses;
  return responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default');
}

function mergeParameters(
  pathLevel: (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[] = [],
  operationLevel: (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[] = [],
): OpenAPIV3.ParameterObject[] {
  // Operation-level parameters override path-level ones with the same name and location.
  const merged = new Map<string, OpenAPIV3.ParameterObject>();
  for (const p of [...pathLevel, ...operationLevel] as OpenAPIV3.ParameterObject[]) merged.set(`${p.in}:${p.name}`, p);
  return [...merged.values()];
}

function compileParameter(parameter: OpenAPIV3.ParameterObject, compile: CompileSchema, where: string): Parameter {
  const schema = (parameter.schema ?? {}) as OpenAPIV3.SchemaObject;
  return {
    name: parameter.name,
    in: parameter.in as ParameterLocation,
    required: parameter.required === true || parameter.in === 'path',
    type: typeof schema.type === 'string' ? schema.type : undefined,
    default: schema.default,
    validate: compileAt(compile, schema, `${where}.parameters[${parameter.in}.${parameter.name}].schema`),
  };
}

function compileBody(
  body: OpenAPIV3.RequestBodyObject | undefined,
  compile: CompileSchema,
  where: string,
): RequestBody | undefined {
  if (!body) return undefined;
  const mediaTypes = Object.keys(body.content ?? {});
  const json = mediaTypes.find(isJsonMediaType);
  const schema = json ? body.content[json]?.schema : undefined;
  return {
    required: body.required === true,
    mediaTypes,
    validate: schema ? compileAt(compile, forRequest(schema), `${where}.content.${json}.schema`) : undefined,
  };
}

/**
 * A schema as a request is checked against it: OpenAPI 3.0 §4.7.24.1 (readOnly) — "If the property is marked as
 * readOnly being true and is in the required list, the required will take effect on the response only." So a
 * `readOnly` property is dropped from `required`; the schema is returned as it is when it has none (the browser
 * build looks validators up by the schema's text).
 */
export function forRequest<T>(schema: T, depth = 0): T {
  if (typeof schema !== 'object' || schema === null || depth > 32) return schema;
  const object = schema as Record<string, unknown>;
  let changed: Record<string, unknown> | undefined;
  const properties = object.properties as Record<string, Record<string, unknown>> | undefined;
  if (Array.isArray(object.required) && properties) {
    const required = (object.required as string[]).filter((name) => properties[name]?.readOnly !== true);
    if (required.length !== object.required.length) changed = { ...object, required };
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = object[key];
    if (!Array.isArray(parts)) continue;
    const mapped = parts.map((part: unknown) => forRequest(part, depth + 1));
    if (mapped.some((part, index) => part !== parts[index])) changed = { ...(changed ?? object), [key]: mapped };
  }
  return (changed ?? schema) as T;
}

function compileResponses(
  responses: OpenAPIV3.ResponsesObject,
  compile: CompileSchema,
  where: string,
): Map<string, ResponseSpec> {
  const compiled = new Map<string, ResponseSpec>();
  for (const [status, value] of Object.entries(responses ?? {})) {
    const response = value as OpenAPIV3.ResponseObject;
    const mediaTypes = Object.keys(response.content ?? {});
    const json = mediaTypes.find(isJsonMediaType);
    const schema = json ? response.content?.[json]?.schema : undefined;
    compiled.set(status.toUpperCase(), {
      mediaTypes,
      validate: schema ? compileAt(compile, schema, `${where}.${status}.content.${json}.schema`) : undefined,
    });
  }
  return compiled;
}

/** AJV's "schema is invalid: data/type must be …" names no place; say which schema of the document it was. */
function compileAt(compile: CompileSchema, schema: object, where: string): ValidateFunction {
  try {
    return compile(schema);
  } catch (error) {
    throw new DocumentError(`${where}: ${(error as Error).message.replace(/\bdata\//g, '')}`);
  }
}

function readDate(object: OpenAPIV3.OperationObject, key: string, id: string): Date | undefined {
  const value = readString(object, key);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new DocumentError(`operation ${id}: ${key} "${value}" is not a date`);
  return date;
}

function readString(object: OpenAPIV3.OperationObject, key: string): string | undefined {
  const value = (object as unknown as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  // YAML turns an unquoted date into a Date; accept it as the string it was written as.
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function isJsonMediaType(mediaType: string): boolean {
  // What nearly every client sends, answered without splitting (this runs on every request with a body).
  if (mediaType === 'application/json') return true;
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
}
