import type { OpenAPIV3 } from 'openapi-types';
import { isJsonMediaType, type Operation } from './operations.js';
import { objectShape } from './schema-shape.js';
import type { DeclaredAnswer, PatchFormat, RequestRule, ResourceRole } from './resource-types.js';

/** An operation can opt out of every role: `x-petstore-kit-role: none` (it is then answered from examples). */
export const ROLE_EXTENSION = 'x-petstore-kit-role';

/** Where an operation sits: on a collection's path, on its item path, or elsewhere. */
export type PathPlace = 'collection' | 'item';

/** The role a method has on a collection or an item path; undefined when it has none there. */
export function roleOf(method: string, place: PathPlace): ResourceRole | undefined {
  if (place === 'collection') return method === 'post' ? 'create' : method === 'get' ? 'list' : undefined;
  if (method === 'get') return 'read';
  if (method === 'put') return 'replace';
  if (method === 'patch') return 'merge';
  if (method === 'delete') return 'delete';
  return undefined;
}

// Which success status each role prefers when the document declares several 2xx answers.
const PREFERRED_SUCCESS: Record<ResourceRole, string[]> = {
  create: ['201', '200'],
  delete: ['204', '200'],
  list: ['200'],
  read: ['200'],
  replace: ['200', '204'],
  merge: ['200', '204'],
};

/** The success answer the mock gives for a role: the preferred declared 2xx, else the lowest declared 2xx. */
export function successAnswer(operation: Operation, role: ResourceRole): DeclaredAnswer | undefined {
  const declared = Object.keys(operation.object.responses ?? {});
  const twoHundreds = declared.filter((status) => /^2\d\d$/.test(status)).sort();
  const key = PREFERRED_SUCCESS[role].find((status) => twoHundreds.includes(status)) ?? twoHundreds[0];
  if (key === undefined) {
    const range = declared.find((status) => status.toUpperCase() === '2XX');
    return range === undefined ? undefined : declaredAnswer(operation, range, role === 'create' ? 201 : 200);
  }
  return declaredAnswer(operation, key, Number(key));
}

/** The answer for an unknown id (RFC 9110 §15.5.5): the declared 404, else the 4XX range, else `default`. */
export function notFoundAnswer(operation: Operation): DeclaredAnswer | undefined {
  const declared = Object.keys(operation.object.responses ?? {});
  const key =
    declared.find((status) => status === '404') ??
    declared.find((status) => status.toUpperCase() === '4XX') ??
    declared.find((status) => status === 'default');
  return key === undefined ? undefined : declaredAnswer(operation, key, 404);
}

function declaredAnswer(operation: Operation, key: string, status: number): DeclaredAnswer {
  const response = (operation.object.responses?.[key] ?? {}) as OpenAPIV3.ResponseObject;
  const mediaType = Object.keys(response.content ?? {}).find(isJsonMediaType);
  return {
    status,
    declared: key,
    mediaType,
    schema: mediaType ? response.content?.[mediaType]?.schema : undefined,
    headers: Object.keys(response.headers ?? {}),
  };
}

/** The JSON request body of a create or replace: the first JSON media type the document lists. */
export function jsonRequest(operation: Operation): RequestRule | undefined {
  const body = operation.object.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  if (!body) return undefined;
  const mediaType = Object.keys(body.content ?? {}).find(
    (type) => isJsonMediaType(type) && patchFormatOf(type) === undefined,
  );
  if (mediaType === undefined) return undefined;
  return requestRule(body, mediaType);
}

/**
 * The PATCH formats an operation accepts. `application/merge-patch+json` is RFC 7396 and `application/json-patch+json`
 * RFC 6902; a plain `application/json` PATCH body is read as a merge patch (omitted fields kept), which is what
 * nearly every API that declares it means (a petstore-kit decision, docs/mock.md).
 */
export function patchFormats(operation: Operation): { format: PatchFormat; mediaType: string }[] {
  const body = operation.object.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  const formats: { format: PatchFormat; mediaType: string }[] = [];
  for (const mediaType of Object.keys(body?.content ?? {})) {
    const format = patchFormatOf(mediaType) ?? (isJsonMediaType(mediaType) ? 'merge-patch' : undefined);
    if (format && !formats.some((f) => f.format === format)) formats.push({ format, mediaType });
  }
  return formats;
}

/** The merge patch's request rule (its schema is the patch document's), for the merge role. */
export function patchRequest(operation: Operation, mediaType: string): RequestRule | undefined {
  const body = operation.object.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  return body ? requestRule(body, mediaType) : undefined;
}

function requestRule(body: OpenAPIV3.RequestBodyObject, mediaType: string): RequestRule {
  const schema = body.content[mediaType]?.schema;
  const shape = schema ? objectShape(schema) : undefined;
  return {
    required: body.required === true,
    mediaType,
    schema,
    properties: shape?.known ? Object.keys(shape.properties) : undefined,
  };
}

function patchFormatOf(mediaType: string): PatchFormat | undefined {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/merge-patch+json') return 'merge-patch';
  if (essence === 'application/json-patch+json') return 'json-patch';
  return undefined;
}

/** `x-petstore-kit-role: none` on an operation: the user's word that it is no resource operation. */
export function optedOut(operation: Operation): boolean {
  return (operation.object as unknown as Record<string, unknown>)[ROLE_EXTENSION] === 'none';
}
