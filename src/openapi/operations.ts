import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { DocumentError } from '../input-errors.js';
import type { Direction } from './schema-compiler.js';
import { mainType } from './schema-keywords.js';
import { essenceOf, kindOf, type BodyMedia } from './body-media.js';
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
  /** An array's items' type, each item converted by it (parameter-text.ts). */
  itemType?: string | undefined;
  /** An array as one value per occurrence (`form` with `explode`, a query's default), else comma-separated. */
  explode: boolean;
  default: unknown;
  validate: ValidateFunction;
}

export interface RequestBody {
  required: boolean;
  mediaTypes: string[];
  /** The schema of the first JSON media type, compiled. */
  validate: ValidateFunction | undefined;
  /** Every declared media type as the mock reads it; absent: the JSON types of `mediaTypes` (the admin API's). */
  media?: BodyMedia[];
}

export interface ResponseSpec {
  mediaTypes: string[];
  /** The schema of the first JSON media type, the one `validate` checks (the mock shapes its errors from it). */
  schema: object | undefined;
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
  /** Keyed by status as written in the document, upper-cased: `200`, `4XX`, `DEFAULT`. */
  responses: Map<string, ResponseSpec>;
  object: OpenAPIV3.OperationObject;
}

/**
 * Compiles a JSON Schema of the document into a validator: AJV at run time (by reference, schema-compiler.ts), or a
 * lookup of validators built ahead. `direction` says how `readOnly`/`writeOnly` bear on `required`; a response by
 * default.
 */
export type CompileSchema = (schema: object, direction?: Direction) => ValidateFunction;

/** Every operation of a resolved document, validators compiled with `compile`. */
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

/**
 * The response spec for a status: exact code first, then the `4XX` range, then `default` (OpenAPI 3.0.3 §4.7.16:
 * "The documentation of responses other than the ones declared for specific HTTP response codes"). The keys are
 * upper-cased by compileResponses, `default` included.
 */
export function findResponse(operation: Operation, status: number): ResponseSpec | undefined {
  const responses = operation.responses;
  return responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('DEFAULT');
}

/**
 * The same rule as `findResponse` over a response object's own keys, as the document writes them (any case): for
 * readers of the raw responses, whose media types `ResponseSpec` does not keep (it holds the first JSON one only).
 */
export function declaredResponseKey(keys: readonly string[], status: number): string | undefined {
  const find = (wanted: string) => keys.find((key) => key.toUpperCase() === wanted);
  return find(String(status)) ?? find(`${String(status)[0]}XX`) ?? find('DEFAULT');
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function mergeParameters(
  pathLevel: (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[] = [],
  operationLevel: (OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject)[] = [],
): OpenAPIV3.ParameterObject[] {
  // Operation-level parameters override path-level ones with the same name and location.
  const merged = new Map<string, OpenAPIV3.ParameterObject>();
  for (const p of [...pathLevel, ...operationLevel] as OpenAPIV3.ParameterObject[]) merged.set(`${p.in}:${p.name}`, p);
  // OAS 3.0.3 §4.7.12: 'If in is "header" and the name field is "Accept", "Content-Type" or "Authorization", the
  // parameter definition SHALL be ignored.' Content negotiation, the body's media type and the security scheme
  // govern those headers; a request is never refused by such a definition.
  return [...merged.values()].filter((p) => !(p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())));
}

function compileParameter(parameter: OpenAPIV3.ParameterObject, compile: CompileSchema, where: string): Parameter {
  const schema = (parameter.schema ?? {}) as OpenAPIV3.SchemaObject;
  return {
    name: parameter.name,
    in: parameter.in as ParameterLocation,
    required: parameter.required === true || parameter.in === 'path',
    type: mainType(schema),
    ...(mainType(schema) === 'array' ? { itemType: mainType((schema as { items?: object }).items ?? {}) } : {}),
    explode: explodes(parameter),
    default: schema.default,
    validate: compileAt(compile, schema, `${where}.parameters[${parameter.in}.${parameter.name}].schema`, 'request'),
  };
}

/** OpenAPI 3.0.3 §4.7.12: `explode` defaults to true for style `form` (a query's and a cookie's default), else false. */
function explodes(parameter: OpenAPIV3.ParameterObject): boolean {
  const style = parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
  return parameter.explode ?? style === 'form';
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
  const validate = schema ? compileAt(compile, schema, `${where}.content.${json}.schema`, 'request') : undefined;
  return {
    required: body.required === true,
    mediaTypes,
    validate,
    media: mediaTypes.map((type) => {
      const essence = essenceOf(type);
      const kind = kindOf(essence);
      const { schema, encoding = {} } = body.content[type] ?? {};
      // Validators compile when they first run (schema-compiler.ts): a form no request reaches costs nothing.
      const compiled =
        kind === 'json'
          ? validate
          : kind !== 'bytes' && schema
            ? compileAt(compile, schema, `${where}.content.${type}.schema`, 'request')
            : undefined;
      return { type, essence, kind, schema, validate: compiled, encoding };
    }),
  };
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
      schema,
      validate: schema
        ? compileAt(compile, schema, `${where}.${status}.content.${json}.schema`, 'response')
        : undefined,
    });
  }
  return compiled;
}

/** AJV's "schema is invalid: data/type must be …" names no place; say which schema of the document it was. */
function compileAt(compile: CompileSchema, schema: object, where: string, direction: Direction): ValidateFunction {
  try {
    return compile(schema, direction);
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
